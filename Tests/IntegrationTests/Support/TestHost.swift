import Foundation
import IntentClient
import IntentProtocol
import ZeroMQ

/// The directory holding the built executables (the test bundle sits beside them).
enum Products {
    /// Beside the test binary, or `$INTENTD_PRODUCTS` (deploy/chaos.sh runs some tests
    /// against the release build).
    static let directory = ProcessInfo.processInfo.environment["INTENTD_PRODUCTS"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()

    /// A product of this package by name, or any executable by path.
    static func url(_ name: String) -> URL { name.hasPrefix("/") ? URL(fileURLWithPath: name) : directory.appendingPathComponent(name) }

    /// The repository's fixtures folder for these tests.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
}

/// What a command printed and how it ended.
struct CommandResult {
    let status: Int32
    let stdout: String
    let stderr: String

    /// The standard output as JSON.
    var json: JSONValue? { try? JSON.decode(JSONValue.self, from: Array(stdout.utf8)) }
}

/// A real `intentd` process in its own temporary state directory, with helpers to start
/// extensions beside it and run `intentctl` against it.
final class TestHost {
    let state: URL
    private(set) var process: Process?
    private var extensions: [Process] = []
    let hostArguments: [String]
    let hostEnvironment: [String: String]

    /// Starts intentd (unless `start` is false) with extra arguments and environment.
    init(_ arguments: [String] = [], environment: [String: String] = [:], start: Bool = true) throws {
        let template = "/tmp/intentd-test-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw TestError("mkdtemp failed") }
        state = URL(fileURLWithPath: String(cString: made))
        hostArguments = arguments
        hostEnvironment = environment
        if start { try startHost() }
    }

    deinit { stop() }

    /// A host started with a config file holding `config` (the probe extension known as
    /// `probe` unless the config names other executables).
    static func configured(_ config: [String: JSONValue], _ arguments: [String] = [], start: Bool = true) throws -> TestHost {
        let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("intentd-config-\(UUID().uuidString).json")
        var fields = config
        fields["executables"] = fields["executables"] ?? ["probe": "IntentProbe"]
        try Data(JSONValue.object(fields).serialized()).write(to: file)
        return try TestHost(["--config", file.path] + arguments, start: start)
    }

    /// A host with one MonkeyChat started by hand beside it, registered and ready.
    static func withMonkeyChat(_ arguments: [String] = []) throws -> TestHost {
        let host = try TestHost(arguments)
        try host.startExtension()
        try host.waitFor(["MonkeyChat"])
        return host
    }

    var log: URL { state.appendingPathComponent("intentd.log") }
    var clientEndpoint: String { StateDirectory(explicit: state.path).clientEndpoint }
    var extensionEndpoint: String { StateDirectory(explicit: state.path).extensionEndpoint }

    /// Tests run hosts side by side: each serves HTTP on a free port unless a test says otherwise.
    private var httpArguments: [String] { hostArguments.contains("--http") ? [] : ["--http", "127.0.0.1:0"] }

    /// The host's metrics, scraped from the address STATUS gives.
    func metrics() throws -> MetricsScrape {
        guard let base = try client().status().http else { throw TestError("the host serves no HTTP") }
        return try MetricsScrape(url: "\(base)/metrics")
    }

    /// Starts (or restarts) the host process.
    func startHost() throws {
        process = try Self.launch(
            Products.url("intentd"), ["--state-dir", state.path] + httpArguments + hostArguments,
            output: log, environment: hostEnvironment)
    }

    /// Stops the host (SIGTERM, then SIGKILL) and every extension this helper started.
    func stop() {
        for p in extensions + [process].compactMap({ $0 }) where p.isRunning {
            p.terminate()
        }
        for p in extensions + [process].compactMap({ $0 }) { Self.reap(p) }
        extensions.removeAll()
        process = nil
    }

    /// Removes the state directory, unless INTENTD_KEEP_TEST_STATE is set (to read the logs).
    func removeState() {
        guard ProcessInfo.processInfo.environment["INTENTD_KEEP_TEST_STATE"] == nil else { return }
        try? FileManager.default.removeItem(at: state)
    }

