import Foundation
import IntentProtocol
import Testing

/// The Python SDK (`sdk/python`) and its example, Jotter, against the real intentd: the
/// example runs with Debian's python3 and the SDK from the repository (nothing is installed
/// at test time; deploy/setup.sh installs python3-zmq).
@Suite("Python SDK", .serialized)
struct PythonSDKTests {
    /// The repository's `sdk/python`.
    static let sdk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sdk/python")
    /// A python3 with pyzmq: `INTENTD_PYTHON`, else Debian's.
    static let python = ProcessInfo.processInfo.environment["INTENTD_PYTHON"] ?? "/usr/bin/python3"
    /// What Jotter needs to find the SDK and itself.
    static let environment = ["PYTHONPATH": "\(sdk.path):\(sdk.appendingPathComponent("examples").path)"]

    /// A host with Jotter started by hand beside it (`--print-identity`, trust, start), registered.
    func hostWithJotter() throws -> (TestHost, Process) {
        let host = try TestHost()
        let jotter = try host.startExtension(Self.python, ["-m", "jotter"], environment: Self.environment)
        try host.waitFor(["Jotter"])
        return (host, jotter)
    }

    func send(_ host: TestHost, _ intent: String, _ parameters: String...) throws -> JSONValue {
        let result = try host.ctl(["send", "Jotter", intent] + parameters + ["--json"])
        return result.json ?? ["stderr": .string(result.stderr)]
    }

    func results(_ outcome: JSONValue, _ parameter: String) -> [JSONValue]? {
        outcome["resolutions"]?.arrayValue?.first { $0["parameter"]?.stringValue == parameter }?["results"]?.arrayValue
    }

    @Test("A SUBMIT runs through resolve, confirm and handle: an unclear note asks which, a missing text asks for it, then it is added")
    func submitThroughEveryStage() throws {
        let (host, jotter) = try hostWithJotter()
        defer { host.stop(); host.removeState() }
        _ = jotter

        let unclear = try send(host, "AppendToNote", "targetNote=shopping")
        #expect(unclear["outcome"] == "needsUserInput")
        #expect(unclear["code"] == "disambiguation")
        #expect(results(unclear, "targetNote")?.first?["options"] == ["Shopping list", "Shopping for the party"])
        #expect(results(unclear, "content")?.first?["kind"] == "needsValue")

        let noText = try send(host, "AppendToNote", "targetNote=Shopping list")
        #expect(noText["code"] == "needsValue")
        #expect(results(noText, "targetNote")?.first == ["kind": "success", "value": "Shopping list"])

        let added = try send(host, "AppendToNote", "targetNote=Shopping list", "content=bananas")
        #expect(added["outcome"] == "success")
        #expect(added["response"]?["response"]?["note"]?["content"] == "bananas")
        let again = try send(host, "AppendToNote", "targetNote=Shopping list", "content=more bananas")
        #expect(again["response"]?["response"]?["note"]?["content"] == "bananas\nmore bananas", "the note is kept in the sandbox")
    }

    @Test("A new note is published as an update and its title joins the app's user vocabulary")
    func updatesAndVocabulary() throws {
        let (host, jotter) = try hostWithJotter()
        defer { host.stop(); host.removeState() }
        _ = jotter
        let before = try host.ctl("vocab", "Jotter", "--json")
        #expect(before.json?["user"]?["notebookItemTitle"] == ["Packing", "Shopping for the party", "Shopping list"])

        let output = host.state.appendingPathComponent("notes.jsonl")
        let watcher = try TestHost.launch(
            Products.url("intentctl"), ["watch", "Jotter", "--json", "--count", "1", "--for", "10", "--state-dir", host.state.path],
            output: output, environment: [:])
        usleep(500_000)
        let created = try send(host, "CreateNote", "title=Birthday ideas", "content=kite")
        #expect(created["outcome"] == "success")
        #expect(results(created, "groupName")?.first?["kind"] == "notRequired")
        watcher.waitUntilExit()
        let update = try JSON.decode(Update.self, from: Array(try String(contentsOf: output, encoding: .utf8).utf8.prefix { $0 != 10 }))
        #expect(update.topic == "note")
        #expect(update.payload["note"]?["title"] == "Birthday ideas")
        #expect(update.payload["event"] == "created")

        let after = try host.ctl("vocab", "Jotter", "--json")
        #expect(after.json?["user"]?["notebookItemTitle"]?.arrayValue?.first == "Birthday ideas")
        #expect(try send(host, "CreateNote", "title=birthday ideas")["code"] == "unsupported", "a title that exists is refused")
    }

