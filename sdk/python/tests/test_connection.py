"""The SDK's connection against a stand-in host (a ROUTER socket with PLAIN authentication,
as the real host uses on ipc): registration, heartbeats, DISCONNECT, REJECTED and SIGTERM.
The real host is driven by Tests/IntegrationTests/PythonSDKTests.swift."""

import json
import os
import pathlib
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest

import zmq
from zmq.auth.thread import ThreadAuthenticator

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]
from intentd import wire  # noqa: E402


class StandInHost:
    def __init__(self, directory):
        self.context = zmq.Context()
        self.public, self.secret = (k.decode() for k in zmq.curve_keypair())
        self.auth = ThreadAuthenticator(self.context)
        self.auth.start()
        self.auth.configure_plain(domain="*", passwords={self.public: self.secret})
        self.router = self.context.socket(zmq.ROUTER)
        self.router.plain_server = True
        self.router.linger = 0
        self.endpoint = "ipc://%s/extensions.sock" % directory
        self.router.bind(self.endpoint)
        self.peer = None

    def receive(self, timeout=5.0):
        """The next message from the extension as (command, rest)."""
        if not self.router.poll(int(timeout * 1000)):
            raise AssertionError("nothing from the extension in %.1f s" % timeout)
        self.peer, frame = self.router.recv_multipart()
        assert frame[:9] == wire.SIGNATURE, frame
        if frame[9] == wire.HEARTBEAT:  # the host heartbeats too, so the extension hears from it
            self.send(wire.heartbeat())
        return frame[9], frame[10:]

    def receive_command(self, command, timeout=5.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got, rest = self.receive(deadline - time.monotonic())
            if got == command:
                return rest
        raise AssertionError("no command %02x" % command)

    def send(self, frame):
        self.router.send_multipart([self.peer, frame])

    def close(self):
        self.router.close()
        self.auth.stop()
        self.context.term()


class ConnectionTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.host = StandInHost(self.dir.name)
        sandbox = os.path.join(self.dir.name, "sandbox")
        os.mkdir(sandbox, 0o700)
        environment = {
            "PATH": "/usr/bin:/bin", "PYTHONPATH": "%s:%s" % (HERE.parent, HERE.parent / "examples"),
            "INTENTD_EXTENSION_ENDPOINT": self.host.endpoint, "INTENTD_SANDBOX_DIR": sandbox,
            "INTENTD_LAUNCH_TOKEN": "token-1", "INTENTD_CURVE_PUBLICKEY": self.host.public,
            "INTENTD_CURVE_SECRETKEY": self.host.secret, "INTENTD_CURVE_SERVERKEY": self.host.public,
        }
        self.extension = subprocess.Popen([sys.executable, "-m", "jotter"], env=environment, cwd=sandbox,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def tearDown(self):
        if self.extension.poll() is None:
            self.extension.kill()
        self.extension.wait()
        self.extension.stderr.close()
        self.host.close()
        self.dir.cleanup()

    def register(self):
        body = json.loads(self.host.receive_command(wire.REGISTER))
        self.host.send(wire.SIGNATURE + bytes([wire.REGISTERED]) + json.dumps(
            {"extensionId": "org.example.jotter#1", "heartbeatMilliseconds": 200, "liveness": 3,
             "maxMessageBytes": 1048576}).encode())
        return body

    def test_it_registers_with_its_manifest_pid_and_launch_token_then_heartbeats(self):
        body = self.register()
        self.assertEqual(body["appName"], "Jotter")
        self.assertEqual(body["launchToken"], "token-1")
        self.assertEqual(body["processIdentifier"], self.extension.pid)
        beats, started = 0, time.monotonic()
        while beats < 3:
            command, _ = self.host.receive(2)
            beats += command == wire.HEARTBEAT
        self.assertLess(time.monotonic() - started, 5)

    def test_it_answers_a_request_with_the_same_id(self):
        self.register()
        self.host.send(wire.SIGNATURE + bytes([wire.REQUEST]) + struct.pack(">QB", 99, wire.RESOLVE)
                       + wire.name("AppendToNote")
                       + b'{"parameter":"targetNote","parameters":{"targetNote":"shopping"},"required":true}')
        rest = self.host.receive_command(wire.REPLY)
        self.assertEqual(struct.unpack(">Q", rest[:8])[0], 99)
        self.assertEqual(json.loads(rest[8:])["results"][0]["kind"], "disambiguation")

    def test_disconnect_from_the_host_makes_it_register_again(self):
        self.register()
        self.host.send(wire.SIGNATURE + bytes([wire.DISCONNECT]) + b"not registered; register first")
        self.assertEqual(json.loads(self.host.receive_command(wire.REGISTER))["appName"], "Jotter")

    def test_after_rejected_it_exits_78(self):
        self.host.receive_command(wire.REGISTER)
        self.host.send(wire.SIGNATURE + bytes([wire.REJECTED]) + wire.name("appTaken") + b"taken")
        self.assertEqual(self.extension.wait(10), 78)

    def test_sigterm_sends_disconnect_and_exits_0(self):
        self.register()
        self.host.receive_command(wire.HEARTBEAT)
        self.extension.send_signal(signal.SIGTERM)
        self.assertEqual(self.host.receive_command(wire.DISCONNECT), b"")
        self.assertEqual(self.extension.wait(10), 0)


if __name__ == "__main__":
    unittest.main()
