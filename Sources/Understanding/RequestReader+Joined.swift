import IntentProtocol

/// Two requests said as one, joined by "and", where reading the whole as one request
/// would drop or garble one of them.
public enum JoinedRequest: Sendable, Equatable {
    /// Do `first` (what the words before the "and" ask); `second` (the words after it, as
    /// typed) is not done and the user is told so.
    case two(first: UnderstoodRequest, second: String)
    /// The second request lies inside the first's free text ("text Coco I'm on my way and
    /// add ice to the shopping list"): a message that may be two requests, to ask about.
    case inFreeText(String)
}

extension RequestReader {
    /// Whether `text`, read as `whole`, is two requests joined by the language's "and":
    /// the words before an "and" and those after it each read as a request, of different
    /// kinds, by a pattern that explains every word ("cancel the ride and text Coco I'll be
    /// late", read as a whole as CancelRide alone). Not when the whole's reading holds both
    /// ("remind me to call mom and text Kiki" is two tasks).
    public func joined(_ text: String, reading whole: UnderstoodRequest, apps: [AppProfile]) -> JoinedRequest? {
        let tokens = Token.split(text)
        guard tokens.count <= Self.maximumWords else { return nil }
        let joins = tokens.indices.filter { $0 > 0 && $0 < tokens.count - 1 && tokens[$0].word == pack.words.and }
        // The first few "and"s: each costs up to four readings.
        for join in joins.prefix(Self.maximumJoinsTried) {
            let rest = Array(tokens[(join + 1)...])
            guard let second = fullReading(rest, apps: apps), let first = fullReading(Array(tokens[..<join]), apps: apps),
                first.intent != second.intent
            else { continue }
            let after = rest.map(\.typed).joined(separator: " ")
            if whole.intent == first.intent {
                // Inside a message, only what opens with a word of its pattern ("add ice …",
                // not "the list is done").
                if freeText(of: whole).contains(where: { Token.fold($0).contains(Token.fold(after)) }) {
                    guard pack.intents[second.intent]?.first(where: { $0.source == second.pattern })?.firstWords != nil else { continue }
                    return .inFreeText(after)
                }
                // The whole has what the first part says and more, from after the "and".
                if Self.holds(whole, first), !Self.holds(first, whole) { return nil }
            } else if whole.intent != second.intent {
                continue
            }
            return .two(first: first, second: after)
        }
        return nil
    }

    /// How many of a request's "and"s are tried as the start of a second request.
    static let maximumJoinsTried = 3

    /// `tokens` read as a request whose pattern explains every word, or nil.
    private func fullReading(_ tokens: [Token], apps: [AppProfile]) -> UnderstoodRequest? {
        guard case .request(let request) = read(tokens.map(\.typed).joined(separator: " "), apps: apps),
            let explained = bestMatch(pack.markTypos(tokens), intents: request.apps.isEmpty ? [] : [request.intent], verbForm: false, apps: apps),
            explained.skipped.isEmpty
        else { return nil }
        return request
    }

    /// The free text `request` carries (a message's words).
    private func freeText(of request: UnderstoodRequest) -> [String] {
        (catalog.intent(request.intent)?.parameters ?? []).filter(\.isFreeText).compactMap { request.parameters[$0.name]?.stringValue }
    }

    /// Whether `whole` has every value `part` has (a list may have more items).
    private static func holds(_ whole: UnderstoodRequest, _ part: UnderstoodRequest) -> Bool {
        part.parameters.allSatisfy { name, value in
            guard let held = whole.parameters[name] else { return false }
            let had = Set((held.arrayValue ?? [held]).compactMap(\.stringValue).map(Token.fold))
            return (value.arrayValue ?? [value]).compactMap(\.stringValue).allSatisfy { had.contains(Token.fold($0)) }
        }
    }
}
