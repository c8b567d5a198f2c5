import Foundation
import IntentProtocol
import Testing

/// App-specific and user-specific vocabulary, and the user's authorization of apps, with real processes.
@Suite("Vocabulary and authorization", .serialized)
struct VocabularyAndAuthorizationTests {
    func user(_ host: TestHost, _ app: String, _ arguments: String...) throws -> [String: [String]] {
        let result = try host.ctl(["vocab", app] + arguments + ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return (try? result.json?["user"]?.decode(as: [String: [String]].self)) ?? [:]
    }

    @Test("User vocabulary is replaced whole, kept in order, survives a host restart, and reset removes it")
    func userVocabularyLifecycle() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        #expect(try user(host, "MonkeyChat", "nickname", "Big B", "Cocoa", "Big B")["nickname"] == ["Big B", "Cocoa"])
        #expect(try user(host, "MonkeyChat", "nickname", "Kiki K")["nickname"] == ["Kiki K"], "a whole replacement, not a merge")

        if let p = host.process {
            p.terminate()
            TestHost.reap(p)
        }
        try host.startHost()
        try host.waitFor(["MonkeyChat"])
        #expect(try user(host, "MonkeyChat")["nickname"] == ["Kiki K"], "persisted by the host")

        #expect(try user(host, "MonkeyChat", "nickname")["nickname"] == nil, "no terms removes the type")
        #expect(try user(host, "MonkeyChat", "--reset").isEmpty)
        // MonkeyChat teaches its contacts' names again; what the user set is gone for good.
        let file = host.state.appendingPathComponent("vocabulary/com.monkeychat.intents.json")
        #expect((try? String(contentsOf: file, encoding: .utf8))?.contains("Kiki K") != true)
        let unknown = try host.ctl("vocab", "Nobody")
        #expect(unknown.status == 4, "a refusal, as send's")
        #expect(unknown.stderr.contains("no extension serves the app"))
    }

    /// Sends VOCAB with `body` exactly as given and returns the host's answer.
    func rawVocab(_ host: TestHost, _ app: String, _ body: String) throws -> HostToClient? {
        let raw = try RawPeer(endpoint: host.clientEndpoint, security: try host.clientSecurity())
        try raw.send(.vocab(RequestID(1), app: app, body: Body(text: body)))
        return try raw.receiveAll(for: 2000).first.flatMap { try? HostToClient(frames: $0[...]) }
    }

    @Test("The host keeps the first of repeated terms, and refuses more than 10,000 terms without changing anything")
    func termsAreUniqueAndBounded() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        guard case .result(_, let body)? = try rawVocab(host, "MonkeyChat", #"{"set":{"type":"nickname","terms":["a","b","a","c","b"]}}"#) else {
            Issue.record("no RESULT for a vocabulary with repeated terms")
            return
        }
        #expect(try JSON.decode(VocabularyState.self, from: body.bytes).user["nickname"] == ["a", "b", "c"])
        #expect(try user(host, "MonkeyChat")["nickname"] == ["a", "b", "c"], "stored without the repeats")

