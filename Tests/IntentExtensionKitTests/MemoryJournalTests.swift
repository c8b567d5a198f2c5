import Foundation
import IntentProtocol
import Synchronization
import Testing
@testable import IntentExtensionKit

/// An extension without storage whose one handler answers with `answer`.
private struct Answering: IntentExtension {
    static var manifestURL: URL? { nil }
    let answer: @Sendable (Intent) async throws -> IntentResponse
    init(context: ExtensionContext) async throws { answer = { _ in IntentResponse(code: "success") } }
    init(_ answer: @escaping @Sendable (Intent) async throws -> IntentResponse) { self.answer = answer }
    func handler(for intent: Intent) -> (any IntentHandler)? { Handler(answer: answer) }

    struct Handler: IntentHandler {
        let answer: @Sendable (Intent) async throws -> IntentResponse
        var resolvers: [String: Resolver] { [:] }
        func handle(_ intent: Intent) async throws -> IntentResponse { try await answer(intent) }
    }
}

/// How often each test's handler ran.
private let slowRuns = Atomic<Int>(0)
private let wordyRuns = Atomic<Int>(0)

/// A handle that takes a while and counts its runs.
private let slowCounter = Answering { _ in
    let run = slowRuns.wrappingAdd(1, ordering: .relaxed).newValue
    try await Task.sleep(for: .milliseconds(200))
    return IntentResponse(code: "success", response: ["run": .number(Double(run))])
}

/// A handle that answers more than the host takes.
private let wordy = Answering { _ in
    wordyRuns.add(1, ordering: .relaxed)
    return IntentResponse(code: "success", response: ["text": .string(String(repeating: "w", count: 5000))])
}

@Suite("The in-memory handle journal")
struct MemoryJournalTests {
    @Test("A handle's reply over the host's limit is sent and kept as its code alone, so the handle's outcome reaches the client, first time and every retry")
    func oversizedHandleReplyKeepsItsCode() async throws {
        let dispatcher = Dispatcher(extension: wordy)
        dispatcher.replyLimit.bytes.store(1024, ordering: .relaxed)
        let body = Array(#"{"sessionId":"s","language":"en","intent":"SendMessage","parameters":{},"idempotencyKey":"k-wordy-0123456789"}"#.utf8)
        let first = await dispatcher.reply(id: RequestID(1), stage: .handle, body: body)
        let again = await dispatcher.reply(id: RequestID(2), stage: .handle, body: body)
        #expect(first.count < 1024)
        #expect(try IntentResponse(json: try JSONValue.parse(first)).code == "success", "\(String(decoding: first, as: UTF8.self))")
        #expect(again == first)
        #expect(wordyRuns.load(ordering: .relaxed) == 1)
    }

    @Test("Two handles with one key that arrive together run once and get the same reply")
    func concurrentRetryRunsOnce() async throws {
        let dispatcher = Dispatcher(extension: slowCounter)
        let body = Array(#"{"sessionId":"s","language":"en","intent":"SendMessage","parameters":{},"idempotencyKey":"k-0123456789"}"#.utf8)
        async let first = dispatcher.reply(id: RequestID(1), stage: .handle, body: body)
        async let second = dispatcher.reply(id: RequestID(2), stage: .handle, body: body)
        let (a, b) = await (first, second)
        #expect(a == b, "\(String(decoding: a, as: UTF8.self)) / \(String(decoding: b, as: UTF8.self))")
        #expect(slowRuns.load(ordering: .relaxed) == 1)
    }

    @Test("A handler's error is said by its errorDescription when it gives one, else by its description")
    func thrownErrorsAreSaidInTheirOwnWords() async throws {
        struct OutOfBeans: LocalizedError { var errorDescription: String? { "we are out of beans" } }
        enum Plain: Error { case closed }
        let body = Array(#"{"sessionId":"s","language":"en","intent":"SendMessage","parameters":{}}"#.utf8)
        let said = Dispatcher(extension: Answering { _ in throw OutOfBeans() })
        #expect(try ErrorReply(json: try JSONValue.parse(await said.reply(id: RequestID(1), stage: .handle, body: body))).error == "we are out of beans")
        let plain = Dispatcher(extension: Answering { _ in throw Plain.closed })
        #expect(try ErrorReply(json: try JSONValue.parse(await plain.reply(id: RequestID(1), stage: .handle, body: body))).error == "closed")
    }

    @Test("Kept replies are bounded in bytes: past the bound the oldest are forgotten")
    func repliesAreBoundedInBytes() throws {
        let journal = MemoryJournal()
        let large = [UInt8](repeating: 0x61, count: 1 << 20)
        for i in 0..<100 { journal.keep(large, for: "k-\(i)-0123456789", intent: "SendMessage") }
        #expect(try journal.recorded("k-99-0123456789", intent: "SendMessage") == large)
        #expect(try journal.recorded("k-0-0123456789", intent: "SendMessage") == nil)
        #expect(try journal.recorded("k-40-0123456789", intent: "SendMessage") != nil)
    }
}
