import Testing
@testable import IntentProtocol

@Suite("Request annotation")
struct RequestAnnotationTests {
    func annotate(_ body: String, key: String? = nil) -> String? {
        Array(body.utf8).withUnsafeBytes { RequestAnnotation.annotate($0, deadline: 1_700_000_000_123, key: key) }
            .map { String(decoding: $0, as: UTF8.self) }
    }

    func key(_ body: String) -> Result<String?, ProtocolError> {
        Array(body.utf8).withUnsafeBytes { RequestAnnotation.key(in: $0) }
    }

    @Test("The deadline and key go in as the last members; a body naming its own deadline is found")
    func lastMembers() throws {
        #expect(annotate("{}") == #"{"deadline":1700000000123}"#)
        #expect(annotate(" { \"a\": 1 }\n", key: "k-1") == " { \"a\": 1 ,\"deadline\":1700000000123,\"idempotencyKey\":\"k-1\"}\n")
        let body = try #require(annotate(#"{"intent":"AddTasks","parameters":{"deadline":"Friday"}}"#))
        #expect(try JSONValue.parse(Array(body.utf8))["deadline"] == .number(1_700_000_000_123))
        func names(_ text: String) -> Bool { Array(text.utf8).withUnsafeBytes { RequestAnnotation.namesDeadline($0) } }
        #expect(names(#"{"deadline":1,"intent":"AddTasks"}"#))
        #expect(!names(#"{"parameters":{"deadline":"Friday"}}"#), "only the top level counts")
    }

    @Test("A body that is not a JSON object is passed on as it is")
    func notAnObject() {
        #expect(annotate("[1]") == nil)
        #expect(annotate("") == nil)
        #expect(annotate("hello") == nil)
    }

    @Test("A key is found only at the top level, and a bad one is refused")
    func keys() throws {
        #expect(try key(#"{"idempotencyKey":"abc:1"}"#).get() == "abc:1")
        #expect(try key(#"{"parameters":{"idempotencyKey":"inner"}}"#).get() == nil)
        #expect(try key(#"{"intent":"AddTasks"}"#).get() == nil)
        #expect((try? key(#"{"idempotencyKey":"a b"}"#).get()) == nil)
        #expect((try? key(#"{"idempotencyKey":7}"#).get()) == nil)
        #expect(RequestAnnotation.problem(withKey: String(repeating: "k", count: 129)) != nil)
        #expect(RequestAnnotation.problem(withKey: "../etc/passwd") != nil)
    }

    @Test("A member's name is found after near misses, quotes and escapes, and up to the body's last byte")
    func scanFindsNamesAnywhere() throws {
        func names(_ text: String) -> Bool { Array(text.utf8).withUnsafeBytes { RequestAnnotation.namesDeadline($0) } }
        #expect(names(#"{"a":"\"","dead":1,"deadlin":2,"deadline":3}"#))
        #expect(!names(#"{"a":"\"","dead":1,"deadlin":2}"#))
        #expect(!names(#"""#))
        #expect(try key(#"{"x":"\"\"","idempotencyKe":1,"idempotencyKey":"last"}"#).get() == "last")
        #expect(try key(#"{"idempotencyKey""#).get() == nil, "the name at the very end, in a body that does not parse")
    }
}
