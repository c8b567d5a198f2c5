import CZeroMQ
import Foundation
import IntentClient
import IntentProtocol
import Testing
import ZeroMQ

/// No process can pose as another app: identities are keys the host trusts, bound to one
/// bundle id and a pinned manifest; names are validated; clients need an allowed key; tcp is
/// encrypted.
@Suite("Identity and trust", .serialized)
struct IdentityTests {
    static let monkeyChatBundle = "com.monkeychat.intents"

    /// MonkeyChat's own key, made on its first run in its sandbox.
    static func monkeyChatKeys(_ host: TestHost) throws -> CurveKeyPair {
        try KeyFile.load(host.state.appendingPathComponent("sandboxes/\(monkeyChatBundle)/identity.key"))
    }

    static func status(_ host: TestHost) throws -> HostStatus {
        try host.client().status()
    }

    @Test("A rogue process with MonkeyChat's manifest and a fresh key is rejected and receives no request while MonkeyChat runs")
    func rogueWhileMonkeyChatRuns() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        let manifest = try Manifests.monkeyChat()

        // The real MonkeyChat executable, with a key of its own that nobody trusted.
        let rogueKey = host.state.appendingPathComponent("rogue.key").path
        try host.startExtension("MonkeyChat", ["--identity", rogueKey], environment: [:], trusted: false)
        // A hand-written rogue with a fresh key, and one whose key is trusted for another app.
        let stranger = try RawPeer(endpoint: host.extensionEndpoint, security: host.extensionSecurity(trustedFor: nil))
        try stranger.register(manifest)
        let impostor = try RawPeer(endpoint: host.extensionEndpoint, security: host.extensionSecurity(trustedFor: "com.rogue.intents"))
        try impostor.register(manifest)
        // One that knows MonkeyChat's public key (not a secret) and claims it on ipc's PLAIN.
        let claimant = try RawPeer(endpoint: host.extensionEndpoint) { socket in
            try socket.makePlainClient(username: try Self.monkeyChatKeys(host).publicKey, password: try CurveKeyPair.generate().secretKey)
        }
        try claimant.register(manifest)

        for i in 0..<4 {
            let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Kiki", "content=private \(i)", "--json")
            #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        }
        #expect(try stranger.receiveAll(for: 800).isEmpty, "a peer with an unknown key hears nothing at all")
        #expect(try claimant.receiveAll(for: 100).isEmpty, "a peer that names a trusted key without its secret hears nothing")
        let heard = try impostor.extensionMessages(for: 200)
        #expect(!heard.contains { if case .request = $0 { true } else { false } }, "no REQUEST reaches the impostor")
        guard case .rejected(let code, _)? = heard.first else {
            Issue.record("the impostor was not told it is rejected: \(heard)")
            return
        }
        #expect(code == "untrustedIdentity")

        let status = try Self.status(host)
        #expect(status.extensions.first { $0.appName == "MonkeyChat" }?.instances == 1)
        #expect(status.rejected.contains { $0.code == .untrustedIdentity && $0.bundleIdentifier == Self.monkeyChatBundle })
        #expect(host.hostLog.contains("refused key SHA256:"))
    }