        let many = (0...10_000).map { "\"term \($0)\"" }.joined(separator: ",")
        guard case .error(_, let code, let message)? = try rawVocab(host, "MonkeyChat", #"{"set":{"type":"nickname","terms":[\#(many)]}}"#) else {
            Issue.record("10,001 terms were not refused")
            return
        }
        #expect(code == "malformed" && message.contains("at most 10000"), "\(message)")
        #expect(try user(host, "MonkeyChat")["nickname"] == ["a", "b", "c"], "nothing applied, nothing cut")
        let repeats = (0...10_000).map { "\"term \($0 % 3)\"" }.joined(separator: ",")
        guard case .result? = try rawVocab(host, "MonkeyChat", #"{"set":{"type":"nickname","terms":[\#(repeats)]}}"#) else {
            Issue.record("10,001 terms of which 3 differ were refused")
            return
        }
        #expect(try user(host, "MonkeyChat")["nickname"] == ["term 0", "term 1", "term 2"])
    }

    @Test("An app's user vocabulary is bounded: a type that is not a name, a 33rd type or more than 512 KiB is refused, and a reset with a refused set changes nothing")
    func typesAreNamesAndBounded() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        func refused(_ arguments: [String], saying words: String) throws {
            let result = try host.ctl(["vocab", "MonkeyChat"] + arguments)
            #expect(result.status != 0 && result.stderr.contains("malformed") && result.stderr.contains(words), "\(result.stderr)")
        }
        for type in ["", "contact name", "1st", "x\u{1B}[2J", String(repeating: "t", count: 65)] {
            try refused([type, "a"], saying: "is not 1 to 64 letters and digits")
        }
        // MonkeyChat has set some types of its own (its contacts' names).
        let own = try user(host, "MonkeyChat").count
        for n in own..<UserVocabulary.maximumTypes {
            #expect(try user(host, "MonkeyChat", "type\(n)", "a")["type\(n)"] == ["a"])
        }
        try refused(["oneMore", "a"], saying: "at most 32 types")
        try refused(["--reset", String(repeating: "t", count: 65), "a"], saying: "letters and digits")
        #expect(try user(host, "MonkeyChat").count == UserVocabulary.maximumTypes, "nothing applied, the reset neither")

        // Replacing a type it has, or removing one, is still allowed at the bound.
        #expect(try user(host, "MonkeyChat", "type31", "b")["type31"] == ["b"])
        #expect(try user(host, "MonkeyChat", "type31").count == UserVocabulary.maximumTypes - 1)
        let big = (0..<9_000).map { "\(String(repeating: "w", count: 60)) \($0)" }
        try refused(["big"] + big, saying: "at most 524288 bytes")
        #expect(try user(host, "MonkeyChat")["big"] == nil)
    }

    @Test("MonkeyChat teaches the host its contacts' names; Zippy's own vocabulary comes with its registration")
    func vocabularyFromExtensions() throws {
        let host = try TestHost(["--extensions", "messaging,rides"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat", "Zippy"])
        var names: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while names.isEmpty && ContinuousClock.now < deadline {
            names = try user(host, "MonkeyChat")["contactName"] ?? []
            if names.isEmpty { usleep(100_000) }
        }
        #expect(names.contains("Bobo the Great") && names.contains("Little Bobo"))

        // A user's reset forgets them, and MonkeyChat, whose contacts they still are, teaches
        // them again: without them "text little bobo bring the rope" sent "bobo bring the rope".
        func taughtAgain() throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                if try user(host, "MonkeyChat")["contactName"]?.contains("Little Bobo") == true { return true }
                usleep(50_000)
            }
            return false
        }
        #expect(try user(host, "MonkeyChat", "--reset").isEmpty, "the reset itself leaves none")
        #expect(try taughtAgain(), "taught again after vocab --reset")
        #expect(try host.ctl("authorize", "MonkeyChat", "reset").status == 0)
        #expect(try taughtAgain(), "taught again after authorize reset")
        #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0)
        let sent = try host.ctl("ask", "text little bobo bring the rope", "--json")
        #expect(sent.json?["response"]?["response"]?["message"]?["content"] == "bring the rope", "\(sent.stdout)\(sent.stderr)")

        let zippy = try host.ctl("vocab", "Zippy", "--json").json
        let options = zippy?["appVocabulary"]?["parameterVocabularies"]?.arrayValue?.first
        #expect(options?["parameterNames"] == ["RequestRide.rideOptionName"])
        #expect(options?["items"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue } == ["zippy-pool", "zippy-x", "zippy-van"])
        #expect(zippy?["appVocabulary"]?["intentPhrases"]?.arrayValue?.first?["intent"] == "RequestRide")
    }

    @Test("A denied app is refused and never reached; the decision survives restarts; reset forgets it and the vocabulary")
    func authorization() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        let status = try host.ctl("status", "--json")
        #expect(status.json?["extensions"]?.arrayValue?.first?["authorization"] == "notDetermined")
        #expect(try host.ctl("send", "MonkeyChat", "SearchForMessages", "--json").status == 0, "programs may send to an app not yet decided")

        #expect(try host.ctl("authorize", "MonkeyChat", "deny").stdout.contains("denied"))
        let content = "denied \(UUID().uuidString)"
        let refused = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Coco", "content=\(content)", "--json")
        #expect(refused.status == 4)
        #expect(refused.json?["code"] == "notAuthorized")
        #expect(refused.json?["message"]?.stringValue?.contains("intentctl authorize MonkeyChat allow") == true)

        if let p = host.process {
            p.terminate()
            TestHost.reap(p)
        }
        try host.startHost()
        try host.waitFor(["MonkeyChat"])
        #expect(try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=\(content)", "--json").json?["code"] == "notAuthorized",
            "still denied after a restart")

        #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0)
        let search = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=\(content)", "--json")
        #expect(search.json?["outcome"] == "success")
        #expect(search.json?["response"]?["response"]?["messages"]?.arrayValue?.isEmpty == true, "the refused message never arrived")

        _ = try user(host, "MonkeyChat", "nickname", "Big B")
        #expect(try host.ctl("authorize", "MonkeyChat", "reset").stdout.contains("MonkeyChat: not asked yet"))
        #expect(try user(host, "MonkeyChat")["nickname"] == nil, "reset removes the app's user vocabulary")
        #expect(try host.ctl("authorize", "MonkeyChat", "maybe").status == 2)
    }
}
