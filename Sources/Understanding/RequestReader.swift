import IntentProtocol

/// Reads typed requests in one language: finds the app named (by any of its names, also
/// as a verb: "MonkeyChat Bobo send more bananas"), matches the language's patterns for
/// the intents on offer, and reads each captured parameter.
public struct RequestReader: Sendable {
    /// The language it reads.
    public let pack: LanguagePack
    let catalog: Catalog

    /// Requests longer than this are not understood.
    public static let maximumWords = 100

    /// A reader for `pack` over the intents of `catalog`.
    public init(pack: LanguagePack, catalog: Catalog) {
        self.pack = pack
        self.catalog = catalog
    }

    /// Understands `text`, given the apps registered now.
    public func read(_ text: String, apps: [AppProfile]) -> Understood {
        let tokens = withoutClosingCourtesy(Token.split(text))
        // Matching cost grows with length; nobody asks for an intent in a page of text.
        guard tokens.count <= Self.maximumWords else { return .notUnderstood }
        let words = pack.essentialWords(tokens[...])
        if words.isEmpty { return .notUnderstood }
        if pack.words.cancel.contains(words) { return .cancel }
        if pack.words.capabilities.contains(words) { return .capabilities(app: nil) }
        if let app = capabilitiesOfApp(tokens, apps) { return .capabilities(app: app) }

        let mention = AppMention.find(in: tokens, apps: apps, pack: pack)
        let rest = mention?.remaining ?? tokens
        let named = mention.flatMap { m in apps.first { $0.name == m.app } }
        // The named app's intents first; then every intent, to say the app cannot do it.
        let offered = named.map { $0.intents } ?? Array(Set(apps.flatMap(\.intents))).sorted()
        if let best = bestMatch(rest, intents: offered, verbForm: mention?.isVerb ?? false, apps: named.map { [$0] } ?? apps) {
            let serving = named.map { [$0.name] } ?? apps.filter { $0.intents.contains(best.intent) }.map(\.name)
            return .request(UnderstoodRequest(
                intent: best.intent, namedApp: named?.name, apps: serving, parameters: best.parameters, pattern: best.pattern))
        }
        if let named, let other = bestMatch(rest, intents: catalog.domains.flatMap { $0.intents.map(\.name) }, verbForm: false, apps: apps) {
            return .appCannotDo(app: named.name, intent: other.intent)
        }
        return .notUnderstood
    }

    /// A candidate reading of the request.
    struct Candidate {
        var intent: String
        var parameters: [String: JSONValue]
        var score: Int
        var pattern: String
    }

    /// The best-scoring match over the intents' patterns: pattern words count for, words
    /// skipped before or after count against (fillers only a little).
    func bestMatch(_ tokens: [Token], intents: [String], verbForm: Bool, apps: [AppProfile]) -> Candidate? {
        let reader = ValueReader(pack: pack)
        let knownNames = Set(apps.flatMap { $0.userVocabulary["contactName"] ?? [] }.map(Token.fold))
        // What skipping the first n words costs: fillers a little, other words a lot.
        var skipCost = [0]
        for token in tokens { skipCost.append(skipCost[skipCost.count - 1] + (pack.words.fillers.contains(token.word) ? 1 : 15)) }
        var best: Candidate?
        for intentName in intents {
            guard let intent = catalog.intent(intentName) else { continue }
            var patterns = (pack.intents[intent.name] ?? []).map { ($0, false) }
            if verbForm { patterns += (pack.appVerbForms[intent.name] ?? []).map { ($0, true) } }
            for (pattern, isVerbForm) in patterns {
                var budget = 50_000
                for start in 0..<max(tokens.count, 1) {
                    let skipped = skipCost[start]
                    if verbForm, isVerbForm, start > 0 { break }
                    pattern.matches(tokens, from: start, budget: &budget) { match in
                        var score = match.words * 10 - skipped
                        for token in tokens[match.end...] {
                            guard pack.words.trailing.contains(token.word) || pack.words.fillers.contains(token.word) else { return }
                            score -= 1
                        }
                        var parameters: [String: JSONValue] = [:]
                        for (name, range) in match.captures {
                            let words = tokens[range]
                            guard let parameter = intent.parameter(name),
                                !words.allSatisfy({ pack.words.notValues.contains($0.word) }),
                                let value = reader.read(words, for: parameter, intent: intent.name, apps: apps)
                            else { return }
                            parameters[name] = value
                            // A name an app taught counts like the words it spans.
                            if parameter.type == .person, known(value, knownNames) { score += 3 * words.count }
                        }
                        for (name, text) in match.constants {
                            guard let parameter = intent.parameter(name),
                                let value = reader.read(Token.split(text)[...], for: parameter, intent: intent.name, apps: apps)
                            else { return }
                            parameters[name] = value
                        }
                        if let best, score <= best.score { return }
                        best = Candidate(intent: intent.name, parameters: parameters, score: score, pattern: pattern.source)
                    }
                }
            }
        }
        return best
    }

    /// Whether every person in `value` is one of the (folded) names apps taught.
    private func known(_ value: JSONValue, _ names: Set<String>) -> Bool {
        let said = (value.arrayValue ?? [value]).compactMap(\.stringValue)
        return !said.isEmpty && said.allSatisfy { names.contains(Token.fold($0)) }
    }

    /// "What can MonkeyChat do?"
    private func capabilitiesOfApp(_ tokens: [Token], _ apps: [AppProfile]) -> String? {
        var budget = 1_000
        var found: String?
        for pattern in pack.capabilitiesOfApp {
            pattern.matches(tokens, from: 0, budget: &budget) { match in
                guard match.end == tokens.count, let range = match.captures["app"] else { return }
                let said = Token.fold(tokens[range].map(\.raw).joined())
                found = found ?? apps.first { ([$0.name] + $0.otherNames).map(Token.fold).contains(said) }?.name
            }
        }
        return found
    }

    /// Drops a closing "Thanks!" said as a sentence of its own.
    func withoutClosingCourtesy(_ tokens: [Token]) -> [Token] {
        var end = tokens.count
        while end > 0, pack.words.trailing.contains(tokens[end - 1].word) { end -= 1 }
        guard end < tokens.count, end > 0, let last = tokens[end - 1].typed.last, [".", "!", ",", ";"].contains(last) else { return tokens }
        var kept = Array(tokens[..<end])
        kept[end - 1].typed.removeLast()
        return kept
    }

}