    @Test("On SIGTERM the Python extension sends DISCONNECT and exits 0")
    func cleanStop() throws {
        let (host, jotter) = try hostWithJotter()
        defer { host.stop(); host.removeState() }
        kill(jotter.processIdentifier, SIGTERM)
        TestHost.reap(jotter)
        #expect(jotter.terminationReason == .exit)
        #expect(jotter.terminationStatus == 0)
        let gone = host.hostLines(about: "Jotter", startingWith: "Jotter (org.example.jotter#1) is gone")
        #expect(gone.map(\.message) == ["Jotter (org.example.jotter#1) is gone: it disconnected"], "the host was told, not left to notice")
        #expect(gone.first?.metadata["instance"] == "org.example.jotter#1")
    }

    @Test("A Python extension with a key the host does not trust says so and how to trust it, and stops on SIGTERM")
    func untrustedSaysSo() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        let (jotter, said) = try host.startUntrusted(Self.python, ["-m", "jotter"], environment: Self.environment)
        #expect(said.contains("the host refused this extension's key"), "\(said)")
        // The state directory came from the environment: the command says it, or a shell without it prints another key.
        #expect(said.contains("-m jotter --state-dir \(host.state.path) --print-identity | intentctl extensions trust - --state-dir \(host.state.path)"), "\(said)")
        kill(jotter.processIdentifier, SIGTERM)
        TestHost.reap(jotter)
        #expect(jotter.terminationReason == .exit && jotter.terminationStatus == 0)
    }

    @Test("Across tcp, an untrusted Python extension is told to give its identity to the host's machine")
    func untrustedOverTCPNamesTheHostsMachine() throws {
        let port = UInt16(Int.random(in: 20_000...32_000))
        let host = try TestHost(["--extension-endpoint", "tcp://127.0.0.1:\(port)"])
        defer { host.stop(); host.removeState() }
        let environment = Self.environment.merging(["INTENTD_EXTENSION_ENDPOINT": "tcp://127.0.0.1:\(port)"]) { _, new in new }
        let (jotter, said) = try host.startUntrusted(Self.python, ["-m", "jotter"], environment: environment)
        defer { TestHost.reap(jotter) }
        kill(jotter.processIdentifier, SIGTERM)
        #expect(said.contains("-m jotter --state-dir \(host.state.path) --print-identity here, and give what it prints to `intentctl extensions trust -` on the host's machine"), "\(said)")
        #expect(!said.contains("| intentctl"), "\(said)")
    }

    @Test("A Python extension whose key is trusted for another bundle id is rejected and exits 78, not to be restarted")
    func rejectedExits78() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        let environment = Self.environment.merging(["INTENTD_STATE_DIR": host.state.path]) { _, new in new }
        let identity = host.state.appendingPathComponent("jotter-identity.out")
        let print = try TestHost.launch(Products.url(Self.python), ["-m", "jotter", "--print-identity"], output: identity, environment: environment)
        print.waitUntilExit()
        let words = try String(contentsOf: identity, encoding: .utf8).split(whereSeparator: \.isWhitespace).map(String.init)
        try #require(words.count == 2 && words[0] == "org.example.jotter")
        try host.trust(words[1], for: "org.example.notjotter")
        let jotter = try host.startExtension(Self.python, ["-m", "jotter"], environment: Self.environment, trusted: false)
        let deadline = ContinuousClock.now + .seconds(20)
        while jotter.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
        TestHost.reap(jotter)
        #expect(jotter.terminationStatus == 78)
        #expect(!host.hostLines(about: "Jotter", startingWith: "rejected the registration of Jotter").isEmpty)
    }
}
