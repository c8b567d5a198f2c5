import Foundation
import IntentProtocol
import Testing
import Understanding

/// The English corpora: typed requests with the app, intent and parameters a careful
/// reader takes from them. `en.json` is the corpus the patterns were tuned on.
/// `en-heldout.json` and `en-fresh.json` were written before the general reading, but the
/// misses of both were read while choosing how to generalise, so they guard against
/// regressions rather than measure. `en-blind.json` was written by someone who never read
/// the patterns or the reader; it was measured once untuned (91.5% app and intent, 85.5%
/// every parameter), and from the change that generalised the reading by the kinds of its
/// misses on it has been tuned on, so it too guards against regressions and no longer
/// says how well real people are understood.
/// Dates are read at a fixed clock: Monday 23 November 2026, 10:00 in San Francisco.
@Suite("Understanding the English corpus")
struct CorpusTests {
    struct Entry: Decodable {
        var text: String
        var app: String
        var intent: String
        var parameters: [String: JSONValue]
    }

    /// How many requests of a corpus were read right.
    struct Score {
        var total = 0
        /// The app and intent right.
        var intents = 0
        /// The app, intent and every parameter right.
        var complete = 0
        var misses: [String] = []

        func percent(_ count: Int) -> Double { total == 0 ? 0 : Double(count) / Double(total) }
        func shown(_ count: Int) -> String { "\(count) of \(total) (\(Double(Int((percent(count) * 1000).rounded())) / 10)%)" }
    }

    @Test("At least 150 requests across the three domains are understood, and accuracy is reported")
    func corpusAccuracy() throws {
        let score = try Self.score("en.json")
        #expect(score.total >= 150)
        Self.report("Tuning corpus", score)
        #expect(score.percent(score.complete) >= 0.9, "accuracy \(score.percent(score.complete)) is below 90%")
    }

    @Test("At least 200 held-out requests: 95% get the app and intent, 90% every parameter too", arguments: ["en-heldout.json", "en-fresh.json"])
    func heldOutAccuracy(file: String) throws {
        let score = try Self.score(file)
        #expect(score.total >= 200)
        Self.report("Held-out corpus \(file)", score)
        #expect(score.percent(score.intents) >= 0.95, "app and intent accuracy \(score.percent(score.intents)) is below 95%")
        #expect(score.percent(score.complete) >= 0.9, "full accuracy \(score.percent(score.complete)) is below 90%")
    }

    /// A corpus written blind, and the score below which its test fails.
    struct Floor: Sendable, CustomTestStringConvertible {
        let file: String
        /// How it is reported: tuned on since, or never tuned on.
        let label: String
        let intents: Int
        let complete: Int
        var testDescription: String { file }
    }

    /// The corpora written blind by someone who never read the patterns or the reader.
    /// The first eight were each measured once untuned and have been tuned on since, so they
    /// guard against regressions and no longer say how well real people are understood
    /// (their first scores are in their labels); each floor is its tuned score.
    /// `en-blind9.json` was written blind too and never tuned on: its floor is its first
    /// measurement, and it is the figure reported.
    static let blindFloors = [
        Floor(file: "en-blind.json", label: "written blind, tuned on since", intents: 235, complete: 234),
        Floor(file: "en-blind2.json", label: "written blind, 94.8% / 89.6% when first measured, tuned on since", intents: 250, complete: 250),
        Floor(file: "en-blind3.json", label: "written blind, 93.9% / 91.1% when first measured, tuned on since", intents: 246, complete: 246),
        Floor(file: "en-blind4.json", label: "written blind, 91.8% / 84.4% when first measured, tuned on since", intents: 254, complete: 238),
        Floor(file: "en-blind5.json", label: "written blind, 94.2% / 84.6% when first measured, tuned on since", intents: 254, complete: 234),
        Floor(file: "en-blind6.json", label: "written blind, 94.6% / 86.2% when first measured, tuned on since", intents: 252, complete: 236),
        Floor(file: "en-blind7.json", label: "written blind, 97.7% / 85.8% when first measured, tuned on since", intents: 256, complete: 235),
        Floor(file: "en-blind8.json", label: "written blind, 97.7% / 88.8% when first measured, tuned on since", intents: 257, complete: 238),
        Floor(file: "en-blind9.json", label: "never tuned on; target 95% / 90%", intents: 255, complete: 235),
    ]

    @Test("Requests written without reading the patterns are understood no worse than their recorded score", arguments: blindFloors)
    func blindAccuracy(floor: Floor) throws {
        let score = try Self.score(floor.file)
        #expect(score.total >= 200)
        Self.report("Corpus \(floor.file) (\(floor.label))", score)
        #expect(score.intents >= floor.intents, "app and intent: \(score.shown(score.intents)), below the recorded score (\(floor.intents))")
        #expect(score.complete >= floor.complete, "every parameter: \(score.shown(score.complete)), below the recorded score (\(floor.complete))")
    }

    /// The corpus reported: written blind and never tuned on.
    static let reported = "en-blind9.json"

    @Test("Requests written blind and never tuned on: 95% get the app and intent, 90% every parameter too")
    func reportedAccuracy() throws {
        let score = try Self.score(Self.reported)
        #expect(score.total >= 200)
        #expect(score.percent(score.intents) >= 0.95, "app and intent accuracy \(score.percent(score.intents)) is below 95%")
        #expect(score.percent(score.complete) >= 0.9, "full accuracy \(score.percent(score.complete)) is below 90%")
    }

    static func report(_ name: String, _ score: Score) {
        print("\(name): app and intent \(score.shown(score.intents)), with every parameter \(score.shown(score.complete))")
        for miss in score.misses { print("  miss: \(miss)") }
    }

    static func score(_ file: String) throws -> Score {
        let url = Fixture.root.appendingPathComponent("Tests/UnderstandingTests/Corpus/\(file)")
        let entries = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: url))
        let reader = try Fixture.reader()
        let apps = try Fixture.apps()
        var score = Score(total: entries.count)
        for entry in entries {
            let got = reader.read(entry.text, apps: apps)
            guard case .request(let request) = got else {
                score.misses.append("\(entry.text)\n    expected \(entry.intent), got \(got)")
                continue
            }
            let app = request.apps.count == 1 ? request.apps[0] : "?"
            guard app == entry.app, request.intent == entry.intent else {
                score.misses.append("\(entry.text)\n    expected \(entry.app) \(entry.intent) \(show(entry.parameters))\n    got      \(app) \(request.intent) \(show(request.parameters))  [\(request.pattern)]")
                continue
            }
            score.intents += 1
            if same(request.parameters, entry.parameters) {
                score.complete += 1
            } else {
                score.misses.append("\(entry.text)\n    expected \(show(entry.parameters))\n    got      \(show(request.parameters))  [\(request.pattern)]")
            }
        }
        return score
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