    /// Starts an extension by hand, connected to this host, after installing its key as a
    /// user would (`EXTENSION --print-identity`, then `intentctl extensions trust`).
    @discardableResult
    func startExtension(_ name: String = "MonkeyChat", _ arguments: [String] = [], environment: [String: String] = [:]) throws -> Process {
        try startExtension(name, arguments, environment: environment, trusted: true)
    }

    /// Starts an extension by hand; with `trusted: false` its key is not installed.
    @discardableResult
    func startExtension(_ name: String, _ arguments: [String], environment: [String: String], trusted: Bool) throws -> Process {
        let environment = ["INTENTD_STATE_DIR": state.path, "INTENTD_EXTENSION_ENDPOINT": extensionEndpoint]
            .merging(environment) { _, new in new }
        if trusted { try trustExtension(name, arguments, environment: environment) }
        let output = state.appendingPathComponent("\(Products.url(name).lastPathComponent)-\(extensions.count).log")
        let p = try Self.launch(Products.url(name), arguments, output: output, environment: environment)
        extensions.append(p)
        return p
    }

    /// Starts an extension by hand with a key the host does not trust, and waits up to 20 s
    /// for it to say so in its output. Returns the process and that output.
    func startUntrusted(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (Process, String) {
        let output = state.appendingPathComponent("\(Products.url(name).lastPathComponent)-\(extensions.count).log")
        let p = try startExtension(name, arguments, environment: environment, trusted: false)
        let deadline = ContinuousClock.now + .seconds(20)
        var said = ""
        while ContinuousClock.now < deadline {
            said = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if said.contains("refused this extension's key") { break }
            usleep(50_000)
        }
        return (p, said)
    }

    /// Asks an extension for its bundle id and key (`--print-identity`) and trusts that key.
    /// Returns the bundle id and the key.
    @discardableResult
    func trustExtension(_ name: String, _ arguments: [String], environment: [String: String]) throws -> (bundle: String, key: String) {
        let output = state.appendingPathComponent("\(Products.url(name).lastPathComponent)-identity.out")
        // launch appends to an existing file: each answer is read from a file of its own.
        try? FileManager.default.removeItem(at: output)
        let p = try Self.launch(Products.url(name), arguments + ["--print-identity"], output: output, environment: environment)
        p.waitUntilExit()
        let words = ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        guard p.terminationStatus == 0, words.count == 2 else {
            throw TestError("\(name) --print-identity failed: \(words.joined(separator: " "))")
        }
        try trust(words[1], for: words[0])
        return (words[0], words[1])
    }

    /// Trusts `key` for `bundle` with `intentctl extensions trust`, passing the key in a
    /// file as a careful user would (a Z85 key may start with `-`).
    func trust(_ key: String, for bundle: String) throws {
        let file = state.appendingPathComponent("trusted-\(UUID().uuidString).pub")
        try Data((key + "\n").utf8).write(to: file)
        let trusted = try ctl("extensions", "trust", bundle, file.path)
        guard trusted.status == 0 else { throw TestError("cannot trust a key for \(bundle): \(trusted.stderr)") }
    }

    /// The local client's identity, as intentctl uses it (the host makes it when it starts).
    /// Waits up to 10 s for a host that is starting to publish its key.
    func clientSecurity() throws -> ConnectionSecurity {
        let directory = StateDirectory(explicit: state.path)
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: directory.serverPublicKeyFile.path) && ContinuousClock.now < deadline {
            usleep(20_000)
        }
        return try ConnectionSecurity.client(state: directory)
    }

    /// A new key pair for an extension that speaks the wire by hand, trusted for `bundle`
    /// (with `intentctl extensions trust`) unless `bundle` is nil.
    func extensionSecurity(trustedFor bundle: String?) throws -> ConnectionSecurity {
        let keys = try CurveKeyPair.generate()
        if let bundle { try trust(keys.publicKey, for: bundle) }
        return ConnectionSecurity(keys: keys, serverKey: try clientSecurity().serverKey)
    }

    /// Runs intentctl against this host.
    func ctl(_ arguments: String...) throws -> CommandResult {
        try ctl(arguments)
    }

    /// Runs intentctl against this host.
    func ctl(_ arguments: [String]) throws -> CommandResult {
        try ctl(arguments) { _ in }
    }

