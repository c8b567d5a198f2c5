import Foundation
import Synchronization
import Testing
import ZeroMQ
@testable import IntentHost
@testable import IntentProtocol

/// Answers stages from a table, as an extension would, and records what it was asked.
final class ScriptedExtension: StageSender {
    let resolve: @Sendable (StageRequest) -> JSONValue
    let confirm: JSONValue
    let handle: JSONValue
    let asked = Mutex<[String]>([])

    init(resolve: @escaping @Sendable (StageRequest) -> JSONValue = { r in
        ["results": r.parameters[r.parameter ?? ""].map { _ in [["kind": "success", "value": r.parameters[r.parameter ?? ""]!]] } ?? [["kind": "notRequired"]]]
    }, confirm: JSONValue = ["code": "ready"], handle: JSONValue = ["code": "success"]) {
        self.resolve = resolve
        self.confirm = confirm
        self.handle = handle
    }

    func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
        guard let request = try? JSON.decode(StageRequest.self, from: body) else { return .failed(.malformed, "bad body") }
        asked.withLock { $0.append(stage == .resolve ? "resolve \(request.parameter ?? "")" : "\(stage)") }
        let reply: JSONValue = switch stage {
        case .resolve: resolve(request)
        case .confirm: confirm
        case .handle: handle
        }
        return .reply((try? JSON.encode(reply)) ?? [])
    }
}

@Suite("Lifecycle driver")
struct LifecycleDriverTests {
    let send: IntentDefinition

    init() throws {
        send = try #require(try Catalog(directory: catalogDirectory).intent("SendMessage"))
    }

    func body(_ parameters: [String: JSONValue], confirmed: Bool? = nil) -> [UInt8] {
        (try? JSON.encode(Submission(parameters: parameters, confirmed: confirmed))) ?? []
    }

    @Test("It resolves every parameter in catalog order, then confirms, then handles")
    func stagesInOrder() async {
        let ext = ScriptedExtension()
        let outcome = await LifecycleDriver(sender: ext).run(app: "MonkeyChat", intent: send, body: body(["recipients": "Coco", "content": "hi"]))
        #expect(outcome.outcome == .success)
        #expect(outcome.code == "success")
        #expect(ext.asked.withLock { $0 } == ["resolve recipients", "resolve content", "resolve groupName", "resolve serviceName", "confirm", "handle"])
    }

    @Test("A handle reply the host cannot read ends as outcomeUnknown with the key, since the extension may have done it")
    func unreadableHandleReplyIsUnknown() async {
        for reply: JSONValue in [["code": "sent"], ["no code": true], "not an object"] {
            let outcome = await LifecycleDriver(sender: ScriptedExtension(handle: reply))
                .run(app: "MonkeyChat", intent: send, body: body(["recipients": "Coco", "content": "hi"]))
            #expect(outcome.code == "outcomeUnknown", "\(reply)")
            #expect(outcome.idempotencyKey != nil)
        }
        // Before the handle, an unreadable reply is what it is: nothing was done.
        let early = await LifecycleDriver(sender: ScriptedExtension(confirm: ["code": "sent"]))
            .run(app: "MonkeyChat", intent: send, body: body(["recipients": "Coco", "content": "hi"]))
        #expect(early.code == "invalidReply")
        #expect(early.idempotencyKey == nil)
    }

