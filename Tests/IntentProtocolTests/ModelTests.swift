import Foundation
import Testing
@testable import IntentProtocol

@Suite("JSON bodies")
struct ModelTests {
    func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        try JSON.decode(T.self, from: try JSON.encode(value))
    }

    @Test("Every resolution result kind survives the wire")
    func resolutionResultsRoundTrip() throws {
        let results: [ResolutionResult] = [
            .success("Coco"), .disambiguation(["a", "b"]), .confirmationRequired(["displayName": "Bobo"]),
            .needsValue, .notRequired, .unsupported(reason: "noAccount"), .unsupported(reason: nil),
        ]
        for result in results { #expect(try roundTrip(result) == result) }
        #expect(String(decoding: try JSON.encode(ResolutionResult.needsValue), as: UTF8.self) == #"{"kind":"needsValue"}"#)
    }

    @Test("A disambiguation needs 2 to 10 options")
    func disambiguationBounds() {
        #expect(throws: ProtocolError.self) {
            try JSON.decode(ResolutionResult.self, from: Array(#"{"kind":"disambiguation","options":["one"]}"#.utf8))
        }
        let eleven = (1...11).map { "\"o\($0)\"" }.joined(separator: ",")
        #expect(throws: ProtocolError.self) {
            try JSON.decode(ResolutionResult.self, from: Array(#"{"kind":"disambiguation","options":[\#(eleven)]}"#.utf8))
        }
    }

    @Test("A decoding error names the field that is wrong")
    func decodingErrorsNameTheField() {
        do {
            _ = try JSON.decode(Registration.self, from: Array(#"{"appName": 3}"#.utf8))
            Issue.record("decoded a bad registration")
        } catch {
            #expect("\(error)".contains("malformed body"))
        }
    }

    @Test("A registration needs only its identity and supported intents, and SiriKit names are normalised")
    func minimalRegistration() throws {
        let json = #"{"protocolVersion":1,"bundleIdentifier":"b","appName":"A","intentsSupported":["INSendMessageIntent"]}"#
        let registration = try JSON.decode(Registration.self, from: Array(json.utf8)).normalized()
        #expect(registration.intentsSupported == ["SendMessage"])
        #expect(registration.intentsRestrictedWhileLocked.isEmpty)
        #expect(registration.alternativeAppNames.isEmpty)
    }

    @Test("A registration's protocol version and pid must be written as integers", arguments: ["2.0", "2e0", "2.5", "\"2\""])
    func registrationIntegersAreIntegers(version: String) {
        let json = #"{"protocolVersion":\#(version),"bundleIdentifier":"b.c","appName":"A","intentsSupported":["SendMessage"]}"#
        #expect(throws: (any Error).self) { try Registration.decode(Array(json.utf8)) }
        let pid = #"{"protocolVersion":2,"bundleIdentifier":"b.c","appName":"A","intentsSupported":["SendMessage"],"processIdentifier":\#(version)}"#
        #expect(throws: (any Error).self) { try Registration.decode(Array(pid.utf8)) }
    }

    @Test("A registration written with integers decodes, a null pid included")
    func registrationWithIntegersDecodes() throws {
        let json = #"{"protocolVersion":2,"bundleIdentifier":"b.c","appName":"A","intentsSupported":["SendMessage","INSendMessageIntent"],"processIdentifier":null}"#
        let registration = try Registration.decode(Array(json.utf8)).normalized()
        #expect(registration.protocolVersion == 2 && registration.processIdentifier == nil)
        #expect(registration.intentsSupported == ["SendMessage"])
    }

    @Test("A vocabulary change keeps the first of repeated terms and refuses more than 10,000 terms")
    func vocabularyTermsAreUniqueAndBounded() throws {
        let request = try JSON.decode(VocabularyRequest.self, from: Array(#"{"set":{"type":"contactName","terms":["a","b","a","c","b"]}}"#.utf8))
        #expect(request.set?.terms == ["a", "b", "c"])
        let terms = (0...UserVocabulary.maximumTerms).map { "\"t\($0)\"" }.joined(separator: ",")
        do {
            _ = try JSON.decode(VocabularyRequest.self, from: Array(#"{"set":{"type":"contactName","terms":[\#(terms)]}}"#.utf8))
            Issue.record("accepted 10,001 terms")
        } catch {
            #expect("\(error)".contains("at most 10000"))
        }
        let repeated = (0...UserVocabulary.maximumTerms).map { "\"t\($0 % 10)\"" }.joined(separator: ",")
        let fine = try JSON.decode(VocabularyRequest.self, from: Array(#"{"set":{"type":"contactName","terms":[\#(repeated)]}}"#.utf8))
        #expect(fine.set?.terms.count == 10)
    }

    @Test("A vocabulary type is a name: letters and digits, a letter first, at most 64", arguments: [
        ("contactName", true), ("x1", true), (String(repeating: "t", count: 64), true), ("", false), ("1st", false),
        ("contact name", false), ("contact.name", false), ("x\u{1B}[2J", false), ("naïve", false), (String(repeating: "t", count: 65), false),
    ])
    func vocabularyTypeIsAName(_ type: String, _ valid: Bool) throws {
        #expect((UserVocabulary.problem(withType: type) == nil) == valid)
        let body = try JSON.encode(["set": ["type": JSONValue.string(type), "terms": .array([.string("a")])]])
        #expect((try? JSON.decode(VocabularyRequest.self, from: body)) != nil || !valid)
        #expect((try? JSON.decode(VocabularyRequest.self, from: body)) == nil || valid)
    }

    @Test("A batch resolves at most 64 parameters, each once: a reply may repeat each value, so it stays the size of its request")
    func batchesAreBounded() throws {
        func batch(_ names: [String]) throws -> StageBatch {
            let entries = names.map { #"{"parameter":"\#($0)"}"# }.joined(separator: ",")
            return try StageBatch(json: JSONValue.parse(Array(#"{"resolve":[\#(entries)]}"#.utf8)))
        }
        #expect(try batch((0..<64).map { "p\($0)" }).resolve.count == 64)
        #expect(throws: ProtocolError.self) { try batch((0..<65).map { "p\($0)" }) }
        #expect(throws: ProtocolError.self) { try batch(["content", "recipients", "content"]) }
    }

    @Test("Whole numbers encode without a fraction")
    func wholeNumbersStayWhole() throws {
        #expect(String(decoding: try JSON.encode(JSONValue.number(3)), as: UTF8.self) == "3")
        #expect(String(decoding: try JSON.encode(JSONValue.number(2.5)), as: UTF8.self) == "2.5")
    }
}
