import Foundation
import Synchronization
import Testing
@testable import IntentHost
@testable import IntentProtocol

/// An extension that takes batches: runs each batch's stages on a `ScriptedExtension` by
/// the rules of wire.md section 5b, and records the requests it got.
final class BatchingExtension: StageSender {
    let stages: ScriptedExtension
    /// Replies to add after the batch's own, as a broken extension would.
    let extra: [JSONValue]
    let requests = Mutex<[Stage]>([])

    init(_ stages: ScriptedExtension, extra: [JSONValue] = []) {
        self.stages = stages
        self.extra = extra
    }

    func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
        requests.withLock { $0.append(stage) }
        return await stages.stage(app: app, intent: intent, stage: stage, body: body)
    }

    func stage(app: String, intent: String, stage: Stage, body: [UInt8], key: String?, batched: Bool, route: CarriedRoute?) async -> StageReply {
        guard batched else { return await self.stage(app: app, intent: intent, stage: stage, body: body) }
        requests.withLock { $0.append(stage) }
        guard let request = try? JSON.decode(StageRequest.self, from: body), let batch = request.batch, batch.stage == stage else {
            return .reply(ErrorReply(error: "not a batch").serialized())
        }
        var parameters = request.parameters
        var replies: [JSONValue] = []
        func run(_ stage: Stage, _ parameter: StageBatch.Resolve? = nil) async -> JSONValue {
            let one = StageRequest(
                sessionId: request.sessionId, language: request.language, intent: request.intent, parameters: parameters,
                parameter: parameter?.parameter, required: parameter?.required)
            guard case .reply(let bytes) = await stages.stage(app: app, intent: intent, stage: stage, body: (try? JSON.encode(one)) ?? []),
                let reply = try? JSONValue.parse(bytes)
            else { return ErrorReply(error: "no reply").json }
            replies.append(reply)
            return reply
        }
        steps: do {
            for entry in batch.resolve {
                let reply = await run(.resolve, entry)
                guard let results = try? ResolveReply(json: reply).results,
                    StageBatch.continues(after: results, for: entry, given: parameters[entry.parameter])
                else { break steps }
                _ = ResolvedValues.apply(results, to: entry.parameter, list: entry.list, in: &parameters)
            }
            guard batch.confirm else { break steps }
            let confirmed = await run(.confirm)
            guard batch.handle, confirmed.objectValue?["code"]?.stringValue.map(StageBatch.handles(after:)) == true else { break steps }
            _ = await run(.handle)
        }
        return .reply(BatchReply(replies: replies + extra).serialized())
    }
}

/// Answers every batch with the same replies, whatever it asked, as a broken extension
/// that handles though a resolve was not settled would.
final class HandlesAnyway: StageSender {
    let replies: [JSONValue]
    init(_ replies: [JSONValue]) { self.replies = replies }

    func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
        .reply(BatchReply(replies: replies).serialized())
    }
}

@Suite("Batched lifecycles")
struct BatchedLifecycleTests {
    let send: IntentDefinition

    init() throws {
        send = try #require(try Catalog(directory: catalogDirectory).intent("SendMessage"))
    }

    func body(_ parameters: [String: JSONValue]) -> [UInt8] {
        (try? JSON.encode(Submission(parameters: parameters, sessionId: "S", idempotencyKey: "K"))) ?? []
    }

    /// The outcome one stage per request and batched, and what the extension ran each time.
    func both(_ parameters: [String: JSONValue], _ make: () -> ScriptedExtension) async -> (single: Outcome, batched: Outcome, extensions: (ScriptedExtension, BatchingExtension)) {
        let one = make()
        let single = await LifecycleDriver(sender: one).run(app: "MonkeyChat", intent: send, body: body(parameters), batched: false)
        let batching = BatchingExtension(make())
        let batched = await LifecycleDriver(sender: batching).run(app: "MonkeyChat", intent: send, body: body(parameters), batched: true)
        return (single, batched, (one, batching))
    }

    @Test("A batch with the handle that comes back whole though a resolve was not settled, or confirm failed, ends outcomeUnknown with the key")
    func handledAnywayIsUnknown() async {
        let settled: [JSONValue] = [["results": [["kind": "success", "value": "hi"]]], ["results": [["kind": "notRequired"]]], ["results": [["kind": "notRequired"]]]]
        let unsettled: [JSONValue] = [["results": [["kind": "needsValue"]]]] + settled + [["code": "ready"], ["code": "success"]]
        let failedConfirm: [JSONValue] = [["results": [["kind": "success", "value": "Coco"]]]] + settled + [["code": "failureMessageServiceNotAvailable"], ["code": "success"]]
        for replies in [unsettled, failedConfirm] {
            let driver = LifecycleDriver(sender: HandlesAnyway(replies), handleInBatch: true)
            let outcome = await driver.run(app: "MonkeyChat", intent: send, body: body(["recipients": "Coco", "content": "hi"]), batched: true)
            #expect(outcome.code == "outcomeUnknown" && outcome.idempotencyKey == "K", "\(outcome)")
        }
    }