    @Test("An extension started by hand with a key the host does not trust says so and how to trust it, and stops at once on SIGTERM")
    func untrustedExtensionSaysSoAndStops() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        let key = host.state.appendingPathComponent("unknown.key").path
        let (listOMat, said) = try host.startUntrusted("ListOMat", ["--identity", key])
        #expect(said.contains("the host refused this extension's key"), "\(said)")
        #expect(said.contains("--identity \(key) --print-identity | intentctl extensions trust - --state-dir \(host.state.path)"), "\(said)")
        // Its key found through the state directory in its environment: the command says where.
        let (bench, benchSaid) = try host.startUntrusted("IntentBench", [])
        #expect(benchSaid.contains("IntentBench --state-dir \(host.state.path) --print-identity | intentctl extensions trust - --state-dir \(host.state.path)"), "\(benchSaid)")
        kill(bench.processIdentifier, SIGTERM)
        TestHost.reap(bench)
        // Whoever asks for the app it would serve is told why there is none.
        let sent = try host.ctl("send", "ListOMat", "CreateNote", "title=Ideas")
        #expect(sent.status == 4, "\(sent.stdout)\(sent.stderr)")
        #expect("\(sent.stdout)\(sent.stderr)".contains("an extension whose key is not trusted tried to connect"), "\(sent.stdout)\(sent.stderr)")
        #expect("\(sent.stdout)\(sent.stderr)".contains("--print-identity | intentctl extensions trust -"), "\(sent.stdout)\(sent.stderr)")
        // Its registration and DISCONNECT have no connection to go on: they must not wait for one.
        let stopping = ContinuousClock.now
        kill(listOMat.processIdentifier, SIGTERM)
        TestHost.reap(listOMat)
        #expect(listOMat.terminationReason == .exit && listOMat.terminationStatus == 0, "killed after 5 s, not stopped")
        #expect(stopping.duration(to: .now) < .seconds(4))
    }

    @Test("Across tcp, an untrusted extension is told to give its identity to the host's machine, not to a state directory of its own")
    func untrustedOverTCPNamesTheHostsMachine() throws {
        let port = UInt16(Int.random(in: 20_000...32_000))
        let host = try TestHost(["--extension-endpoint", "tcp://127.0.0.1:\(port)"])
        defer { host.stop(); host.removeState() }
        let key = host.state.appendingPathComponent("unknown.key").path
        // The host's key given on the command line, as on another machine: Z85 holds `)`, `>`, `*`.
        try host.waitFor([])
        let serverKey = try String(contentsOf: host.state.appendingPathComponent("server.pub"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let (listOMat, said) = try host.startUntrusted(
            "ListOMat", ["--identity", key, "--server-key", serverKey], environment: ["INTENTD_EXTENSION_ENDPOINT": "tcp://127.0.0.1:\(port)"])
        defer { TestHost.reap(listOMat) }
        kill(listOMat.processIdentifier, SIGTERM)
        #expect(said.contains("--identity \(key) --server-key '\(serverKey)' --print-identity here, and give what it prints to `intentctl extensions trust -` on the host's machine"), "\(said)")
        #expect(!said.contains("| intentctl"), "\(said)")
    }

    @Test("While MonkeyChat is down a rogue with its manifest is refused, and MonkeyChat restarts normally after a crash")
    func rogueWhileMonkeyChatIsDown() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        let before = try host.waitFor(["MonkeyChat"])
        let entry = try #require(before.extensions.first { $0.appName == "MonkeyChat" })
        let pid = try #require(entry.processIdentifiers.first)
        kill(Int32(pid), SIGKILL)

        var manifest = try Manifests.monkeyChat()
        let stranger = try RawPeer(endpoint: host.extensionEndpoint, security: host.extensionSecurity(trustedFor: nil))
        try stranger.register(manifest)
        // Another intent set, which would lock the real MonkeyChat out if it were accepted.
        manifest.intentsSupported = ["SearchForMessages"]
        manifest.intentsRestrictedWhileLocked = []
        let other = try RawPeer(endpoint: host.extensionEndpoint, security: host.extensionSecurity(trustedFor: nil))
        try other.register(manifest)
        #expect(try stranger.receiveAll(for: 500).isEmpty)
        #expect(try other.receiveAll(for: 100).isEmpty)

        let after = try host.waitFor(["MonkeyChat"]) { status in
            status.extensions.first { $0.appName == "MonkeyChat" }?.processIdentifiers.first.map { $0 != pid } ?? false
        }
        let restarted = try #require(after.extensions.first { $0.appName == "MonkeyChat" })
        #expect(restarted.keyFingerprints == entry.keyFingerprints, "the launcher's key, the same as before the crash")
        #expect(restarted.instances == 1)
        #expect(restarted.intentsSupported.count == 3)
        let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Kiki", "content=back", "--json")
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
    }

    @Test("A registration of a trusted bundle id with a weaker restricted set is refused, and a locked device still refuses SendMessage")
    func weakerRestrictedSetIsRefused() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        let real = try host.startExtension()
        try host.waitFor(["MonkeyChat"])
        real.terminate()
        real.waitUntilExit()
        try host.waitFor([]) { !$0.extensions.contains { $0.appName == "MonkeyChat" } }

        // MonkeyChat's own key, with a manifest that restricts nothing: refused, also while
        // the real one is down.
        let weak = Products.fixtures.appendingPathComponent("WeakMonkeyChat.plist").path
        let refused = try host.startExtension("MonkeyChat", ["--manifest", weak], environment: [:], trusted: false)
        refused.waitUntilExit()
        #expect(refused.terminationStatus == 78)
        let status = try Self.status(host)
        #expect(status.rejected.last?.code == .manifestChanged, "\(status.rejected)")
        #expect(!status.extensions.contains { $0.appName == "MonkeyChat" })
        // Its own key was refused: a request is not kept waiting for it, and says why.
        let waiting = try host.ctl("send", "MonkeyChat", "SearchForMessages")
        #expect(waiting.status == 5)
        #expect((waiting.stdout + waiting.stderr).contains("its last registration was refused"), "\(waiting.stdout)\(waiting.stderr)")

        try host.startExtension()
        try host.waitFor(["MonkeyChat"])
        #expect(try Self.status(host).rejected.isEmpty, "a refusal before it registered is history")
        #expect(try host.ctl("lock").status == 0)
        let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Coco", "content=locked", "--json")
        #expect(sent.status == 4)
        #expect(sent.json?["code"] == "requiresUnlock")
    }

    @Test("Path-like, absolute, overlong and control-character bundle ids and names are refused, and nothing outside the state directory changes")
    func badNamesAreRefused() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        let marker = "decoy\(getpid())x\(Int.random(in: 0...999_999))"
        let parent = host.state.deletingLastPathComponent()
        func listing() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: parent.path).filter { $0.contains(marker) }.sorted()
        }
        // A file the attack would overwrite, and later delete.
        try Data("{}".utf8).write(to: parent.appendingPathComponent("\(marker).json"))
        defer { try? FileManager.default.removeItem(at: parent.appendingPathComponent("\(marker).json")) }
        let before = try listing()
        let beforeContent = try Data(contentsOf: parent.appendingPathComponent("\(marker).json"))

        let security = try host.extensionSecurity(trustedFor: "com.example.valid")
        let bundles = ["../../\(marker)", "/\(parent.path)/\(marker)", "com.example." + String(repeating: "x", count: 200), "com.example.\u{1B}[31mred", "com.example.bad\nline"]
        let names = [String(repeating: "N", count: 65), "Evil\u{07}App", "Bad\u{202E}Name", " "]
        var registrations = bundles.map {
            Registration(bundleIdentifier: $0, appName: "Decoy", usageDescription: "d", intentsSupported: ["SendMessage"])
        }
        registrations += names.map {
            Registration(bundleIdentifier: "com.example.valid", appName: $0, usageDescription: "d", intentsSupported: ["SendMessage"])
        }
        var withAlias = Registration(bundleIdentifier: "com.example.valid", appName: "Valid", usageDescription: "d", intentsSupported: ["SendMessage"])
        withAlias.alternativeAppNames = [AlternativeAppName(name: "tab\there")]
        registrations.append(withAlias)
        registrations.append(Registration(bundleIdentifier: "com.example.valid", appName: "Valid", usageDescription: "", intentsSupported: ["SendMessage"]))
        for registration in registrations {
            let answer = try RawPeer.register(registration, at: host.extensionEndpoint, as: security).answer
            #expect(answer == "invalidManifest", "\(registration.bundleIdentifier.debugDescription) \(registration.appName.debugDescription)")
        }
        // An app name may look like a path: it is only a name, never part of a file name.
        let pathName = try RawPeer.register(
            Registration(bundleIdentifier: "com.example.valid", appName: "../../\(marker)", usageDescription: "d", intentsSupported: ["SendMessage"]),
            at: host.extensionEndpoint, as: security)
        #expect(pathName.answer == "registered", "an app name is only a name, even one that looks like a path")
        // What the attack would do next: set, then reset, the decoy app's vocabulary.
        for app in ["Decoy", "../../\(marker)"] {
            _ = try host.ctl("vocab", app, "contactName", "Eve")
            _ = try host.ctl("authorize", app, "reset")
        }
        #expect(try host.ctl("extensions", "trust", "../../\(marker)", host.state.appendingPathComponent("keys/client.key").path).status != 0)
        #expect(try listing() == before)
        #expect(try Data(contentsOf: parent.appendingPathComponent("\(marker).json")) == beforeContent)
        let status = try Self.status(host)
        #expect(status.extensions.map(\.bundleIdentifier).sorted() == ["com.example.valid", "com.monkeychat.intents"])
        #expect(!host.hostLog.contains("\u{1B}[31m"), "control characters are escaped in the log")
    }

    @Test("A refusal leaves status once the same key registers with its manifest fixed; another key's refusal of that bundle id stays")
    func fixedRegistrationClearsItsRefusal() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        let own = try host.extensionSecurity(trustedFor: "com.example.fixed")
        // A key trusted for another app, claiming this one's bundle id.
        let stranger = try host.extensionSecurity(trustedFor: "com.example.other")
        var manifest = Registration(bundleIdentifier: "com.example.fixed", appName: "Fixed", usageDescription: "fixes", intentsSupported: ["SendMessages"])
        #expect(try RawPeer.register(manifest, at: host.extensionEndpoint, as: own).answer == "unknownIntent")
        #expect(try RawPeer.register(manifest, at: host.extensionEndpoint, as: stranger).answer == "untrustedIdentity")
        #expect(try Self.status(host).rejected.filter { $0.bundleIdentifier == "com.example.fixed" }.map(\.code).sorted { $0.rawValue < $1.rawValue }
            == [.unknownIntent, .untrustedIdentity])
        manifest.intentsSupported = ["SendMessage"]
        #expect(try RawPeer.register(manifest, at: host.extensionEndpoint, as: own).answer == "registered")
        #expect(try Self.status(host).rejected.filter { $0.bundleIdentifier == "com.example.fixed" }.map(\.code) == [.untrustedIdentity])
    }

    @Test("A name or alternative name equal to another app's name, alias or bundle id is refused, as is a second name under a trusted bundle id")
    func takenNamesAreRefused() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        let squatter = try host.extensionSecurity(trustedFor: "com.example.squat")
        func registration(_ name: String, alias: String? = nil) -> Registration {
            var r = Registration(bundleIdentifier: "com.example.squat", appName: name, usageDescription: "squats", intentsSupported: ["SendMessage"])
            r.alternativeAppNames = alias.map { [AlternativeAppName(name: $0)] } ?? []
            return r
        }
        let attempts = [
            registration("Monkey Messenger"), registration("monkeychat"), registration("com.monkeychat.intents"),
            registration("Squat", alias: "MonkeyChat"), registration("Squat", alias: "Monkey Chat"),
        ]
        for attempt in attempts {
            let answer = try RawPeer.register(attempt, at: host.extensionEndpoint, as: squatter).answer
            #expect(answer == "appTaken", "\(attempt.appName) / \(attempt.alternativeAppNames)")
        }
        // A second app name under MonkeyChat's bundle id, with MonkeyChat's own key.
        var second = try Manifests.monkeyChat()
        second.appName = "MonkeyChat Pro"
        let ownKey = ConnectionSecurity(keys: try Self.monkeyChatKeys(host), serverKey: try host.clientSecurity().serverKey)
        #expect(try RawPeer.register(second, at: host.extensionEndpoint, as: ownKey).answer == "manifestChanged")
        // A fair name is accepted.
        let fair = try RawPeer.register(registration("Squat"), at: host.extensionEndpoint, as: squatter)
        #expect(fair.answer == "registered")
        #expect(try Self.status(host).extensions.map(\.appName).sorted() == ["MonkeyChat", "Squat"])
    }

    @Test("A client without an allowed key gets no answer, and an extension's key cannot lock, unlock, authorize or change vocabulary")
    func clientsNeedAnAllowedKey() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        let serverKey = try host.clientSecurity().serverKey
        let stranger = try RawPeer(endpoint: host.clientEndpoint, security: ConnectionSecurity(keys: try CurveKeyPair.generate(), serverKey: serverKey))
        try stranger.send(.status(RequestID(1)))
        let anonymous = try RawPeer(endpoint: host.clientEndpoint, security: nil)
        try anonymous.send(.status(RequestID(1)))
        let asExtension = try RawPeer(
            endpoint: host.clientEndpoint, security: ConnectionSecurity(keys: try Self.monkeyChatKeys(host), serverKey: serverKey))
        try asExtension.send(.lock(RequestID(2), true))
        try asExtension.send(.authorize(RequestID(3), app: "MonkeyChat", body: Body(try JSON.encode(AuthorizationRequest(decision: .deny)))))
        try asExtension.send(.vocab(RequestID(4), app: "MonkeyChat", body: Body(Array(#"{"set": {"contactName": ["Eve"]}}"#.utf8))))
        #expect(try stranger.receiveAll(for: 800).isEmpty)
        #expect(try anonymous.receiveAll(for: 100).isEmpty)
        #expect(try asExtension.receiveAll(for: 100).isEmpty)
        let status = try Self.status(host)
        #expect(!status.locked)
        #expect(status.extensions.first?.authorization != .denied)
        let vocabulary = try host.client().vocabulary(app: "MonkeyChat", VocabularyRequest())
        #expect(vocabulary.user["contactName"]?.contains("Eve") != true)

        // intentctl with a key of its own is not answered until the user allows that key.
        let other = host.state.appendingPathComponent("laptop.key").path
        let refused = try host.ctl("status", "--client-key", other, "--timeout", "1")
        // Told as what it is (not "intentd went away"), with what to do; a refusal exits 4.
        #expect(refused.status == 4, "\(refused.stderr)")
        #expect(refused.stderr.contains("refused this client's key") && refused.stderr.contains("clients trust"), "\(refused.stderr)")
        #expect(try host.ctl("clients", "trust", other, "--name", "laptop").status == 0)
        let allowed = try host.ctl("status", "--client-key", other, "--timeout", "5")
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }

    @Test("Only allowed client keys receive the updates extensions push")
    func updatesNeedAnAllowedKey() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        let updates = StateDirectory(explicit: host.state.path).updatesEndpoint
        func subscriber(_ security: ConnectionSecurity) throws -> Socket {
            let socket = try Socket(try Context(), .sub)
            try socket.subscribe()
            try security.apply(to: socket, endpoint: updates)
            try socket.connect(updates)
            return socket
        }
        let allowed = try subscriber(host.clientSecurity())
        let stranger = try subscriber(ConnectionSecurity(keys: try CurveKeyPair.generate(), serverKey: host.clientSecurity().serverKey))
        let pusher = try RawPeer.register(
            Registration(bundleIdentifier: "com.example.pusher", appName: "Pusher", usageDescription: "pushes", intentsSupported: ["SearchForMessages"]),
            at: host.extensionEndpoint, as: host.extensionSecurity(trustedFor: "com.example.pusher"))
        #expect(pusher.answer == "registered")
        usleep(300_000)  // subscriptions travel to the publisher
        _ = try ExtensionMessage.update(topic: "news", body: Body(Array(#"{"summary": "private news"}"#.utf8))).send(on: pusher.peer.socket)
        var poller = Poller()
        poller.add(allowed)
        #expect(try poller.poll(timeout: 5000) == 1)
        #expect(try allowed.receiveFrames(wait: false)?.first?.string == "Pusher/news")
        var strangerPoller = Poller()
        strangerPoller.add(stranger)
        #expect(try strangerPoller.poll(timeout: 300) == 0, "a stranger's key receives no update")

        // intentctl watch by any name of the app gets its updates; with a key the host does
        // not trust it says so and exits 4 (it printed nothing and waited).
        let output = host.state.appendingPathComponent("watch.jsonl")
        let watch = try TestHost.launch(
            Products.url("intentctl"), ["watch", "pusher", "--json", "--count", "1", "--for", "20", "--state-dir", host.state.path],
            output: output, environment: [:])
        defer { TestHost.reap(watch) }
        usleep(1_500_000)  // the watch asks the host the app's name, then subscribes
        _ = try ExtensionMessage.update(topic: "news", body: Body(Array(#"{"summary": "watched news"}"#.utf8))).send(on: pusher.peer.socket)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0)
        #expect((try? String(contentsOf: output, encoding: .utf8))?.contains("watched news") == true)
        let other = host.state.appendingPathComponent("laptop.key").path
        let refused = try host.ctl("watch", "--client-key", other, "--for", "20")
        #expect(refused.status == 4, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("refused this client's key"), "\(refused.stderr)")
    }

    @Test("On tcp a relay that records every byte sees none of a message's text, and a peer that does not speak CURVE is not served")
    func tcpIsEncrypted() throws {
        // Below the ephemeral range (32768 and up), so no outgoing connection holds it.
        let port = UInt16(Int.random(in: 20_000...32_000))
        let host = try TestHost(["--client-endpoint", "tcp://127.0.0.1:\(port)", "--extension-endpoint", "tcp://127.0.0.1:\(port + 1)"])
        defer { host.stop(); host.removeState() }
        let clientRelay = try ByteRelay(to: port)
        let extensionRelay = try ByteRelay(to: port + 1)
        defer { clientRelay.stop(); extensionRelay.stop() }
        try host.startExtension("MonkeyChat", [], environment: ["INTENTD_EXTENSION_ENDPOINT": "tcp://127.0.0.1:\(extensionRelay.port)"])
        let endpoint = "tcp://127.0.0.1:\(clientRelay.port)"
        let deadline = ContinuousClock.now + .seconds(20)
        while try host.ctl("wait", "MonkeyChat", "--endpoint", endpoint, "--for", "2").status != 0 {
            guard ContinuousClock.now < deadline else { throw TestError("MonkeyChat did not register over tcp\n\(host.hostLog)") }
        }
        let secret = "bananas-for-kiki-\(UUID().uuidString)"
        let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Kiki", "content=\(secret)", "--endpoint", endpoint, "--json")
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        #expect(sent.stdout.contains(secret) || sent.json?["outcome"] == "success")
        #expect(clientRelay.bytes.count > 0 && extensionRelay.bytes.count > 0)
        #expect(!clientRelay.saw(secret), "the message text crossed the client connection in the clear")
        #expect(!extensionRelay.saw(secret), "the message text crossed the extension connection in the clear")
        #expect(!clientRelay.saw("SendMessage") && !extensionRelay.saw("com.monkeychat.intents"))

        // A peer without CURVE (the NULL mechanism) is not served on either endpoint.
        let plainClient = try RawPeer(endpoint: "tcp://127.0.0.1:\(port)", security: nil)
        try plainClient.send(.status(RequestID(1)))
        let plainExtension = try RawPeer(endpoint: "tcp://127.0.0.1:\(port + 1)", security: nil)
        try plainExtension.register(try Manifests.monkeyChat())
        #expect(try plainClient.receiveAll(for: 800).isEmpty)
        #expect(try plainExtension.receiveAll(for: 100).isEmpty)
        #expect(try host.ctl("status", "--endpoint", endpoint).status == 0)
    }

    @Test("The host refuses a state directory that others can read, says how to fix it, and writes and serves nothing first")
    func openStateDirectoryIsRefused() throws {
        let host = try TestHost(start: false)
        defer { host.stop(); host.removeState() }
        chmod(host.state.path, 0o755)
        try host.startHost()
        host.process?.waitUntilExit()
        #expect(host.process?.terminationStatus != 0)
        #expect(host.hostLog.contains("chmod 700 \(host.state.path)"), "\(host.hostLog)")
        #expect(!host.hostLog.contains("metrics at"), "\(host.hostLog)")
        #expect(!FileManager.default.fileExists(atPath: host.state.appendingPathComponent("logs").path))
    }

    @Test("An extension that chooses its own routing id is refused; one that takes the host's id of an extension gone, with another key, speaks for nothing")
    func routingIDsAreTheHosts() throws {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("intentd-trace-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: trace) }
        let host = try TestHost(["--trace-wire", trace.path])
        defer { host.stop(); host.removeState() }
        func peer(_ security: ConnectionSecurity, routingID: [UInt8]?) throws -> RawPeer {
            try RawPeer(endpoint: host.extensionEndpoint) { socket in
                if let routingID { try socket.set(ZMQ_ROUTING_ID, bytes: routingID) }
                try security.apply(to: socket, endpoint: host.extensionEndpoint)
            }
        }
        let monkeyChatKey = try host.extensionSecurity(trustedFor: Self.monkeyChatBundle)
        // A routing id of its own choosing could be chosen again by another once it goes.
        let choosing = try peer(monkeyChatKey, routingID: Array("monkeychat-1".utf8))
        try choosing.register(try Manifests.monkeyChat())
        guard case .rejected(let code, let reason)? = try choosing.extensionMessages(for: 500).first else {
            Issue.record("a connection with a routing id of its own was not refused")
            return
        }
        #expect(code == "untrustedIdentity" && reason.contains("routing id"), "\(code): \(reason)")

        // MonkeyChat with the id the host gave it, learned here from the wire trace (as an
        // attacker would have to guess it), then gone without a word, as a crash leaves it.
        let monkeyChat = try peer(monkeyChatKey, routingID: nil)
        try monkeyChat.register(try Manifests.monkeyChat())
        guard case .registered? = try monkeyChat.extensionMessages(for: 500).first else {
            Issue.record("MonkeyChat did not register")
            return
        }
        let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").compactMap { try? JSONValue.parse(Array($0.utf8)) }
        let given = try #require(lines.last { $0["endpoint"]?.stringValue == "extensions" && $0["direction"]?.stringValue == "out" }?["peer"]?.stringValue)
        let hostsID = stride(from: 0, to: given.count, by: 2).compactMap { i in
            UInt8(given[given.index(given.startIndex, offsetBy: i)..<given.index(given.startIndex, offsetBy: i + 2)], radix: 16)
        }
        monkeyChat.socket.close()
        // A peer with a key trusted for another app takes that id and teaches names.
        let taker = try peer(try host.extensionSecurity(trustedFor: "com.rogue.intents"), routingID: hostsID)
        let teach = VocabularyRequest(set: UserVocabulary(type: "contactName", terms: ["Mallory"]))
        _ = try ExtensionMessage.vocabulary(body: Body(try JSON.encode(teach))).send(on: taker.socket, wait: false)
        let heard = try taker.extensionMessages(for: 800)
        #expect(heard.contains { if case .disconnect = $0 { true } else { false } }, "told to register first: \(heard)")
        let file = host.state.appendingPathComponent("vocabulary/\(Self.monkeyChatBundle).json")
        #expect((try? String(contentsOf: file, encoding: .utf8))?.contains("Mallory") != true)
        #expect(try Self.status(host).extensions.first { $0.appName == "MonkeyChat" } == nil, "the instance whose connection was taken is gone")
        #expect(host.hostLog.contains("another key took over its connection"))
    }

    @Test("2,000 fake registrations are refused or dropped and leave the host's memory where it was")
    func registrationFloodIsBounded() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        let pid = try #require(host.process?.processIdentifier)
        func rss() throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        // Warm up the paths a flood takes, then measure.
        let trusted = try host.extensionSecurity(trustedFor: "com.example.flood")
        var fake = try Manifests.monkeyChat()
        fake.bundleIdentifier = "com.example.flood"
        _ = try RawPeer.register(fake, at: host.extensionEndpoint, as: trusted)
        let before = try rss()

        // 1,000 over one trusted connection, 500 over 50 more connections with a trusted key,
        // 500 over 50 connections with strangers' keys.
        let flood = try RawPeer(endpoint: host.extensionEndpoint, security: trusted)
        for _ in 0..<1000 { try flood.register(fake) }
        var peers: [RawPeer] = []
        for i in 0..<100 {
            let peer = try RawPeer(endpoint: host.extensionEndpoint, security: i < 50 ? trusted : host.extensionSecurity(trustedFor: nil))
            for _ in 0..<10 { try peer.register(fake) }
            peers.append(peer)
        }
        let heard = try flood.extensionMessages(for: 1500)
        #expect(try peers[0].extensionMessages(for: 10).count <= 10)
        #expect(try peers[99].extensionMessages(for: 10).isEmpty, "a stranger hears nothing")
        #expect(heard.count <= 15, "the host reads at most 5 registrations per connection per second")
        let status = try Self.status(host)
        #expect(status.rejected.count <= 50)
        #expect(status.extensions.map(\.appName) == ["MonkeyChat"])
        let after = try rss()
        print("intentd RSS before 2,000 fake registrations: \(before) kB, after: \(after) kB")
        #expect(after - before < 16_000, "RSS grew from \(before) kB to \(after) kB")
        let sent = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=x")
        #expect(sent.status == 0)
    }

    @Test("intentctl status shows each app's key fingerprint, whether it is trusted and its authorization in words, and untrusting a key by its fingerprint drops its extension")
    func statusShowsKeys() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        let key = try Self.monkeyChatKeys(host).publicKey
        let fingerprint = CurveKeyPair.fingerprint(of: key)
        #expect(fingerprint.hasPrefix("SHA256:") && fingerprint.count == 50)
        let json = try host.ctl("status", "--json")
        let entry = try JSON.decode(HostStatus.self, from: Array(json.stdout.utf8)).extensions.first
        #expect(entry?.keyFingerprints == [fingerprint])
        #expect(entry?.trusted == true)
        let text = try host.ctl("status")
        #expect(text.stdout.contains("key: \(fingerprint) (trusted)"), "\(text.stdout)")
        // Authorization in the console's words, not the protocol's.
        #expect(text.stdout.contains("authorization: allowed") || text.stdout.contains("authorization: not asked yet"), "\(text.stdout)")
        #expect(!text.stdout.contains("notDetermined") && !text.stdout.contains("authorized"), "\(text.stdout)")
        let list = try host.ctl("extensions", "list")
        #expect(list.stdout.contains("256 \(fingerprint) com.monkeychat.intents (CURVE, trusted)"), "\(list.stdout)")

        // Untrusted by the fingerprint list and status print, as by the key or the bundle id.
        let untrusted = try host.ctl("extensions", "untrust", fingerprint)
        #expect(untrusted.status == 0 && untrusted.stdout.contains("untrusted 256 \(fingerprint)"), "\(untrusted.stdout)\(untrusted.stderr)")
        try host.waitFor([]) { !$0.extensions.contains { $0.appName == "MonkeyChat" } }
        #expect(try host.ctl("extensions", "untrust", fingerprint).status != 0, "no longer trusted")
    }
}

/// An extension on another machine, modelled by two network namespaces joined by veth.
@Suite("Remote extensions", .serialized)
struct RemoteExtensionTests {
    @Test("An extension in another network namespace registers over tcp and CURVE with its trusted key and handles an intent; with an untrusted key it is refused")
    func remoteExtensionAcrossNamespaces() throws {
        let pair: NamespacePair
        do { pair = try NamespacePair() } catch let error as NamespacePair.Unavailable {
            print("skipped: \(error)")
            return
        }
        defer { pair.remove() }
        let port = Int.random(in: 20_000...55_000)
        let endpoint = "tcp://\(pair.hostAddress):\(port)"
        let host = try TestHost(start: false)
        defer { host.removeState() }
        let intentd = try pair.launch(
            in: pair.hostNamespace, Products.url("intentd"), ["--state-dir", host.state.path, "--extension-endpoint", endpoint],
            output: host.log)
        defer { intentd.terminate(); TestHost.reap(intentd) }
        try host.waitFor([])

        // The other machine has its own state directory and a copy of the host's public key.
        let remote = host.state.appendingPathComponent("remote-machine")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        let serverKey = try String(contentsOf: host.state.appendingPathComponent("server.pub"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let arguments = ["--state-dir", remote.path, "--endpoint", endpoint, "--server-key", serverKey]
        let (bundle, key) = try host.trustExtension("MonkeyChat", arguments, environment: [:])
        #expect(bundle == "com.monkeychat.intents")

        let trusted = try pair.launch(in: pair.remoteNamespace, Products.url("MonkeyChat"), arguments, output: remote.appendingPathComponent("trusted.log"))
        defer { trusted.terminate(); TestHost.reap(trusted) }
        let status: HostStatus
        do { status = try host.waitFor(["MonkeyChat"]) } catch {
            let log = (try? String(contentsOf: remote.appendingPathComponent("trusted.log"), encoding: .utf8)) ?? ""
            throw TestError("\(error)\nthe remote extension's log:\n\(log)")
        }
        #expect(status.extensions.first?.keyFingerprints == [CurveKeyPair.fingerprint(of: key)])
        let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Kiki", "content=from afar", "--json")
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        #expect(sent.json?["outcome"] == "success")
        trusted.terminate()
        TestHost.reap(trusted)
        try host.waitFor([]) { $0.extensions.isEmpty }

        // The same extension with a key nobody trusted.
        let other = remote.appendingPathComponent("other.key").path
        let untrusted = try pair.launch(
            in: pair.remoteNamespace, Products.url("MonkeyChat"), arguments + ["--identity", other],
            output: remote.appendingPathComponent("untrusted.log"))
        defer { untrusted.terminate(); TestHost.reap(untrusted) }
        let deadline = ContinuousClock.now + .seconds(10)
        while !host.hostLog.contains("refused key") && ContinuousClock.now < deadline { usleep(100_000) }
        let otherKey = try KeyFile.load(URL(fileURLWithPath: other)).publicKey
        #expect(host.hostLog.contains("refused key \(CurveKeyPair.fingerprint(of: otherKey)) on the extensions endpoint"))
        #expect(try host.client().status().extensions.isEmpty)
    }
}
