import Testing
@testable import IntentProtocol

@Suite("Trace context in bodies")
struct TraceParentTests {
    let trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    func body(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("A body's traceparent is found wherever it stands, and only a valid one")
    func findsTheMember() {
        #expect(TraceParent.find(in: body(#"{"traceparent":"\#(trace)"}"#)) == trace)
        #expect(TraceParent.find(in: body(#"{"a":"\"trace","parameters":{},"traceparent":"\#(trace)"}"#)) == trace)
        #expect(TraceParent.find(in: body(#"{"traceparent":"00-zz"}"#)) == nil, "too short to hold one")
        #expect(TraceParent.find(in: body(#"{"traceparent":"\#(trace.uppercased())"}"#)) == nil, "not valid")
        #expect(TraceParent.find(in: body(#"{"intent":"SendMessage"}"#)) == nil)
        #expect(TraceParent.find(in: body(#"{"traceparent":"\#(trace)"}"#)[...]) == trace, "from a slice too")
    }

    @Test("A traceparent is added as the last member, unless the body has one or is no object")
    func addsTheMember() throws {
        let added = try #require(TraceParent.adding(trace, to: body(#"{"a":1}"#)))
        #expect(String(decoding: added, as: UTF8.self) == #"{"a":1,"traceparent":"\#(trace)"}"#)
        let own = body(#"{"traceparent":"\#(TraceParent.make())"}"#)
        #expect(TraceParent.adding(trace, to: own) == own)
        #expect(TraceParent.adding(trace, to: body("[1]")) == nil)
    }
}