    @Test("Asked again with the key of a handle that ended unknown, the lifecycle sends that handle again, as it was, and nothing before it")
    func unknownHandleIsSentAgainAlone() async throws {
        /// Books once: its first handle is never answered (the work is done); from then on
        /// confirm fails, as a ride already booked makes it.
        final class Booking: StageSender {
            let asked = Mutex<[String]>([])
            let booked = Mutex(false)
            func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
                let request = try? JSON.decode(StageRequest.self, from: body)
                asked.withLock { $0.append(stage == .resolve ? "resolve" : "\(stage) \(request?.parameters["content"]?.stringValue ?? "")") }
                switch stage {
                case .resolve:
                    let value = request?.parameters[request?.parameter ?? ""]
                    return .reply((try? JSON.encode(value.map { ["results": [["kind": "success", "value": $0]]] } ?? ["results": [["kind": "notRequired"]]] as JSONValue)) ?? [])
                case .confirm:
                    return .reply((try? JSON.encode(booked.withLock { $0 } ? ["code": "failureMessageServiceNotAvailable"] : ["code": "ready"] as JSONValue)) ?? [])
                case .handle:
                    if booked.withLock({ done in defer { done = true }; return !done }) { return .failed(.outcomeUnknown, "no answer") }
                    return .reply((try? JSON.encode(["code": "success"] as JSONValue)) ?? [])
                }
            }
        }
        let ext = Booking()
        let driver = LifecycleDriver(sender: ext, keyed: KeyedHandles())
        func submit(_ content: String) async throws -> Outcome {
            let body = try JSON.encode(Submission(parameters: ["recipients": "Coco", "content": .string(content)], idempotencyKey: "retry-1"))
            return await driver.run(app: "MonkeyChat", intent: send, body: body)
        }
        #expect(try await submit("hi").code == "outcomeUnknown")
        ext.asked.withLock { $0.removeAll() }
        let again = try await submit("hi")
        #expect(again.outcome == .success && again.code == "success", "\(again)")
        #expect(ext.asked.withLock { $0 } == ["handle hi"])
        // Settled now: asked once more with the key, the same outcome, and nothing is sent.
        ext.asked.withLock { $0.removeAll() }
        let third = try await submit("hi")
        #expect(third.code == "success" && third.idempotencyKey == "retry-1")
        #expect(ext.asked.withLock { $0 }.isEmpty)
    }

    @Test("Asked again with the key of an unknown handle while the app is away, the outcome stays unknown, and a later try still sends that handle")
    func unknownHandleStaysUnknownWhileTheAppIsAway() async throws {
        /// Its first handle is never answered, its second cannot be sent (the app is away),
        /// its third is answered.
        final class Away: StageSender {
            let handles = Mutex(0)
            func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
                switch stage {
                case .resolve: return .reply(Array(#"{"results":[{"kind":"notRequired"}]}"#.utf8))
                case .confirm: return .reply(Array(#"{"code":"ready"}"#.utf8))
                case .handle:
                    switch handles.withLock({ count in defer { count += 1 }; return count }) {
                    case 0: return .failed(.outcomeUnknown, "no answer")
                    case 1: return .failed(.extensionUnavailable, "MonkeyChat is not running right now; nothing was sent to it")
                    default: return .reply(Array(#"{"code":"success"}"#.utf8))
                    }
                }
            }
        }
        let ext = Away()
        let driver = LifecycleDriver(sender: ext, keyed: KeyedHandles())
        let body = try JSON.encode(Submission(parameters: ["recipients": "Coco", "content": "hi"], idempotencyKey: "away-1"))
        #expect(await driver.run(app: "MonkeyChat", intent: send, body: body).code == "outcomeUnknown")
        let away = await driver.run(app: "MonkeyChat", intent: send, body: body)
        #expect(away.code == "outcomeUnknown" && away.idempotencyKey == "away-1", "no failure is settled for a handle that may have been done: \(away)")
        #expect(away.message.contains("not running right now"))
        let back = await driver.run(app: "MonkeyChat", intent: send, body: body)
        #expect(back.code == "success", "\(back)")
        #expect(ext.handles.withLock { $0 } == 3)
    }

    @Test("A handle sent with the client's key is written down before it goes; a host that restarted sends that handle again when asked with the key, and nothing before it")
    func keyedHandleOutlivesARestart() async throws {
        /// Books once: then confirm says one is under way, as Zippy's does.
        final class Booked: StageSender {
            let asked = Mutex<[String]>([])
            let booked = Mutex(false)
            func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
                asked.withLock { $0.append("\(stage)") }
                switch stage {
                case .resolve: return .reply(Array(#"{"results":[{"kind":"notRequired"}]}"#.utf8))
                case .confirm: return .reply(Array((booked.withLock { $0 } ? #"{"code":"failureMessageServiceNotAvailable"}"# : #"{"code":"ready"}"#).utf8))
                case .handle:
                    booked.withLock { $0 = true }
                    return .reply(Array(#"{"code":"success"}"#.utf8))
                }
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("handles-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let ext = Booked()
        let keyed = try JSON.encode(Submission(parameters: ["recipients": "Coco", "content": "hi"], idempotencyKey: "restart-1"))
        let first = LifecycleDriver(sender: ext, keyed: KeyedHandles(journal: HandleJournal(url: file)))
        #expect(await first.run(app: "MonkeyChat", intent: send, body: keyed).code == "success")
        // A key the host made is not written down.
        let written = try Data(contentsOf: file)
        _ = await first.run(app: "MonkeyChat", intent: send, body: try JSON.encode(Submission(parameters: ["recipients": "Coco", "content": "hi"])))
        #expect(try Data(contentsOf: file) == written)

        ext.asked.withLock { $0.removeAll() }
        let restarted = LifecycleDriver(sender: ext, keyed: KeyedHandles(journal: HandleJournal(url: file)))
        let again = await restarted.run(app: "MonkeyChat", intent: send, body: keyed)
        #expect(again.code == "success" && again.idempotencyKey == "restart-1", "\(again)")
        #expect(ext.asked.withLock { $0 } == ["handle"])
        // A line that cannot be read, and one older than a day, are passed over.
        try Data("not json\n".utf8).write(to: file)
        var old = HandleJournal.Record(key: "old-1", app: "MonkeyChat", intent: send.name, parameters: [:], resolutions: [], time: 0)
        try HandleJournal(url: file).append(old)
        old.key = "new-1"
        old.time = Date().timeIntervalSince1970
        try HandleJournal(url: file).append(old)
        #expect(HandleJournal(url: file).load().map(\.key) == ["new-1"])
        // Past twice its capacity, the file is written again with the newest only.
        let small = HandleJournal(url: file, capacity: 2)
        for i in 0..<6 {
            old.key = "k\(i)"
            try small.append(old)
        }
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count <= 4 && small.load().map(\.key) == ["k4", "k5"], "\(lines)")
    }

    @Test("The handle journal: a record after a line cut short starts a line of its own; a key used again for another intent keeps its first record, in memory and on disk")
    func handleJournalSurvivesTornLinesAndReusedKeys() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("handles-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        var record = HandleJournal.Record(key: "a", app: "Zippy", intent: "RequestRide", parameters: [:], resolutions: [], time: Date().timeIntervalSince1970)
        try Data(#"{"app":"Zip"#.utf8).write(to: file)  // a disk that filled mid-line
        let journal = HandleJournal(url: file)
        _ = journal.load()
        try journal.append(record)
        record.intent = "CancelRide"
        try journal.append(record)
        let loaded = HandleJournal(url: file).load()
        #expect(loaded.map(\.intent) == ["RequestRide"], "\(loaded)")

        let keyed = KeyedHandles(journal: HandleJournal(url: file))
        // A lifecycle of another intent under the key does not take the first's place.
        var other = Run(app: "Zippy", intent: try #require(try Catalog(directory: catalogDirectory).intent("CancelRide")), sessionId: "s", language: "en", confirmed: true)
        other.idempotencyKey = "a"
        other.keyFromClient = true
        other.handleSent = true
        keyed.keep(other, Outcome(outcome: .failure, code: "extensionError", app: "Zippy", intent: "CancelRide", sessionId: "s", message: "key used for another intent"))
        var first = Run(app: "Zippy", intent: try #require(try Catalog(directory: catalogDirectory).intent("RequestRide")), sessionId: "s", language: "en", confirmed: true)
        first.idempotencyKey = "a"
        guard case .unknown? = keyed.take(for: first) else {
            Issue.record("the first use of the key was replaced")
            return
        }
    }

    @Test("A key is one app's: given again for another request of that app, kept or still running, or by a conversation for a SUBMIT's, it is refused; another app's use of it is its own")
    func keysAreComparedPerAppAndWhileRunning() throws {
        let catalog = try Catalog(directory: catalogDirectory)
        func run(_ app: String, _ intent: String, _ asked: JSONValue) throws -> Run {
            var run = Run(app: app, intent: try #require(catalog.intent(intent)), sessionId: "s", language: "en", confirmed: false)
            run.idempotencyKey = "k"
            run.keyFromClient = true
            run.handleSent = true
            run.asked = asked
            return run
        }
        func isOther(_ kept: KeyedHandles.Kept?) -> Bool { if case .otherRequest? = kept { true } else { false } }
        let keyed = KeyedHandles()
        let rice = try run("List-o-Mat", "AddTasks", ["taskTitles": ["rice"]])
        let beans = try run("List-o-Mat", "AddTasks", ["taskTitles": ["beans"]])
        #expect(keyed.take(for: rice) == nil)
        // While rice runs, beans with its key is refused; rice again is the same request.
        #expect(isOther(keyed.take(for: beans)))
        keyed.finished(beans)
        #expect(keyed.take(for: rice) == nil)
        keyed.finished(rice)
        keyed.keep(rice, Outcome(outcome: .success, code: "success", app: "List-o-Mat", intent: "AddTasks", sessionId: "s", message: "done"))
        keyed.finished(rice)
        #expect(isOther(keyed.take(for: beans)))
        keyed.finished(beans)
        let said = try run("List-o-Mat", "AddTasks", "add rice to my list")
        #expect(isOther(keyed.take(for: said)), "a conversation given a SUBMIT's key")
        keyed.finished(said)
        let message = try run("MonkeyChat", "SendMessage", ["content": "hi"])
        #expect(keyed.take(for: message) == nil, "another app's key is its own")
        keyed.finished(message)
        guard case .settled? = keyed.take(for: rice) else {
            Issue.record("the first outcome was not kept")
            return
        }
    }

    @Test("A parameter that needs the user stops the lifecycle before confirm")
    func needsUserInputStopsBeforeConfirm() async {
        let ext = ScriptedExtension(resolve: { r in
            r.parameter == "content" ? ["results": [["kind": "needsValue"]]] : ["results": [["kind": "notRequired"]]]
        })
        let outcome = await LifecycleDriver(sender: ext).run(app: "MonkeyChat", intent: send, body: body([:]))
        #expect(outcome.outcome == .needsUserInput)
        #expect(outcome.code == "needsValue")
        #expect(outcome.message.contains("What do you want to say?"))
        #expect(!ext.asked.withLock { $0 }.contains("confirm"))
    }

    @Test("Resolved values replace what the user said for later stages")
    func resolvedValuesAreUsed() async {
        let seen = Mutex<JSONValue?>(nil)
        let ext = ScriptedExtension(resolve: { r in
            if r.parameter == "recipients" { return ["results": [["kind": "success", "value": ["displayName": "Bobo the Great", "identifier": "b1"]]]] }
            if r.parameter == "content" { seen.withLock { $0 = r.parameters["recipients"] } }
            return ["results": [["kind": "success", "value": r.parameters[r.parameter ?? ""] ?? "x"]]]
        })
        _ = await LifecycleDriver(sender: ext).run(app: "MonkeyChat", intent: send, body: body(["recipients": "great", "content": "hi"]))
        #expect(seen.withLock { $0 } == [["displayName": "Bobo the Great", "identifier": "b1"]])
    }

    @Test("A failure code from confirm ends the lifecycle as a failure with that code")
    func confirmFailure() async {
        let ext = ScriptedExtension(confirm: ["code": "failureMessageServiceNotAvailable"])
        let outcome = await LifecycleDriver(sender: ext).run(app: "MonkeyChat", intent: send, body: body(["recipients": "a", "content": "b"]))
        #expect(outcome.outcome == .failure)
        #expect(outcome.code == "failureMessageServiceNotAvailable")
        #expect(!ext.asked.withLock { $0 }.contains("handle"))
    }

    @Test("A response code not in the catalog, or the wrong number of results, is an invalid reply")
    func invalidRepliesAreCaught() async {
        let unknownCode = ScriptedExtension(confirm: ["code": "splendid"])
        let a = await LifecycleDriver(sender: unknownCode).run(app: "M", intent: send, body: body(["recipients": "a", "content": "b"]))
        #expect(a.code == "invalidReply")
        let tooMany = ScriptedExtension(resolve: { _ in ["results": [["kind": "notRequired"], ["kind": "notRequired"]]] })
        let b = await LifecycleDriver(sender: tooMany).run(app: "M", intent: send, body: body([:]))
        #expect(b.code == "invalidReply")
        #expect(b.outcome == .failure)
    }

    @Test("Parameters that do not fit the catalog are refused before any stage runs")
    func badParametersAreRefused() async {
        let ext = ScriptedExtension()
        let outcome = await LifecycleDriver(sender: ext).run(app: "M", intent: send, body: body(["colour": "red"]))
        #expect(outcome.outcome == .refused)
        #expect(outcome.code == "invalidParameter")
        #expect(ext.asked.withLock { $0 }.isEmpty)
    }

    @Test("An intent that needs the user's confirmation stops after confirm until confirmed")
    func userConfirmation() async {
        var intent = send
        intent.requiresUserConfirmation = true
        let ext = ScriptedExtension()
        let unconfirmed = await LifecycleDriver(sender: ext).run(app: "M", intent: intent, body: body(["recipients": "a", "content": "b"]))
        #expect(unconfirmed.outcome == .needsUserInput)
        #expect(unconfirmed.code == "userConfirmationRequired")
        let confirmed = await LifecycleDriver(sender: ext).run(app: "M", intent: intent, body: body(["recipients": "a", "content": "b"], confirmed: true))
        #expect(confirmed.outcome == .success)
    }
}

/// Takes every stage and says what happened to the handle: unknown, as when the
/// extension hung or died with it in flight; records the key each stage came with.
final class UnknownHandle: StageSender {
    let keys = Mutex<[String?]>([])

    func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
        await self.stage(app: app, intent: intent, stage: stage, body: body, key: nil, batched: false, route: nil)
    }

    func stage(app: String, intent: String, stage: Stage, body: [UInt8], key: String?, batched: Bool, route: CarriedRoute?) async -> StageReply {
        keys.withLock { $0.append(key) }
        switch stage {
        case .resolve: return .reply(Array(#"{"results":[{"kind":"notRequired"}]}"#.utf8))
        case .confirm: return .reply(Array(#"{"code":"ready"}"#.utf8))
        case .handle: return .failed(.outcomeUnknown, "MonkeyChat stopped before answering")
        }
    }
}

@Suite("Lifecycle driver and idempotency keys")
struct LifecycleKeyTests {
    let send: IntentDefinition

    init() throws {
        send = try #require(try Catalog(directory: catalogDirectory).intent("SendMessage"))
    }

    @Test("Only the handle carries the key, the client's when given, and an unknown outcome names it")
    func unknownOutcomeNamesTheClientsKey() async throws {
        let ext = UnknownHandle()
        let body = try JSON.encode(Submission(parameters: ["content": "hi"], idempotencyKey: "retry-7"))
        let outcome = await LifecycleDriver(sender: ext).run(app: "MonkeyChat", intent: send, body: body)
        #expect(outcome.outcome == .failure)
        #expect(outcome.code == "outcomeUnknown")
        #expect(outcome.idempotencyKey == "retry-7")
        #expect(ext.keys.withLock { $0 } == [nil, nil, nil, nil, nil, "retry-7"])
    }

    @Test("Without a key from the client the host makes one; a lifecycle that never reached handle names none")
    func hostMakesTheKey() async throws {
        let made = await LifecycleDriver(sender: UnknownHandle()).run(
            app: "MonkeyChat", intent: send, body: try JSON.encode(Submission(parameters: [:])))
        #expect(made.idempotencyKey.map { RequestAnnotation.problem(withKey: $0) == nil } == true)
        let refused = await LifecycleDriver(sender: UnknownHandle()).run(
            app: "MonkeyChat", intent: send, body: try JSON.encode(Submission(parameters: [:], idempotencyKey: "no spaces")))
        #expect(refused.outcome == .refused && refused.code == "malformed")
        #expect(refused.idempotencyKey == nil)
    }
}
