import Foundation
import IntentClient
import IntentProtocol
import Testing
import ZeroMQ

/// Bad input and bad extensions never take the host down or leave a user waiting.
@Suite("Robustness", .serialized)
struct RobustnessTests {
    @Test("A host that cannot load its catalog says so and exits before it serves anything: no console is announced")
    func missingCatalogStopsBeforeTheConsole() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("intentd-nocatalog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("intentd-nocatalog-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: output) }
        let host = try TestHost.launch(
            Products.url("intentd"), ["--catalog", state.appendingPathComponent("no-such-catalog").path, "--state-dir", state.path, "--http", "127.0.0.1:0"],
            output: output, environment: [:])
        host.waitUntilExit()
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(host.terminationStatus != 0)
        #expect(printed.contains("cannot read the catalog directory"), "\(printed)")
        #expect(!printed.contains("console:") && !printed.contains("listening"), "it served before it failed:\n\(printed)")
    }

    @Test("A burst of malformed frames from raw sockets leaves the host serving the next valid request")
    func malformedBurstLeavesHostServing() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }

        let context = try Context()
        let raw = try Socket(context, .dealer)
        try host.clientSecurity().apply(to: raw, endpoint: host.clientEndpoint)
        try raw.connect(host.clientEndpoint)
        let fakeExtension = try Socket(context, .dealer)
        try host.extensionSecurity(trustedFor: "com.example.fake").apply(to: fakeExtension, endpoint: host.extensionEndpoint)
        try fakeExtension.connect(host.extensionEndpoint)
        let sig = Array("intentd/2".utf8)
        let id = RequestID(42).bytes
        func name(_ text: String) -> [UInt8] { [UInt8(text.utf8.count)] + Array(text.utf8) }
        let app = name("MonkeyChat"), intent = name("SendMessage")
        let bursts: [[[UInt8]]] = [
            [[0xFF, 0x00, 0x13]],                                  // not our protocol
            [Array("intentd/1".utf8) + [0x14] + id],               // the previous version
            [sig],                                                 // no command
            [sig + [0x99]],                                        // unknown command
            [sig + [0x10, 1, 2, 3]],                               // SUBMIT with a short request id
            [sig + [0x10] + id + app],                             // SUBMIT without its intent name
            [sig + [0x10] + id + app + [200, 65]],                 // a name longer than what is left
            [sig + [0x11] + id + [9] + app + intent],              // bad stage
            [sig + [0x10] + id + [2, 0xC3, 0x28] + intent],        // app not UTF-8
            [sig + [0x10] + id + app + intent + Array("{not json".utf8)],
            [sig + [0x14] + id, [1]],                              // two frames
            [sig + [0x14] + id + [1]],                             // STATUS with bytes after its header
            [sig + [0x05] + id + Array("{}".utf8)],                // a reply sent to the client endpoint
            [sig + [0x10] + id + app + intent + [UInt8](repeating: 0x41, count: 2 << 20)],  // 2 MiB: over the limit
        ]
        for _ in 0..<20 {
            for frames in bursts {
                try raw.send(frames: frames.map { Message(bytes: $0) })
                try fakeExtension.send(frames: frames.map { Message(bytes: $0) })
            }
        }
        // Bodies that parse as messages but not as JSON, on the extension side too.
        try fakeExtension.send(Message(bytes: sig + [0x01] + Array("{\"appName\": 3}".utf8)))

        // The host answers the malformed client messages it can with ERROR frames.
        var errors: [String: Int] = [:]
        var poller = Poller()
        poller.add(raw)
        while try poller.poll(timeout: 1000) > 0, let frames = try raw.receiveFrames(wait: false) {
            if case .error(_, let code, _)? = try? HostToClient(frames: frames[...]) { errors[code, default: 0] += 1 }
            if case .result(_, let body)? = try? HostToClient(frames: frames[...]),
                let outcome = try? JSON.decode(Outcome.self, from: body.bytes)
            {
                errors[outcome.code, default: 0] += 1
            }
        }
        #expect(errors["malformed", default: 0] >= 20 * 10)
        #expect(errors["tooLarge", default: 0] >= 1)

        let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Kiki", "content=still here", "--json")
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)\n\(host.hostLog)")
        #expect(host.process?.isRunning == true)
        #expect(host.hostLog.contains("malformed message"))
    }

    @Test("A hanging extension times out with a clear failure instead of leaving the user waiting, and the host's log says so")
    func hangingExtensionTimesOut() throws {
        let host = try TestHost(["--request-timeout", "500"])
        defer { host.stop(); host.removeState() }
        let ext = try host.startExtension()
        try host.waitFor(["MonkeyChat"])
        kill(ext.processIdentifier, SIGSTOP)
        defer { kill(ext.processIdentifier, SIGCONT) }

        let started = ContinuousClock.now
        let sent = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=x", "--json")
        #expect(sent.status == 5)
        #expect(sent.json?["outcome"] == "failure")
        #expect(sent.json?["code"] == "extensionTimeout")
        #expect(ContinuousClock.now - started < .seconds(10))
        // The extension's author finds why in the host's log, at its default level.
        #expect(host.hostLog.contains("MonkeyChat failed SearchForMessages (extensionTimeout): "), "\(host.hostLog)")
    }

    @Test("When a launched extension dies, its in-flight read goes to the restarted instance within its deadline")
    func crashedExtensionsReadGoesToTheRestartedOne() throws {
        let host = try TestHost(["--extensions", "messaging", "--request-timeout", "30000"])
        defer { host.stop(); host.removeState() }
        let status = try host.waitFor(["MonkeyChat"])
        let pid = try #require(status.extensions.first?.processIdentifiers.first)
        kill(pid_t(pid), SIGSTOP)

        let client = try host.client(timeout: .seconds(20))
        let killer = Thread {
            usleep(300_000)
            kill(pid_t(pid), SIGKILL)
        }
        killer.start()
        // Resolve has no side effects: it waits for the restarted instance instead of failing.
        let outcome = try client.submit(app: "MonkeyChat", intent: "SearchForMessages", Submission(parameters: [:]))
        #expect(outcome.outcome == .success, "\(outcome.code): \(outcome.message)")

        let restarted = try host.waitFor(["MonkeyChat"]) { $0.extensions.first?.processIdentifiers.contains(pid) == false }
        #expect(restarted.extensions.first?.instances == 1)
        #expect(host.hostLog.contains("restarting"))
    }

    @Test("Stopping the host answers a request still in flight with shuttingDown instead of silence")
    func stoppingAnswersInFlightRequests() throws {
        let host = try TestHost(["--request-timeout", "30000"])
        defer { host.stop(); host.removeState() }
        let ext = try host.startExtension()
        try host.waitFor(["MonkeyChat"])
        kill(ext.processIdentifier, SIGSTOP)
        defer { kill(ext.processIdentifier, SIGCONT) }
        let hostPID = try #require(host.process?.processIdentifier)
        Thread.detachNewThread {
            usleep(500_000)
            kill(hostPID, SIGTERM)
        }
        let started = ContinuousClock.now
        let outcome = try host.client(timeout: .seconds(20)).submit(app: "MonkeyChat", intent: "SearchForMessages", Submission(parameters: [:]))
        #expect(outcome.outcome == .failure)
        #expect(outcome.code == "shuttingDown")
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("A request to an instance whose connection just died is answered once, by the next instance or with a failure")
    func deadConnectionIsAnsweredOnce() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        let first = try host.startExtension()
        let second = try host.startExtension()
        try host.waitFor(["MonkeyChat"]) { $0.extensions.first?.instances == 2 }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        usleep(200_000)
        let client = try host.client()
        for _ in 0..<4 {
            let outcome = try client.submit(app: "MonkeyChat", intent: "SearchForMessages", Submission(parameters: [:]))
            #expect(outcome.outcome == .success, "the live instance takes over")
        }
        kill(second.processIdentifier, SIGKILL)
        second.waitUntilExit()
        usleep(200_000)
        let outcome = try client.submit(app: "MonkeyChat", intent: "SearchForMessages", Submission(parameters: [:]))
        #expect(outcome.code == "extensionUnavailable", "an app the host has known is waited for, then unavailable, never unknown")
        #expect(try client.status().extensions.isEmpty)
        #expect(host.process?.isRunning == true)
    }

    @Test("An extension started before the host registers once the host comes up")
    func extensionStartedFirstRegistersLater() throws {
        let host = try TestHost(start: false)
        defer { host.stop(); host.removeState() }
        try host.startExtension()
        usleep(1_500_000)
        try host.startHost()
        try host.waitFor(["MonkeyChat"])
    }

    @Test("An extension re-registers after the host restarts")
    func extensionReRegistersAfterHostRestart() throws {
        let host = try TestHost(["--heartbeat", "200"])
        defer { host.stop(); host.removeState() }
        try host.startExtension()
        try host.waitFor(["MonkeyChat"])
        if let p = host.process {
            p.terminate()
            TestHost.reap(p)
        }
        try host.startHost()
        try host.waitFor(["MonkeyChat"])
        let sent = try host.ctl("send", "MonkeyChat", "SearchForMessages", "--json")
        #expect(sent.status == 0)
    }

    @Test("What an extension sends reaches the user's terminal with its control characters escaped: it cannot clear the screen or retitle the window")
    func terminalControlsFromPeersAreEscaped() throws {
        let host = try TestHost(["--extensions", "bench"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Bench"])
        // The bench extension resolves the content to what it was sent, as a hostile one may.
        let content = "\u{1B}[2J\u{1B}]0;owned\u{07}\u{202E}hi"
        let sent = try host.ctl("send", "Bench", "SendMessage", "recipients=Coco", "content=\(content)")
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        #expect(sent.stdout.contains("\\u001B[2J\\u001B]0;owned\\u0007\\u202Ehi"), "\(sent.stdout)")
        #expect(!sent.stdout.unicodeScalars.contains { [0x1B, 0x07, 0x202E].contains($0.value) }, "\(sent.stdout)")
        let vocab = try host.ctl("vocab", "Bench", "contactName", "\u{1B}[31mred")
        #expect(vocab.status == 0 && vocab.stdout.contains("\\u001B[31mred") && !vocab.stdout.contains("\u{1B}"), "\(vocab.stdout)")
    }

    @Test("intentctl sends its key only to a host socket of its own user: one another user made is refused", .enabled(if: geteuid() == 0))
    func foreignSocketIsRefused() throws {
        let dir = try PrivateDirectory.make(prefix: "intentd-squat")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("client.sock").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(chown(path, 65534, 65534) == 0)
        let keys = try CurveKeyPair.generate()
        #expect {
            _ = try IntentClient(endpoint: "ipc://\(path)", security: ConnectionSecurity(keys: keys, serverKey: keys.publicKey))
        } throws: { "\($0)".contains("belongs to another user") }
    }

    @Test("A second intentd on a state directory in use is refused, naming the first, which keeps serving; after a kill -9 a new one starts")
    func oneHostPerStateDirectory() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        try host.waitFor([])
        let first = try #require(host.process?.processIdentifier)
        #expect(try host.client().status().processIdentifier == Int(first), "the first host is up")
        let output = host.state.appendingPathComponent("second-host.log")
        let second = try TestHost.launch(Products.url("intentd"), ["--state-dir", host.state.path, "--http", "off"], output: output, environment: [:])
        second.waitUntilExit()
        let said = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(second.terminationReason == .exit && second.terminationStatus != 0, "\(said)")
        #expect(said.contains("another intentd (pid \(first)) is using the state directory"), "\(said)")
        #expect(try host.client().status().processIdentifier == Int(first), "the first host still answers")

        kill(first, SIGKILL)
        host.process?.waitUntilExit()
        try host.startHost()
        #expect(try host.client().status().processIdentifier != Int(first))
    }

    @Test("A config file whose extensions list has an empty entry is a clear error, not a crash")
    func emptyExtensionEntryIsAnError() throws {
        let host = try TestHost(start: false)
        defer { host.removeState() }
        let config = host.state.appendingPathComponent("empty-entry.json")
        try #"{"extensions": [""]}"#.write(to: config, atomically: true, encoding: .utf8)
        let output = host.state.appendingPathComponent("empty-entry.log")
        let p = try TestHost.launch(Products.url("intentd"), ["--state-dir", host.state.path, "--config", config.path], output: output, environment: [:])
        p.waitUntilExit()
        let log = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(p.terminationReason == .exit && p.terminationStatus != 0, "\(p.terminationReason) \(p.terminationStatus): \(log)")
        #expect(log.contains("write NAME or NAME:COUNT"), "\(log)")
    }

    @Test("Each run's private directory is new, this user's alone, and named so no one can guess it")
    func privateDirectoriesAreUnguessable() throws {
        let a = try PrivateDirectory.make(prefix: "intentd-test")
        let b = try PrivateDirectory.make(prefix: "intentd-test")
        defer { for d in [a, b] { try? FileManager.default.removeItem(at: d) } }
        #expect(a != b)
        let mode = try FileManager.default.attributesOfItem(atPath: a.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("intentctl says clearly when no host is running, and exits 2")
    func clientWithoutHostFailsClearly() throws {
        let host = try TestHost(start: false)
        defer { host.removeState() }
        let result = try host.ctl("status")
        #expect(result.status == 2)
        #expect(result.stderr.contains("intentd is not running"))
    }

    @Test("Usage errors exit 2 with a message, not a stack trace")
    func usageErrorsExitTwo() throws {
        let host = try TestHost(start: false)
        defer { host.removeState() }
        let result = try host.ctl("send", "MonkeyChat")
        #expect(result.status == 2)
        #expect(result.stderr.contains("Missing expected argument"))
        let bad = try host.ctl("send", "MonkeyChat", "SendMessage", "novalue")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("name=value"))
    }
}
