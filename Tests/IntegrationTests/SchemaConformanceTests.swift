import Foundation
import IntentClient
import IntentProtocol
import Testing
import ZeroMQ

/// The real host with the real extensions, every message type driven, and every body the
/// host sent or accepted checked against its JSON Schema by a JSON Schema validator
/// (python3-jsonschema) through `Protocols/validate-trace.py`.
@Suite("Bodies match their JSON Schemas", .serialized)
struct SchemaConformanceTests {
    static let repository = Products.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let validator = repository.appendingPathComponent("Protocols/validate-trace.py")
    /// Every schema of a wire body; the run must give each at least one body.
    static let bodies = [
        "registration", "registered", "stage-request", "resolve-reply", "intent-response", "error-reply", "batch-reply", "submission",
        "outcome", "host-status", "lock-state", "vocabulary-request", "vocabulary-state", "authorization-request",
        "authorization-state", "utterance", "turn", "update", "restart-state", "confirm-response", "handle-response",
    ]

    /// Runs the validator on a trace; its exit status, what it printed, and its complaints.
    func validate(_ trace: URL, require: [String] = []) throws -> CommandResult {
        let out = trace.appendingPathExtension("out"), err = trace.appendingPathExtension("err")
        defer { for file in [out, err] { try? FileManager.default.removeItem(at: file) } }
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", Self.validator.path, trace.path] + (require.isEmpty ? [] : ["--require", require.joined(separator: ",")])
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        p.waitUntilExit()
        return CommandResult(
            status: p.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    func temporaryTrace() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("intentd-trace-\(UUID().uuidString).jsonl")
    }

    /// Answers a conversation's questions until it ends: the second choice, yes, a message.
    func converse(_ client: IntentClient, _ text: String) throws -> Turn {
        var turn = try client.say(Utterance(text: text))
        for _ in 0..<8 where turn.end == nil {
            let answer = switch turn.expecting {
            case .choice?: "2"
            case .yesNo?: "yes"
            default: "bring more bananas"
            }
            turn = try client.say(Utterance(text: answer, sessionId: turn.sessionId))
        }
        return turn
    }

    @Test("Every body the host sends and accepts, for every message type, matches its JSON Schema")
    func everyBodyMatchesItsSchema() throws {
        let trace = temporaryTrace()
        defer { try? FileManager.default.removeItem(at: trace) }
        let host = try TestHost(
            ["--extensions", "messaging,lists,rides", "--trace-wire", trace.path, "--pass-env", "INTENTD_RIDE_SECONDS_PER_STEP"],
            environment: ["INTENTD_RIDE_SECONDS_PER_STEP": "0.2"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat", "List-o-Mat", "Zippy"])
        let client = try host.client()

        // A registration the host refuses, so that STATUS lists a rejection.
        let refused = Registration(
            bundleIdentifier: "org.example.refused", appName: "Refused", usageDescription: "Refused does nothing.",
            intentsSupported: ["FlyToTheMoon"])
        let (answer, _) = try RawPeer.register(refused, at: host.extensionEndpoint, as: try host.extensionSecurity(trustedFor: "org.example.refused"))
        #expect(answer == "unknownIntent")

        // AUTHORIZE and VOCAB.
        #expect(try client.authorize(app: "MonkeyChat", .allow).status == .authorized)
        #expect(try client.authorize(app: "Zippy", .allow).status == .authorized)
        #expect(try client.authorize(app: "ListOMat", .deny).status == .denied)
        #expect(try client.authorize(app: "ListOMat", .reset).status == .notDetermined)
        _ = try client.vocabulary(app: "MonkeyChat", VocabularyRequest())
        let nicknames = try client.vocabulary(app: "MonkeyChat", VocabularyRequest(set: UserVocabulary(type: "nickname", terms: ["Big B", "Cocoa"])))
        #expect(nicknames.user["nickname"] == ["Big B", "Cocoa"])
        _ = try client.vocabulary(app: "ListOMat", VocabularyRequest(reset: true))
        let echo = Registration(bundleIdentifier: "org.example.echo", appName: "Echo", usageDescription: "Echo says it back.", intentsSupported: ["SendMessage"])
        let (registered, peer) = try RawPeer.register(echo, at: host.extensionEndpoint, as: try host.extensionSecurity(trustedFor: "org.example.echo"))
        #expect(registered == "registered")
        let plain = try client.vocabulary(app: "Echo", VocabularyRequest(set: UserVocabulary(type: "contactName", terms: ["Kiki"])))
        #expect(plain.appVocabulary == AppVocabulary(), "an app without its own vocabulary gets empty lists, not nothing")
        try peer.socket.send(Array("intentd/2".utf8) + [0x07])  // DISCONNECT: Echo is not asked anything else

        // SUBMIT: needing input, refused, succeeding, confirmed, in each domain.
        let bobo = Submission(parameters: ["recipients": "Bobo", "content": "more bananas"])
        #expect(try client.submit(app: "MonkeyChat", intent: "SendMessage", bobo).code == "disambiguation")
        let sent = try client.submit(app: "MonkeyChat", intent: "SendMessage", Submission(parameters: ["recipients": "Bobo the Great", "content": "more bananas"]))
        #expect(sent.outcome == .success)
        #expect(try client.submit(app: "MonkeyChat", intent: "FlyToTheMoon", bobo).outcome == .refused)
        #expect(try client.submit(app: "Nobody", intent: "SendMessage", bobo).outcome == .refused)
        #expect(try client.submit(app: "MonkeyChat", intent: "SearchForMessages", Submission(parameters: ["searchTerms": "bananas"])).outcome == .success)
        #expect(try client.submit(app: "ListOMat", intent: "CreateTaskList", Submission(parameters: ["title": "Grocery Store"])).outcome == .success)
        _ = try client.submit(app: "ListOMat", intent: "AddTasks", Submission(parameters: ["targetTaskList": "grocery store", "taskTitles": ["rice", "olives"]]))
        let ride = Submission(parameters: ["dropOffLocation": "Ferry Building", "rideOptionName": "van"])
        #expect(try client.submit(app: "Zippy", intent: "RequestRide", ride).code == "userConfirmationRequired")
        let booked = try client.submit(app: "Zippy", intent: "RequestRide", Submission(parameters: ride.parameters, confirmed: true))
        #expect(booked.outcome == .success)

        // STAGE, with a StageRequest and with a body that is not one (an ErrorReply comes back).
        let request = StageRequest(sessionId: "S-1", language: "en", intent: "SendMessage", parameters: ["recipients": [["displayName": "Kiki"]]], parameter: "recipients", required: true)
        _ = try client.stage(app: "MonkeyChat", intent: "SendMessage", stage: .resolve, request)
        _ = try client.stage(app: "MonkeyChat", intent: "SendMessage", stage: .confirm, StageRequest(sessionId: "S-1", language: "en", intent: "SendMessage", parameters: ["content": "hi"]))
        let raw = try RawPeer(endpoint: host.clientEndpoint, security: try host.clientSecurity())
        try raw.send(.stage(RequestID(77), app: "MonkeyChat", intent: "SendMessage", .handle, body: Body(text: "not a request")))
        #expect(try raw.receiveAll(for: 2000).count == 1)

        // LOCK, and SUBMIT refused while locked.
        #expect(try client.setLocked(true).locked)
        #expect(try client.submit(app: "MonkeyChat", intent: "SendMessage", bobo).code == "requiresUnlock")
        #expect(try client.setLocked(false).locked == false)

        // SAY: a list of what the apps can do, and a whole conversation with a choice.
        #expect(try client.say(Utterance(text: "What can you do?")).end == .completed)
        let conversation = try converse(client, "Send a message to Bobo on MonkeyChat")
        #expect(conversation.end == .completed, "\(conversation)")

        // RESTART: List-o-Mat is not needed any more.
        #expect(try client.restart(app: "ListOMat").launches.count == 1)

        // STATUS, after the ride's updates were published.
        usleep(1_500_000)
        let status = try client.status()
        #expect(status.rejected.count == 1 && status.maxMessageBytes == Wire.maxMessageBytes)
        host.stop()

        let result = try validate(trace, require: Self.bodies)
        #expect(result.status == 0, "\(result.stderr)")
        let counts = try JSON.decode([String: Int].self, from: Array(result.stdout.utf8))
        #expect(Self.bodies.allSatisfy { (counts[$0] ?? 0) > 0 }, "\(counts)")
    }

    @Test("The check fails when a body does not match its schema or names a member twice")
    func mismatchesAreCaught() throws {
        func line(_ direction: String, _ frame: Message) -> String {
            #"{"direction":"\#(direction)","endpoint":"client","peer":"00aa","frames":["\#(Data(frame.bytes).base64EncodedString())"]}"#
        }
        let status = try ClientMessage.status(RequestID(1)).frame()
        for (body, complaint) in [
            (#"{"locked":"no","extensions":[],"rejected":[],"processIdentifier":1,"maxMessageBytes":1}"#, "host-status"),
            (#"{"locked":false,"extensions":[],"rejected":[],"processIdentifier":1}"#, "maxMessageBytes"),
            (#"{"locked":false,"locked":true,"extensions":[],"rejected":[],"processIdentifier":1,"maxMessageBytes":1}"#, "repeated"),
        ] {
            let trace = temporaryTrace()
            defer { try? FileManager.default.removeItem(at: trace) }
            let result = try HostToClient.result(RequestID(1), body: Body(text: body)).frame()
            try Data((line("in", status) + "\n" + line("out", result) + "\n").utf8).write(to: trace)
            let checked = try validate(trace)
            #expect(checked.status == 1, "\(body)")
            #expect(checked.stderr.contains(complaint), "\(checked.stderr)")
        }
    }
}
