import Foundation
import IntentProtocol
import Synchronization
import Testing
@testable import IntentExtensionKit

/// An extension without storage, whose handle takes a while and counts its runs.
private struct SlowCounter: IntentExtension {
    static let runs = Atomic<Int>(0)
    static var manifestURL: URL? { nil }
    init(context: ExtensionContext) async throws {}
    init() {}
    func handler(for intent: Intent) -> (any IntentHandler)? { Handler() }

    struct Handler: IntentHandler {
        var resolvers: [String: Resolver] { [:] }
        func handle(_ intent: Intent) async throws -> IntentResponse {
            let run = SlowCounter.runs.wrappingAdd(1, ordering: .relaxed).newValue
            try await Task.sleep(for: .milliseconds(200))
            return IntentResponse(code: "success", response: ["run": .number(Double(run))])
        }
    }
}

/// An extension without storage whose handle answers more than the host takes.
private struct Wordy: IntentExtension {
    static let runs = Atomic<Int>(0)
    static var manifestURL: URL? { nil }
    init(context: ExtensionContext) async throws {}
    init() {}
    func handler(for intent: Intent) -> (any IntentHandler)? { Handler() }

    struct Handler: IntentHandler {
        var resolvers: [String: Resolver] { [:] }
        func handle(_ intent: Intent) async throws -> IntentResponse {
            Wordy.runs.add(1, ordering: .relaxed)
            return IntentResponse(code: "success", response: ["text": .string(String(repeating: "w", count: 5000))])
        }
    }
}

@Suite("The in-memory handle journal")
struct MemoryJournalTests {
    @Test("A handle's reply over the host's limit is sent and kept as its code alone, so the handle's outcome reaches the client, first time and every retry")
    func oversizedHandleReplyKeepsItsCode() async throws {
        let dispatcher = Dispatcher(extension: Wordy())
        dispatcher.replyLimit.bytes.store(1024, ordering: .relaxed)
        let body = Array(#"{"sessionId":"s","language":"en","intent":"SendMessage","parameters":{},"idempotencyKey":"k-wordy-0123456789"}"#.utf8)
        let first = await dispatcher.reply(id: RequestID(1), stage: .handle, body: body)
        let again = await dispatcher.reply(id: RequestID(2), stage: .handle, body: body)
        #expect(first.count < 1024)
        #expect(try IntentResponse(json: try JSONValue.parse(first)).code == "success", "\(String(decoding: first, as: UTF8.self))")
        #expect(again == first)
        #expect(Wordy.runs.load(ordering: .relaxed) == 1)
    }

    @Test("Two handles with one key that arrive together run once and get the same reply")
    func concurrentRetryRunsOnce() async throws {
        let dispatcher = Dispatcher(extension: SlowCounter())
        let body = Array(#"{"sessionId":"s","language":"en","intent":"SendMessage","parameters":{},"idempotencyKey":"k-0123456789"}"#.utf8)
        async let first = dispatcher.reply(id: RequestID(1), stage: .handle, body: body)
        async let second = dispatcher.reply(id: RequestID(2), stage: .handle, body: body)
        let (a, b) = await (first, second)
        #expect(a == b, "\(String(decoding: a, as: UTF8.self)) / \(String(decoding: b, as: UTF8.self))")
        #expect(SlowCounter.runs.load(ordering: .relaxed) == 1)
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
