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

    @Test("Whole numbers encode without a fraction")
    func wholeNumbersStayWhole() throws {
        #expect(String(decoding: try JSON.encode(JSONValue.number(3)), as: UTF8.self) == "3")
        #expect(String(decoding: try JSON.encode(JSONValue.number(2.5)), as: UTF8.self) == "2.5")
    }
}
