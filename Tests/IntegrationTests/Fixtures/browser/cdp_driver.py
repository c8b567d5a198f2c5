#!/usr/bin/env python3
"""Drives headless Chromium through the Chrome DevTools Protocol, for the console's
browser tests: one JSON command per line on stdin, one JSON answer per line on stdout.

Commands: {"cmd": "open", "url": U}, {"cmd": "eval", "expr": JS},
{"cmd": "wait", "expr": JS, "timeout": S}, {"cmd": "click", "selector": CSS},
{"cmd": "type", "selector": CSS, "text": T, "enter": true}, {"cmd": "screenshot", "path": P},
{"cmd": "errors"}, {"cmd": "quit"}. Answers: {"ok": true, "value": ...} or
{"ok": false, "error": "..."}.

Needs Debian's chromium and python3-websocket (deploy/setup.sh installs both).
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket


class Browser:
    def __init__(self):
        chromium = os.environ.get("INTENTD_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
        if not chromium:
            raise RuntimeError("chromium is not installed (apt-get install chromium)")
        self.profile = tempfile.mkdtemp(prefix="intentd-chromium-")
        arguments = [
            chromium, "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-sync", "--mute-audio",
            "--hide-scrollbars", "--remote-debugging-port=0", "--remote-allow-origins=*",
            "--window-size=1440,1000", "--force-device-scale-factor=1", "--lang=en-US",
            "--user-data-dir=" + self.profile, "about:blank",
        ]
        if os.geteuid() == 0:
            arguments.insert(1, "--no-sandbox")  # Chromium refuses to run as root otherwise
        self.process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        deadline = time.time() + 30
        while time.time() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            found = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if found:
                port = int(found.group(1))
                break
        if port is None:
            raise RuntimeError("chromium did not start its DevTools endpoint")
        with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port, timeout=10) as answer:
            targets = json.load(answer)
        page = next(t for t in targets if t.get("type") == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self.next_id = 0
        self.problems = []
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=1440, height=1000, deviceScaleFactor=1, mobile=False)

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"].get("message")))
                return message.get("result", {})
            self.note(message)

    def note(self, event):
        method = event.get("method")
        params = event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text")
            self.problems.append("exception: %s" % text)
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.problems.append("console.error: %s" % " ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise RuntimeError(details.get("exception", {}).get("description") or details.get("text"))
        return result.get("result", {}).get("value")

    def open(self, url):
        self.call("Page.navigate", url=url)
        self.wait("document.readyState === 'complete'", 20)
        return self.evaluate("location.href")

    def wait(self, expression, timeout):
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            try:
                last = self.evaluate(expression)
            except RuntimeError as problem:
                last = "error: %s" % problem
            if last and not (isinstance(last, str) and last.startswith("error: ")):
                return last
            time.sleep(0.1)
        raise RuntimeError("timed out after %s s waiting for %s (last: %r)" % (timeout, expression, last))

    def click(self, selector):
        found = self.evaluate(
            "(() => { const n = document.querySelector(%s); if (!n) return false; n.scrollIntoView({block: 'center'}); n.click(); return true; })()"
            % json.dumps(selector))
        if not found:
            raise RuntimeError("nothing matches %s" % selector)
        return True

    def type(self, selector, text, enter):
        found = self.evaluate(
            "(() => { const n = document.querySelector(%s); if (!n) return false; n.focus(); return true; })()" % json.dumps(selector))
        if not found:
            raise RuntimeError("nothing matches %s" % selector)
        self.call("Input.insertText", text=text)
        if enter:
            for kind in ("keyDown", "keyUp"):
                self.call("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter", windowsVirtualKeyCode=13,
                          nativeVirtualKeyCode=13, text="\r" if kind == "keyDown" else "")
        return True

    def screenshot(self, path):
        self.evaluate("window.scrollTo(0, 0)")  # the whole page, as it looks from its top
        metrics = self.call("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics.get("contentSize")
        width, height = max(1, int(size["width"])), max(1, int(min(size["height"], 4000)))
        shot = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                         clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as out:
            out.write(base64.b64decode(shot["data"]))
        return path

    def close(self):
        try:
            self.socket.close()
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    browser = None
    try:
        browser = Browser()
        print(json.dumps({"ok": True, "value": "ready"}), flush=True)
    except Exception as problem:
        print(json.dumps({"ok": False, "error": str(problem)}), flush=True)
        return 1
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            command = json.loads(line)
            name = command.get("cmd")
            try:
                if name == "open":
                    value = browser.open(command["url"])
                elif name == "eval":
                    value = browser.evaluate(command["expr"])
                elif name == "wait":
                    value = browser.wait(command["expr"], float(command.get("timeout", 10)))
                elif name == "click":
                    value = browser.click(command["selector"])
                elif name == "type":
                    value = browser.type(command["selector"], command["text"], bool(command.get("enter", False)))
                elif name == "screenshot":
                    value = browser.screenshot(command["path"])
                elif name == "errors":
                    value = browser.problems
                elif name == "quit":
                    print(json.dumps({"ok": True, "value": "bye"}), flush=True)
                    break
                else:
                    raise RuntimeError("unknown command %r" % name)
                print(json.dumps({"ok": True, "value": value}), flush=True)
            except Exception as problem:
                print(json.dumps({"ok": False, "error": str(problem)}), flush=True)
    finally:
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
