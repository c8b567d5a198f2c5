import Foundation
import IntentProtocol
import Understanding

/// Text as a user types it, read the way `FuzzRequest` reads each input: as a request with
/// the repository's language file, catalog and apps, and as an answer to each kind of
/// question (one parameter of each type the catalog has).
public struct TypedText: Sendable {
    let reader: RequestReader
    let answers: AnswerReader
    let apps: [AppProfile]
    let parameters: [(intent: String, parameter: ParameterDefinition)]

    /// Loads the repository's files, with a fixed clock (a Thursday evening, UTC-8).
    public init() {
        let catalog = Fuzzing.catalog()
        let pack = Fuzzing.language()
        let clock = UserClock.fixed(Date(timeIntervalSince1970: 1_795_456_800), in: TimeZone(secondsFromGMT: -8 * 3600) ?? .current)
        reader = RequestReader(pack: pack, catalog: catalog, clock: clock)
        answers = AnswerReader(pack: pack, clock: clock)
        apps = Fuzzing.apps()
        var seen = Set<String>()
        parameters = catalog.domains.flatMap(\.intents).flatMap { intent in intent.parameters.map { (intent.name, $0) } }
            .filter { seen.insert($0.1.type.rawValue).inserted }
    }

    /// What `text` reads as, request and answers, in a form that stays the same from run
    /// to run (members in sorted order): for checking that a change to the reader changes
    /// no reading of a corpus.
    public func readings(_ text: String) -> String {
        var lines: [String] = []
        switch reader.read(text, apps: apps) {
        case .request(let request):
            lines.append("request \(request.intent) app \(request.namedApp ?? "-") apps \(request.apps) pattern \(request.pattern)")
            lines.append("  parameters " + JSON.pretty(request.parameters).split(separator: "\n").joined(separator: " "))
            lines.append("  mentioned " + request.mentioned.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " "))
            lines.append("  kept \(request.questionKeptAsSaid ?? "-")")
        case let other: lines.append("\(other)")
        }
        lines.append("  cancel \(answers.isCancel(text)) yesNo \(String(describing: answers.yesNo(text)))")
        lines.append("  choice \(String(describing: answers.choice(text, options: ["Bobo", "Bobo the Great", "Little Bobo"])))")
        for (intent, parameter) in parameters {
            let value = answers.value(text, for: parameter, intent: intent, apps: apps)
            lines.append("  \(parameter.type.rawValue) " + (value.map { JSON.pretty($0).split(separator: "\n").joined(separator: " ") } ?? "-"))
        }
        return lines.joined(separator: "\n")
    }

    /// Reads `text` as a request and as every kind of answer; `requestOnly` skips the answers.
    public func read(_ text: String, requestOnly: Bool = false) {
        _ = reader.read(text, apps: apps)
        if requestOnly { return }
        _ = answers.isCancel(text)
        _ = answers.yesNo(text)
        _ = answers.choice(text, options: ["Bobo", "Bobo the Great", "Little Bobo"])
        for (intent, parameter) in parameters { _ = answers.value(text, for: parameter, intent: intent, apps: apps) }
    }
}
