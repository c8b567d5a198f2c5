import Foundation
import Testing
@testable import IntentProtocol

@Suite("JSON parser and writer")
struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test("Documents parse to the values Foundation's decoder gives", arguments: [
        #"{"a":[1,2.5,-3e2,true,false,null],"b":{"c":"d"},"e":""}"#,
        #"  [ "x" , { } , [ ] , 0 , -0.5 ]  "#,
        #""caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \n\t""#,
        #"{"k":"héllo wörld","n":123456789012}"#,
    ])
    func agreesWithFoundation(text: String) throws {
        let ours = try parse(text)
        let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(ours == foundation)
    }

    @Test("Malformed documents are refused with where and what", arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "+1", "tru", "nul", "\"abc", "\"a\u{01}b\"",
        #""\x""#, #""\ud800""#, #""\udc00x""#, "{\"a\" 1}", "[1 2]", "1 2", "NaN", "1e999", "{1:2}",
    ])
    func refusesMalformed(text: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error)".contains("at byte"))
        }
    }

    @Test("A lazily read request refuses what the full parser refuses, even inside its unread parameters", arguments: [
        #"{"sessionId":"s","language":"en","intent":"I","parameters":{"a":tru}}"#,
        #"{"sessionId":"s","language":"en","intent":"I","parameters":{"a":"x\q"}}"#,
        #"{"sessionId":"s","language":"en","intent":"I","parameters":{"a":[1,]}}"#,
        #"{"sessionId":"s","language":"en","intent":"I","parameters":{"a":01}}"#,
        #"{"sessionId":"s","language":"en","intent":"I","parameters":{"a":[2e3084242]}}"#,
        #"{"sessionId":"s","language":"en","intent":"I","parameters":{"a":-1E400}}"#,
        "{\"sessionId\":\"s\",\"language\":\"en\",\"intent\":\"I\",\"parameters\":{\"a\":\(String(repeating: "9", count: 400))}}",
        #"{"sessionId":"s","language":"en","intent":"I","parameters":{}} x"#,
        #"{"sessionId":"s","language":"en","intent":"I","parameters":[]}"#,
        #"{"sessionId":"s","language":"en","intent":"I"}"#,
        #"{"sessionId":3,"language":"en","intent":"I","parameters":{}}"#,
        #"{"sessionId":"s","language":"en","intent":"I","parameters":{},"required":"yes"}"#,
    ])
    func lazyRequestRefusesMalformed(text: String) {
        #expect(throws: ProtocolError.self) { try LazyStageRequest(Array(text.utf8)) }
    }

    @Test("A lazily read request gives the same fields and parameters as a full decode")
    func lazyRequestAgreesWithFullDecode() throws {
        let request = StageRequest(
            sessionId: "s-1", language: "fr", intent: "SendMessage",
            parameters: ["content": "caf\u{e9} \"q\"", "recipients": [["displayName": "Bobo", "n": .number(2.5), "ok": true, "x": nil]]],
            parameter: "recipients", required: true)
        let lazy = try LazyStageRequest(try JSON.encode(request))
        #expect(lazy.sessionId == "s-1" && lazy.language == "fr" && lazy.intent == "SendMessage")
        #expect(lazy.parameter == "recipients" && lazy.required == true)
        #expect(lazy.parameters() == request.parameters)
    }

    @Test("An IntentResponse written directly is the same bytes as written through JSONValue", arguments: [
        IntentResponse(code: "success"),
        IntentResponse(code: "failure\"x", response: ["z": 1, "a": ["b": "c"]]),
        IntentResponse(code: "ready", response: [:], userActivity: ["type": "open", "n": nil]),
        IntentResponse(code: "ready", userActivity: .null),
    ])
    func intentResponseIsWrittenDirectly(response: IntentResponse) throws {
        #expect(response.serialized() == response.json.serialized())
        if response.userActivity != .null {  // a null userActivity reads back as none
            #expect(try JSON.decode(IntentResponse.self, from: response.serialized()) == response)
        }
    }

    @Test("Escapes, non-ASCII and control characters are found at every offset of a long string")
    func specialBytesAtEveryOffset() throws {
        for offset in 0..<20 {
            let a = String(repeating: "a", count: offset), b = String(repeating: "b", count: 19 - offset)
            for special in [#"\""#, #"\\"#, #"\n"#, "é", "😀"] {
                let text = "[\"\(a)\(special)\(b)\"]"
                let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
                #expect(try parse(text) == foundation, "\(text)")
                let wrapped = #"{"sessionId":"s","language":"en","intent":"I","parameters":{"k":"#
                    + text + "}}"
                #expect(try LazyStageRequest(Array(wrapped.utf8)).parameters()["k"] == foundation)
            }
            #expect(throws: ProtocolError.self) { try parse("[\"\(a)\u{01}\(b)\"]") }
            #expect(throws: ProtocolError.self) {
                try LazyStageRequest(Array(#"{"sessionId":"s","language":"en","intent":"I","parameters":{"k":""#.utf8)
                    + Array(a.utf8) + [0x01] + Array(b.utf8) + Array(#""}}"#.utf8))
            }
        }
    }

    @Test("An object that names a member twice is refused at any depth, however the name is written or composed", arguments: [
        #"{"a":1,"a":2}"#,
        #"{"a":1,"b":2,"a":3}"#,
        #"{"\u0061":1,"a":2}"#,
        #"{"é":1,"\u00e9":2}"#,
        #"{"\u00e9":1,"e\u0301":2}"#,
        #"[{"x":{"k":true,"k":false}}]"#,
        "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + #","k7":0}"#,
    ])
    func refusesRepeatedNames(text: String) {
        #expect(throws: ProtocolError.self) { try parse(text) }
        #expect(throws: ProtocolError.self) { try LazyStageRequest(Array(#"{"sessionId":"s","language":"en","intent":"I","parameters":{"p":\#(text)}}"#.utf8)) }
        #expect(throws: ProtocolError.self) { try JSON.decode(Registration.self, from: Array(#"{"vocabulary":\#(text)}"#.utf8)) }
    }

    @Test("The same name in different objects, and names that only look alike, are fine")
    func acceptsDistinctNames() throws {
        let text = #"{"a":{"a":1,"b":{"a":2}},"b":[{"a":1},{"a":2}],"ab":1,"ba":2,"A":3,"\u00e9":4}"#
        #expect(throws: Never.self) { try parse(text) }
        #expect(throws: Never.self) { try LazyStageRequest(Array(#"{"sessionId":"s","language":"en","intent":"I","parameters":\#(text)}"#.utf8)) }
        let many = "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        #expect(throws: Never.self) { try parse(many) }
    }

    @Test("A top-level member named twice in a request is refused before any is used")
    func lazyRequestRefusesRepeatedTopLevelNames() {
        #expect(throws: ProtocolError.self) {
            try LazyStageRequest(Array(#"{"sessionId":"s","language":"en","intent":"I","intent":"J","parameters":{}}"#.utf8))
        }
    }

    @Test("Invalid UTF-8 inside a string is refused")
    func refusesInvalidUTF8() {
        #expect(throws: ProtocolError.self) { try JSONValue.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test("Nesting deeper than the limit is refused instead of exhausting the stack")
    func depthIsLimited() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try parse(deep)
            Issue.record("accepted 100,000 levels")
        } catch {
            #expect("\(error)".contains("nested deeper"))
        }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try parse(fine) }
    }

    @Test("Written JSON reads back the same, with sorted keys and escapes")
    func writerRoundTrips() throws {
        let value: JSONValue = ["z": 1, "a": ["q\"\\\n\u{01}", .number(2.5), -7, true, nil], "m": ["é": "😀"]]
        let text = String(decoding: value.serialized(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"a":["q\"\\\n\u0001",2.5,-7,true,null],"m""#))
        #expect(try parse(text) == value)
        #expect(String(decoding: JSONValue.number(.nan).serialized(), as: UTF8.self) == "null")
    }

    @Test("Routing bodies convert both ways and name what is missing")
    func bodiesConvert() throws {
        let request = StageRequest(sessionId: "s", language: "en", intent: "SendMessage", parameters: ["content": "hi"], parameter: "content", required: true)
        #expect(try JSON.decode(StageRequest.self, from: try JSON.encode(request)) == request)
        let outcome = Outcome(outcome: .needsUserInput, code: "disambiguation", app: "A", intent: "I", sessionId: "s",
            resolutions: [ParameterResolution(parameter: "p", results: [.disambiguation(["x", "y"]), .unsupported(reason: "noAccount")])],
            response: IntentResponse(code: "ready", response: ["k": 1]), message: "m")
        #expect(try JSON.decode(Outcome.self, from: try JSON.encode(outcome)) == outcome)
        do {
            _ = try JSON.decode(StageRequest.self, from: Array(#"{"sessionId":"s","language":"en","parameters":{}}"#.utf8))
            Issue.record("accepted a request without an intent")
        } catch {
            #expect("\(error)".contains("request.intent is missing"))
        }
    }
}
