import Foundation
import IntentProtocol

/// Headless Chromium, driven through the DevTools protocol by `Fixtures/browser/cdp_driver.py`
/// (Debian's python3 with python3-websocket): open pages, evaluate JavaScript in them, wait
/// for a condition, click, type and take screenshots.
final class Browser {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered: [UInt8] = []

    /// Where screenshots go: `.build/console-screenshots/` in the package.
    static let screenshots = Products.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/console-screenshots")

    /// Starts Chromium; fails with what the driver said if it cannot.
    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")  // Debian's, with python3-websocket
        process.arguments = [Products.fixtures.appendingPathComponent("browser/cdp_driver.py").path]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        _ = try answer()
    }

    deinit { close() }

    /// Opens `url` and waits until it has loaded; returns the address it ended at.
    @discardableResult
    func open(_ url: String) throws -> JSONValue { try send(["cmd": "open", "url": .string(url)]) }

    /// The value of a JavaScript expression (promises are awaited).
    func eval(_ expression: String) throws -> JSONValue { try send(["cmd": "eval", "expr": .string(expression)]) }

    /// Waits up to `seconds` for `expression` to be truthy; returns its value.
    @discardableResult
    func wait(for expression: String, seconds: Double = 15) throws -> JSONValue {
        try send(["cmd": "wait", "expr": .string(expression), "timeout": .number(seconds)])
    }

    /// Clicks the first element `selector` matches.
    func click(_ selector: String) throws { _ = try send(["cmd": "click", "selector": .string(selector)]) }

    /// Types `text` into the element `selector` matches, as keystrokes, then Enter.
    func type(_ text: String, into selector: String) throws {
        _ = try send(["cmd": "type", "selector": .string(selector), "text": .string(text), "enter": true])
    }

    /// Saves a PNG of the whole page as `name`.png in `screenshots`.
    func screenshot(_ name: String) throws {
        _ = try send(["cmd": "screenshot", "path": .string(Self.screenshots.appendingPathComponent("\(name).png").path)])
    }

    /// Uncaught exceptions and console errors the page had so far.
    func problems() throws -> [String] { try send(["cmd": "errors"]).arrayValue?.compactMap(\.stringValue) ?? [] }

    /// Ends Chromium.
    func close() {
        guard process.isRunning else { return }
        _ = try? send(["cmd": "quit"])
        try? input.fileHandleForWriting.close()
        TestHost.reap(process)
    }

    private func send(_ command: JSONValue) throws -> JSONValue {
        input.fileHandleForWriting.write(Data(command.serialized() + [10]))
        return try answer()
    }

    private func answer() throws -> JSONValue {
        while !buffered.contains(10) {
            let more = output.fileHandleForReading.availableData
            guard !more.isEmpty else { throw TestError("the browser driver stopped") }
            buffered += more
        }
        let end = buffered.firstIndex(of: 10) ?? buffered.endIndex
        let line = Array(buffered[..<end])
        buffered.removeFirst(min(buffered.count, end + 1))
        let reply = try JSON.decode(JSONValue.self, from: line)
        guard reply["ok"] == true else { throw TestError("browser: \(reply["error"]?.stringValue ?? String(decoding: line, as: UTF8.self))") }
        return reply["value"] ?? .null
    }
}