    /// Runs intentctl against this host, and `during` with its process while it runs.
    func ctl(_ arguments: [String], during: (Process) throws -> Void) throws -> CommandResult {
        let out = state.appendingPathComponent("ctl.out")
        let err = state.appendingPathComponent("ctl.err")
        let p = Process()
        p.executableURL = Products.url("intentctl")
        p.arguments = arguments + ["--state-dir", state.path]
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        try during(p)
        p.waitUntilExit()
        return CommandResult(
            status: p.terminationStatus,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// A client of this host.
    func client(timeout: Duration = .seconds(10)) throws -> IntentClient {
        try IntentClient(endpoint: clientEndpoint, timeout: timeout, security: try clientSecurity())
    }

    /// Waits until the host answers and every app in `apps` is registered; returns the status.
    @discardableResult
    func waitFor(_ apps: [String], timeout: Duration = .seconds(20), where extra: (HostStatus) -> Bool = { _ in true })
        throws -> HostStatus
    {
        let deadline = ContinuousClock.now + timeout
        var last: HostStatus?
        while ContinuousClock.now < deadline {
            if let status = try? client(timeout: .seconds(1)).status() {
                last = status
                let names = Set(status.extensions.map(\.appName))
                if apps.allSatisfy(names.contains), extra(status) { return status }
            }
            usleep(50_000)
        }
        throw TestError("timed out waiting for \(apps); last status: \(last.map { JSON.pretty($0) } ?? "none")\nlog:\n\(hostLog)")
    }

    /// Kills the launched instance of `app` with `pid` (SIGKILL) and waits until the host has
    /// seen its process exit and the restarted instance has registered: until the host has
    /// seen the exit, the dead instance may still be listed, under another pid.
    @discardableResult
    func killAndWaitForRestart(_ app: String, pid: Int) throws -> HostStatus {
        try killAndWaitForExit(pid: pid)
        return try waitFor([app]) { $0.extensions.first { $0.appName == app }?.processIdentifiers.contains(pid) == false }
    }

    /// Kills the launched extension process `pid` (SIGKILL) and waits until the host has seen
    /// it exit (and so dropped its instance); a restart follows after the launch's back-off.
    func killAndWaitForExit(pid: Int) throws {
        let exited = "its process exited"
        let before = hostLog.components(separatedBy: exited).count
        kill(pid_t(pid), SIGKILL)
        let deadline = ContinuousClock.now + .seconds(10)
        while hostLog.components(separatedBy: exited).count == before, ContinuousClock.now < deadline { usleep(5_000) }
        guard hostLog.components(separatedBy: exited).count > before else { throw TestError("the host never saw \(pid) exit") }
    }

    /// Waits until no instance of `app` is registered (an extension started by hand and
    /// killed is dropped once its heartbeats stop).
    func waitUntilGone(_ app: String, timeout: Duration = .seconds(15)) throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if (try? client(timeout: .seconds(1)).status())?.extensions.contains(where: { $0.appName == app }) == false { return }
            usleep(20_000)
        }
        throw TestError("\(app) was never seen gone")
    }

    /// Everything the host wrote so far.
    var hostLog: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// The host's log lines so far, read back (message, level, metadata).
    var hostLines: [LogLine] { LogLine.all(in: hostLog) }

    /// The lines a launched extension wrote, read back from `STATE/logs/BUNDLE.log` (each
    /// after the host's `TIME [NAME] ` in front).
    func extensionLines(_ bundle: String) -> [LogLine] {
        let text = (try? String(contentsOf: state.appendingPathComponent("logs/\(bundle).log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in line.range(of: "] ").flatMap { LogLine(line[$0.upperBound...]) } }
    }

    /// The host's lines about `app` (its `app` metadata) whose message starts with `text`.
    func hostLines(about app: String, startingWith text: String) -> [LogLine] {
        hostLines.filter { $0.metadata["app"] == app && $0.message.hasPrefix(text) }
    }

    static func launch(_ executable: URL, _ arguments: [String], output: URL, environment: [String: String]) throws -> Process {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        p.environment = env
        let handle = try OutputFile.open(output)
        handle.seekToEndOfFile()
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        return p
    }

    /// Waits up to 5 s for a process to end, then kills it.
    static func reap(_ p: Process) {
        let deadline = ContinuousClock.now + .seconds(5)
        while p.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
    }
}

/// A failure inside the test harness.
struct TestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
