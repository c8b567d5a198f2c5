import IntentProtocol

/// Two requests said as one, joined by "and", where reading the whole as one request would
/// drop or garble the first: do `first` (what the words before the "and" ask, `said` as
/// typed); `second` (the words after it, as typed) is not done, and the user is told so.
public struct JoinedRequest: Sendable, Equatable {
    public var first: UnderstoodRequest
    public var said: String
    public var second: String
    /// Whether the whole's free text held the second ("text Kiki hi and text Coco bye"):
    /// then the whole may be one message passing word on.
    public var inFreeText = false
}

extension RequestReader {
    /// Whether `text`, read as `whole`, is two requests joined by the language's "and":
    /// the words before an "and" and those after it each read as a request, of different
    /// kinds, by a pattern that explains every word but an app's name ("cancel the ride and
    /// text Coco I'll be late", read as a whole as CancelRide alone). Not inside free text
    /// (a message keeps its words, which the result shows), but for a second message to
    /// contacts the app knows ("text Kiki hi and text Coco bye", which may also be one message
    /// passing word on: the conversation asks before sending it whole); nor when the whole's reading
    /// holds the first part's values with more list items ("remind me to call mom and text
    /// Kiki" is two tasks), or a pattern explains all of it and no value of it holds the
    /// second part ("get a Zippy to the park and put it on my Visa").
    public func joined(_ text: String, reading whole: UnderstoodRequest, apps: [AppProfile]) -> JoinedRequest? {
        let tokens = Token.split(text)
        guard tokens.count <= Self.maximumJoinedWords else { return nil }
        let joins = tokens.indices.filter { $0 > 0 && $0 < tokens.count - 1 && tokens[$0].word == pack.words.and }
        let freeText = (catalog.intent(whole.intent)?.parameters ?? []).filter(\.isFreeText).compactMap { whole.parameters[$0.name] }
        // Whether a pattern explains every word of the whole: read at most once.
        var wholeExplained: Bool?
        for join in joins.prefix(Self.maximumJoinsTried) {
            let rest = Array(tokens[(join + 1)...])
            let after = rest.typedText
            var second = fullReading(rest, apps: apps)
            // In a message, the words are the user's ("text Coco hi and add ice to the list"),
            // unless they are a message of their own to contacts the app knows ("text Kiki hi
            // and text Coco bye").
            let inFreeText = freeText.contains { Self.holds($0, text: after) }
            // "tell Mojo to bring the cooler and Coco to bring chairs": a contact right after
            // the "and", then "to", is told something of their own, with the whole's verb.
            if second == nil, inFreeText, let verb = tokens.first,
                apps.contactWords(in: rest).contains(where: { $0 < rest.count && pack.words.toldTo?.contains(rest[$0].word) == true })
            {
                second = fullReading([verb] + rest, apps: apps)
            }
            let ownMessage = second.map { $0.intent == whole.intent && addressesContacts($0, apps) } ?? false
            if inFreeText, !ownMessage { continue }
            guard let second, let first = fullReading(Array(tokens[..<join]), apps: apps),
                first.intent != second.intent || inFreeText, whole.intent == first.intent || whole.intent == second.intent
            else { continue }
            if whole.intent == first.intent {
                // The whole has what the first part says and more items of its lists, from
                // after the "and" ("remind me to call mom and text Kiki").
                if Self.holds(whole, first), Self.listGrew(whole, first) { return nil }
                // Or a pattern explains every word of the whole, and no value of it swallowed
                // the second ("get a Zippy to the park and put it on my Visa" pays by Visa;
                // "mark cake as done and add napkins to party" renaming cake "party" is no
                // such reading).
                let explained = wholeExplained ?? (fullReading(tokens, apps: apps) != nil)
                wholeExplained = explained
                if explained, !whole.parameters.values.contains(where: { Self.holds($0, text: after) }) { return nil }
            }
            return JoinedRequest(first: first, said: tokens[..<join].typedText, second: after, inFreeText: inFreeText)
        }
        return nil
    }

    /// How many of a request's "and"s are tried as the start of a second request: each
    /// costs a few readings.
    static let maximumJoinsTried = 3
    /// Lines longer than this are not split: two requests said as one are short.
    static let maximumJoinedWords = 40

    /// `tokens` read as a request whose pattern explains every word but the app's name, or nil.
    private func fullReading(_ tokens: [Token], apps: [AppProfile]) -> UnderstoodRequest? {
        guard case .request(let request) = read(tokens.typedText, apps: apps) else { return nil }
        let marked = pack.markTypos(tokens)
        let mention = AppMention.find(in: marked, apps: apps, pack: pack)
        let named = mention.flatMap { m in apps.first { $0.name == m.app } }
        guard let explained = bestMatch(
            named == nil ? marked : mention?.remaining ?? marked, intents: [request.intent], verbForm: mention?.isVerb ?? false,
            apps: named.map { [$0] } ?? apps),
            explained.skipped.isEmpty
        else { return nil }
        return request
    }

    /// Whether `request` names people, each a contact an app taught.
    private func addressesContacts(_ request: UnderstoodRequest, _ apps: [AppProfile]) -> Bool {
        let people = (catalog.intent(request.intent)?.parameters ?? []).filter { $0.type == .person }
        let names = people.compactMap { request.parameters[$0.name] }.flatMap { $0.arrayValue ?? [$0] }.compactMap(\.stringValue)
        return !names.isEmpty && names.allSatisfy { apps.contactOpens(Token.split($0)) }
    }

    /// Whether `value` (or an item of it) holds `text`, but for case and punctuation.
    private static func holds(_ value: JSONValue, text: String) -> Bool {
        let folded = PeerNames.fold(text)
        return (value.arrayValue ?? [value]).contains { PeerNames.fold($0.stringValue ?? "").contains(folded) }
    }

    /// Whether one of `whole`'s lists has more items than `part`'s.
    private static func listGrew(_ whole: UnderstoodRequest, _ part: UnderstoodRequest) -> Bool {
        whole.parameters.contains { name, value in (value.arrayValue?.count ?? 0) > (part.parameters[name]?.arrayValue?.count ?? 0) }
    }

    /// Whether `whole` has every value `part` has (a list may have more items).
    private static func holds(_ whole: UnderstoodRequest, _ part: UnderstoodRequest) -> Bool {
        part.parameters.allSatisfy { name, value in
            guard let held = whole.parameters[name] else { return false }
            let had = Set((held.arrayValue ?? [held]).compactMap(\.stringValue).map(PeerNames.fold))
            return (value.arrayValue ?? [value]).compactMap(\.stringValue).allSatisfy { had.contains(PeerNames.fold($0)) }
        }
    }
}
