import IntentProtocol

extension RequestReader {
    /// A change of mind partway through `text` that `reading` would act on wrongly, as typed
    /// from where it starts; nil when there is none. The words before it must read, on
    /// their own, as the same kind of request ("hey, actually, where's my ride" has none).
    /// It is one when:
    /// - a later clause opens with one of the language's `changesOfMind` or
    ///   `nameCorrections` and says something that could be a value ("add butter to the
    ///   shopping list, actually olive oil" reads as butter; "add milk and eggs, actually
    ///   just milk" as both; "remind me to call mom at 5pm, actually 6pm" has a task
    ///   "actually 6pm"), unless a message holds it;
    /// - the last clause calls the request off ("add bug spray to the list, never mind"),
    ///   and says no word the request said before ("cancel my ride. cancel");
    /// - a person is named by one of the language's `corrections` ("message coco, sorry,
    ///   kiki: …" names "sorry").
    /// A change inside a message is no part of this: the message is asked about on its own.
    public func unreadCorrection(in text: String, reading: UnderstoodRequest, apps: [AppProfile]) -> String? {
        let tokens = Token.split(text)
        let parameters = catalog.intent(reading.intent)?.parameters ?? []
        // Each value's words, and whether it is a message (free text of one string).
        let values = reading.parameters.flatMap { name, value in
            let message = value.stringValue != nil && parameters.first { $0.name == name }?.isFreeText == true
            return (value.arrayValue ?? [value]).compactMap(\.stringValue).map {
                (name: name, words: Token.split($0).map(\.word), message: message)
            }
        }
        /// The words before `index` read as the same kind of request.
        func sameBefore(_ index: Int) -> Bool {
            guard case .request(let before) = read(tokens[..<index].typedText, apps: apps) else { return false }
            return before.intent == reading.intent
        }
        /// `tokens` from `index` on, as typed, without the stop or comma that ends them.
        func said(from index: Int) -> String { ValueReader.trimmed(tokens[index...].typedText) }

        if let from = changeOfMind(tokens, values), sameBefore(from) { return said(from: from) }
        let last = tokens.indices.dropLast().last(where: { Self.endsClause(tokens[$0]) }).map { $0 + 1 }
        if let last, pack.words.cancel.contains(pack.essentialWords(tokens[last...])),
            !tokens[last...].contains(where: { word in tokens[..<last].contains { $0.word == word.word } }),
            !values.contains(where: { value in value.message && tokens[last...].allSatisfy { value.words.contains($0.word) } }),
            sameBefore(last)
        {
            return said(from: last)
        }
        let corrections = (pack.words.corrections ?? []).map { $0.split(separator: " ").map(String.init) }
        for value in values where parameters.first(where: { $0.name == value.name })?.type == .person {
            if corrections.contains(where: { value.words.starts(with: $0) }) { return value.words.joined(separator: " ") }
        }
        return nil
    }

    /// Where a later clause opens with a change of mind that says something that could be
    /// a value, outside a message; a change of mind said as a clause of its own ("…, no
    /// wait, olive oil") opens the next.
    private func changeOfMind(_ tokens: [Token], _ values: [(name: String, words: [String], message: Bool)]) -> Int? {
        let openers = ((pack.words.changesOfMind ?? []) + (pack.words.nameCorrections ?? [])).map { $0.split(separator: " ").map(String.init) }
        var start = 0
        var pending: (opener: [String], from: Int)?
        for index in tokens.indices where index == tokens.count - 1 || Self.endsClause(tokens[index]) {
            let clause = tokens[start...index]
            start = index + 1
            let opened = pending
            pending = nil
            guard clause.startIndex > 0 else { continue }
            let found = openers.first(where: { clause.map(\.word).starts(with: $0) }).map { ($0, clause.startIndex) } ?? opened
            guard let (opener, from) = found else { continue }
            let said = clause.dropFirst(opened == nil ? opener.count : 0).map(\.word).filter { !pack.words.fillers.contains($0) }
            // The change of mind alone: what it changes to follows.
            if said.isEmpty {
                pending = (opener, from)
                continue
            }
            // Its words that could be values ("cancel my ride, i mean it" says none).
            let rest = said.filter { !pack.words.notValues.contains($0) }
            if rest.isEmpty { continue }
            // In a message, the change is the message's to ask about.
            if values.contains(where: { value in value.message && rest.allSatisfy { value.words.contains($0) } }) { return nil }
            // Anywhere else it changes a value the reading may have kept, held in another
            // ("shopping list. actually eggs") or left as it was ("add milk and eggs to the
            // list, actually just milk" reads as both): the caller checks that the words
            // before it are a request of their own.
            return from
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
