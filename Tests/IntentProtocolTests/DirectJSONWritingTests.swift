import Foundation
import Testing
@testable import IntentProtocol

/// The bodies on the lifecycle path write themselves straight to bytes; these check that
/// every one writes exactly the bytes of its `JSONValue`, members present and absent.
@Suite("Bodies written straight to bytes")
struct DirectJSONWritingTests {
    static let parameters: [String: JSONValue] = [
        "recipients": .array([.object(["displayName": .string("Kiki \"K\" Lee"), "handle": .string("kiki")])]),
        "content": .string("line one\nline two"), "count": .number(3), "ratio": .number(2.5), "none": .null,
    ]

    static let results: [ResolutionResult] = [
        .success(.string("x")), .disambiguation([.string("a"), .string("b")]), .confirmationRequired(.number(1)),
        .needsValue, .notRequired, .unsupported(reason: "no"), .unsupported(reason: nil),
    ]

    func expectSameBytes<T: JSONConvertible>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(value.serialized() == value.json.serialized(), sourceLocation: sourceLocation)
    }

    @Test("A stage request writes the bytes of its JSON value, with and without its optional members")
    func stageRequestsWriteTheirJSON() {
        var request = StageRequest(sessionId: "s-1", language: "en", intent: "SendMessage", parameters: Self.parameters)
        expectSameBytes(request)
        request.parameter = "recipients"
        request.required = true
        request.idempotencyKey = "key-1"
        request.deadline = 1_790_000_000_123
        request.batch = StageBatch(
            resolve: [.init(parameter: "a", required: true, list: true), .init(parameter: "b", required: false, list: false)],
            confirm: true, handle: true)
        expectSameBytes(request)
        request.batch = StageBatch(resolve: [], confirm: false, handle: false)
        request.parameters = [:]
        expectSameBytes(request)
    }

    @Test("Every kind of resolution result, and the replies made of them, write the bytes of their JSON values")
    func resolutionRepliesWriteTheirJSON() {
        for result in Self.results { expectSameBytes(result) }
        expectSameBytes(ResolveReply(results: Self.results))
        expectSameBytes(ResolveReply(results: []))
        expectSameBytes(ParameterResolution(parameter: "recipients", results: Self.results))
        expectSameBytes(ErrorReply(error: "tab\there \"quoted\" \u{01}"))
    }

    @Test("An outcome writes the bytes of its JSON value, with and without a response, a key and a trace")
    func outcomesWriteTheirJSON() {
        var outcome = Outcome(outcome: .refused, code: "unknownApp", app: "Nope", intent: "SendMessage", sessionId: "s", message: "no such app")
        expectSameBytes(outcome)
        outcome = Outcome(
            outcome: .success, code: "success", app: "MonkeyChat", intent: "SendMessage", sessionId: "s-2",
            resolutions: [ParameterResolution(parameter: "content", results: [.success(.string("hi"))])],
            response: IntentResponse(code: "success", response: ["sentMessages": .array([.string("m1")])], userActivity: .object(["a": .bool(true)])),
            message: "MonkeyChat did SendMessage")
        outcome.idempotencyKey = "k"
        outcome.traceparent = TraceParent.make()
        expectSameBytes(outcome)
    }

    @Test("A value parsed back from the written bytes equals the value written")
    func writtenBytesParseBack() throws {
        var request = StageRequest(sessionId: "s", language: "en", intent: "I", parameters: Self.parameters, parameter: "p")
        request.deadline = 42
        let parsed = try StageRequest(json: try JSONValue.parse(request.serialized()))
        #expect(parsed == request)
    }

    @Test("Made ids are well formed and differ: version 4 UUIDs, and trace contexts a parser accepts")
    func madeIDsAreWellFormed() {
        let keys = (0..<2000).map { _ in RequestAnnotation.makeKey() }
        #expect(Set(keys).count == keys.count)
        for key in keys.prefix(50) {
            #expect(UUID(uuidString: key) != nil)
            #expect(Array(key)[14] == "4")
            #expect("89AB".contains(Array(key)[19]))
            #expect(RequestAnnotation.problem(withKey: key) == nil)
        }
        let traces = (0..<2000).map { _ in TraceParent.make() }
        #expect(Set(traces).count == traces.count)
        for trace in traces.prefix(50) { #expect(TraceParent.valid(trace) == trace) }
    }
}
