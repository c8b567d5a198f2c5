import Foundation
import IntentProtocol
import Testing
import Understanding

/// The English corpus: typed requests with the app, intent and parameters a careful
/// reader takes from them.
@Suite("Understanding the English corpus")
struct CorpusTests {
    struct Entry: Decodable {
        var text: String
        var app: String
        var intent: String
        var parameters: [String: JSONValue]
    }

    @Test("At least 150 requests across the three domains are understood, and accuracy is reported")
    func corpusAccuracy() throws {
        let url = Fixture.root.appendingPathComponent("Tests/UnderstandingTests/Corpus/en.json")
        let entries = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: url))
        #expect(entries.count >= 150)
        let reader = try Fixture.reader()
        let apps = try Fixture.apps()
        var right = 0
        var misses: [String] = []
        for entry in entries {
            let got = reader.read(entry.text, apps: apps)
            guard case .request(let request) = got else {
                misses.append("\(entry.text)\n    expected \(entry.intent), got \(got)")
                continue
            }
            let app = request.apps.count == 1 ? request.apps[0] : "?"
            if app == entry.app, request.intent == entry.intent, Self.same(request.parameters, entry.parameters) {
                right += 1
            } else {
                misses.append("\(entry.text)\n    expected \(entry.app) \(entry.intent) \(Self.show(entry.parameters))\n    got      \(app) \(request.intent) \(Self.show(request.parameters))  [\(request.pattern)]")
            }
        }
        let accuracy = Double(right) / Double(entries.count)
        print("Understanding accuracy: \(right) of \(entries.count) (\(Int((accuracy * 1000).rounded()) / 10)%)")
        for miss in misses { print("  miss: \(miss)") }
        #expect(accuracy >= 0.9, "accuracy \(accuracy) is below 90%")
    }

    /// Same keys; values equal ignoring case, punctuation and spacing.
    static func same(_ a: [String: JSONValue], _ b: [String: JSONValue]) -> Bool {
        Set(a.keys) == Set(b.keys) && a.keys.allSatisfy { normal(a[$0]) == normal(b[$0]) }
    }

    static func normal(_ value: JSONValue?) -> String {
        switch value {
        case .array(let items)?: items.map { normal($0) }.joined(separator: "|")
        case .string(let s)?: s.lowercased().filter { $0.isLetter || $0.isNumber }
        case .number(let n)?: "\(n)"
        case .bool(let b)?: "\(b)"
        default: "-"
        }
    }

    static func show(_ parameters: [String: JSONValue]) -> String {
        parameters.keys.sorted().map { "\($0)=\(normalShow(parameters[$0]))" }.joined(separator: " ")
    }

    static func normalShow(_ value: JSONValue?) -> String {
        switch value {
        case .array(let items)?: "[" + items.map { normalShow($0) }.joined(separator: ", ") + "]"
        case .string(let s)?: "\"\(s)\""
        case .number(let n)?: "\(n)"
        case .bool(let b)?: "\(b)"
        default: "nil"
        }
    }
}