    @Test("A lifecycle that needs nothing from the user is two requests, the reads and the handle, that run the same stages and end the same")
    func oneRequest() async {
        let (single, batched, (one, batching)) = await both(["recipients": "Coco", "content": "hi"]) { ScriptedExtension() }
        #expect(batched == single)
        #expect(batched.outcome == .success)
        #expect(batching.requests.withLock { $0 } == [.confirm, .handle])
        #expect(batching.stages.asked.withLock { $0 } == one.asked.withLock { $0 })
    }

    @Test("After a resolution that needs the user, SUBMIT resolves the rest in one more request and confirms nothing")
    func restAfterUnsettled() async {
        let content: @Sendable (StageRequest) -> JSONValue = { r in
            if let value = r.parameters[r.parameter ?? ""] { return ["results": [["kind": "success", "value": value]]] }
            return ["results": [["kind": r.required == true ? "needsValue" : "notRequired"]]]
        }
        let (single, batched, (one, batching)) = await both(["recipients": "Coco"]) { ScriptedExtension(resolve: content) }
        #expect(batched == single)
        #expect(batched.code == "needsValue")
        #expect(batched.resolutions.map(\.parameter) == ["recipients", "content", "groupName", "serviceName"])
        #expect(batching.requests.withLock { $0 } == [.confirm, .resolve])
        #expect(batching.stages.asked.withLock { $0 } == one.asked.withLock { $0 })
    }

    @Test("A confirm that fails in a batch ends the lifecycle before any handle: the outcome names no idempotency key")
    func noKeyWithoutHandle() async {
        let (single, batched, _) = await both(["recipients": "Coco", "content": "hi"]) { ScriptedExtension(confirm: ["code": "failure"]) }
        #expect(batched == single)
        #expect(batched.code == "failure")
        #expect(batched.idempotencyKey == nil)
    }

    @Test("An error reply inside a batch ends the lifecycle as it would alone, with the resolutions before it")
    func errorInside() async {
        let failing: @Sendable (StageRequest) -> JSONValue = { r in
            r.parameter == "groupName" ? ["error": "contacts locked"] : ["results": [["kind": "notRequired"]]]
        }
        let (single, batched, _) = await both(["recipients": "Coco", "content": "hi"]) { ScriptedExtension(resolve: failing) }
        #expect(batched == single)
        #expect(batched.code == "extensionError")
        #expect(batched.resolutions.map(\.parameter) == ["recipients", "content"])
    }

    @Test("A batch answered with more replies than it has stages is an invalid reply")
    func tooManyReplies() async {
        let batching = BatchingExtension(ScriptedExtension(), extra: [["code": "ready"]])
        let outcome = await LifecycleDriver(sender: batching).run(
            app: "MonkeyChat", intent: send, body: body(["recipients": "Coco", "content": "hi"]), batched: true)
        #expect(outcome.outcome == .failure)
        #expect(outcome.code == "invalidReply")
    }

    @Test("With batchedStages off, an extension that takes batches gets one stage per request")
    func configOff() async {
        let batching = BatchingExtension(ScriptedExtension())
        var driver = LifecycleDriver(sender: batching)
        driver.batchedStages = false
        _ = await driver.run(app: "MonkeyChat", intent: send, body: body(["recipients": "Coco", "content": "hi"]), batched: true)
        #expect(batching.requests.withLock { $0 } == [.resolve, .resolve, .resolve, .resolve, .confirm, .handle])
    }

    @Test("With handleInBatch, a lifecycle that needs nothing from the user is one request that ends as the stages one by one do, naming its key")
    func handleInBatchIsOneRequest() async {
        let one = ScriptedExtension()
        let single = await LifecycleDriver(sender: one).run(app: "MonkeyChat", intent: send, body: body(["recipients": "Coco", "content": "hi"]), batched: false)
        let batching = BatchingExtension(ScriptedExtension())
        let driver = LifecycleDriver(sender: batching, handleInBatch: true)
        let outcome = await driver.run(app: "MonkeyChat", intent: send, body: body(["recipients": "Coco", "content": "hi"]), batched: true)
        #expect(outcome == single)
        #expect(outcome.idempotencyKey == "K")
        #expect(batching.requests.withLock { $0 } == [.handle])
        #expect(batching.stages.asked.withLock { $0 } == one.asked.withLock { $0 })
    }

    @Test("With handleInBatch, a confirm that is not ready stops the batch before the handle: the handle goes alone, or not at all after a failure")
    func handleInBatchWaitsForReady() async {
        let notReady = BatchingExtension(ScriptedExtension(confirm: ["code": "success"]))
        let done = await LifecycleDriver(sender: notReady, handleInBatch: true).run(
            app: "MonkeyChat", intent: send, body: body(["recipients": "Coco", "content": "hi"]), batched: true)
        #expect(notReady.requests.withLock { $0 } == [.handle, .handle])
        #expect(done.outcome == .success)
        let failing = BatchingExtension(ScriptedExtension(confirm: ["code": "failure"]))
        let failed = await LifecycleDriver(sender: failing, handleInBatch: true).run(
            app: "MonkeyChat", intent: send, body: body(["recipients": "Coco", "content": "hi"]), batched: true)
        #expect(failing.requests.withLock { $0 } == [.handle])
        #expect(failed.code == "failure")
        #expect(failed.idempotencyKey == nil, "the extension stopped before the handle")
    }
}
