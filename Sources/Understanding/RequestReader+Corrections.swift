import IntentProtocol

extension RequestReader {
    /// A change of mind partway through `text` that `reading` leaves out, as typed: "add
    /// butter to the shopping list, actually olive oil" reads as butter, and "remind me to
    /// call mom at 5pm, actually 6pm" has a task "actually 6pm". A later clause opening with
    /// one of the language's `changesOfMind` is left out when none of its words is in a
    /// value, or a value opens with it. So is a last clause that calls the request off
    /// ("add bug spray to the picnic list, never mind"), where what comes before it reads as
    /// the same kind of request, and a person's name that opens as a correction ("message
    /// coco, sorry, kiki: …"). Nil when the reading takes its words in ("hey, actually
    /// book me a Zippy to the airport") or free text holds it (asked about apart).
    public func unreadCorrection(in text: String, reading: UnderstoodRequest, apps: [AppProfile]) -> String? {
        guard let changes = pack.words.changesOfMind else { return nil }
        let openers = changes.map { $0.split(separator: " ").map(String.init) }
        let tokens = Token.split(text)
        let parameters = catalog.intent(reading.intent)?.parameters ?? []
        let values = reading.parameters.flatMap { name, value in
            (value.arrayValue ?? [value]).compactMap(\.stringValue).map { (name, Token.split($0).map(\.word)) }
        }
        var start = 0
        // A change of mind said as a clause of its own ("…, no wait, olive oil") opens the next.
        var opened: (opener: [String], from: Int)?
        for index in tokens.indices where index == tokens.count - 1 || Self.endsClause(tokens[index]) {
            let clause = tokens[start...index]
            start = index + 1
            let pending = opened
            opened = nil
            guard clause.startIndex > 0 else { continue }
            let found = openers.first(where: { clause.map(\.word).starts(with: $0) }).map { ($0, clause.startIndex) } ?? pending
            guard let (opener, from) = found else { continue }
            let rest = clause.dropFirst(pending == nil ? opener.count : 0).map(\.word).filter { !pack.words.fillers.contains($0) }
            if rest.isEmpty {
                opened = (opener, from)
                continue
            }
            let said = tokens[from...index].typedText
            // Free text holding the change is asked about word for word.
            if values.contains(where: { name, words in
                parameters.first { $0.name == name }?.isFreeText == true && !rest.contains { !words.contains($0) } && reading.parameters[name]?.stringValue != nil
            }) {
                return nil
            }
            if values.contains(where: { $0.1.starts(with: opener) }) { return said }
            if !values.contains(where: { _, words in rest.contains(where: words.contains) }) { return said }
        }
        // A name that is a correction ("message coco, sorry, kiki: …" names "sorry").
        let corrections = (pack.words.corrections ?? []).map { $0.split(separator: " ").map(String.init) }
        for (name, words) in values where parameters.first(where: { $0.name == name })?.type == .person {
            if corrections.contains(where: { words.starts(with: $0) }) { return words.joined(separator: " ") }
        }
        // The last clause calls it all off, and is no part of a message ("text Kiki: never mind").
        let last = tokens.indices.dropLast().last(where: { Self.endsClause(tokens[$0]) }).map { $0 + 1 }
        if let last, pack.words.cancel.contains(pack.essentialWords(tokens[last...])),
            !values.contains(where: { name, words in
                parameters.first { $0.name == name }?.isFreeText == true && reading.parameters[name]?.stringValue != nil
                    && tokens[last...].allSatisfy { words.contains($0.word) }
            }),
            case .request(let before) = read(tokens[..<last].typedText, apps: apps), before.intent == reading.intent
        {
            return tokens[last...].typedText
        }
        return nil
    }

    /// Whether a clause ends at `token`: a comma, a colon, a stop ("quarters. never mind"),
    /// but not the dots of "wait..." or of "Jr.".
    static func endsClause(_ token: Token) -> Bool {
        if token.endsClause || token.endsSentence || token.word == ":" { return true }
        let typed = token.typed
        if typed.hasSuffix("!") || typed.hasSuffix("?") { return true }
        return typed.hasSuffix(".") && !typed.hasSuffix("..") && token.raw.count >= 4
    }
}
