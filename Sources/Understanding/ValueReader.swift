import IntentProtocol

/// Turns the words said for a parameter into the value the catalog expects: lists split
/// at commas and "and", names picked out of "my best pal Bobo", places, numbers said in
/// words, enum values from their words, and ride options from the app's vocabulary.
/// Returns nil when the words cannot be that parameter. A class, so that the matching
/// closures that use it share one instead of copying the language pack each time.
final class ValueReader: Sendable {
    let pack: LanguagePack
    /// The user's clock, which dates are read against.
    let clock: UserClock
    /// The date reader for the pack's words and the clock.
    let dates: DateReader

    init(pack: LanguagePack, clock: UserClock = .system) {
        self.pack = pack
        self.clock = clock
        dates = DateReader(pack: pack, clock: clock)
    }

    func read(_ tokens: ArraySlice<Token>, for parameter: ParameterDefinition, intent: String, apps: [AppProfile]) -> JSONValue? {
        guard !tokens.isEmpty else { return nil }
        if parameter.isList {
            let parts = parameter.type == .enum ? [tokens] : split(tokens, orToo: parameter.type == .person || isSearched(parameter, intent))
            var values: [JSONValue] = []
            for part in parts {
                guard let value = element(part, parameter, intent, apps) else { return nil }
                values.append(value)
            }
            return values.isEmpty ? nil : .array(values)
        }
        return element(tokens, parameter, intent, apps)
    }

    /// Splits at commas and list words ("rice, onions and olives"), but not inside quotes
    /// or an item the language keeps whole ("mac and cheese"); with `orToo`, at "or" as well
    /// ("did Coco or Kiki write").
    func split(_ tokens: ArraySlice<Token>, orToo: Bool = false) -> [ArraySlice<Token>] {
        var parts: [ArraySlice<Token>] = []
        var start = tokens.startIndex
        var whole = tokens.startIndex  // no split before this index
        for i in tokens.indices {
            if i >= whole, let item = pack.wholeItems.first(where: { tokens[i...].starts(with: $0) { $0.word == $1 } }) {
                whole = i + item.count
            }
            if i >= whole, let close = Self.quoteCloses(tokens, from: i) { whole = close + 1 }
            if i < whole - 1 { continue }
            if pack.words.listSeparators.contains(tokens[i].word) || (orToo && tokens[i].word == pack.words.or) {
                if start < i { parts.append(tokens[start..<i]) }
                start = i + 1
            } else if tokens[i].endsClause {
                parts.append(tokens[start...i])
                start = i + 1
            }
        }
        if start < tokens.endIndex { parts.append(tokens[start...]) }
        return parts
    }

    /// Where a quote opened at `open` (`"rice and beans"`, `'rock and roll'`) closes, if it
    /// does, later.
    static func quoteCloses(_ tokens: ArraySlice<Token>, from open: Int) -> Int? {
        let typed = tokens[open].typed
        guard let first = typed.first, let closers = quoteClosers[first] else { return nil }
        func closes(_ token: Token) -> Bool {
            token.typed.reversed().first { !",.;:!?".contains($0) }.map(closers.contains) == true
        }
        guard typed.count == 1 || !closes(tokens[open]) else { return nil }
        return tokens[(open + 1)...].firstIndex(where: closes)
    }

    /// The quotes that open a quoted item, and what closes each: a straight single quote or
    /// its curly form, as phones type them.
    private static let quoteClosers: [Character: Set<Character>] = [
        "\"": ["\""], "\u{201C}": ["\u{201D}", "\""], "'": ["'", "\u{2019}"], "\u{2018}": ["\u{2019}", "'"],
    ]

    private func element(_ tokens: ArraySlice<Token>, _ parameter: ParameterDefinition, _ intent: String, _ apps: [AppProfile]) -> JSONValue? {
        let items = apps.flatMap { $0.items(for: intent, parameter.name) }
        if !items.isEmpty {
            let said = PeerNames.fold(tokens.map(\.raw).joined())
            return vocabularyItem(said, items) ?? otherValue(said, tokens, parameter)
        }
        switch parameter.type {
        case .string:
            var tokens = tokens
            // "…to Coco letting them know the venue changed": the lead is no part of it.
            if pack.words.clauseSlots?.contains(parameter.name) == true, let lead = contentLead(tokens) { tokens = tokens.dropFirst(lead) }
            // Terms searched for go without an article ("about the wedding" finds "wedding").
            if isSearched(parameter, intent) {
                while tokens.count > 1, let first = tokens.first, pack.articles.contains(first.word) { tokens = tokens.dropFirst() }
            }
            // What a message or a note says is kept as typed: its dashes, quotes and last
            // stop are the user's. Titles and names lose them.
            let asTyped = parameter.isFreeText && !parameter.isList && pack.words.clauseSlots?.contains(parameter.name) == true
                && !isSearched(parameter, intent)
            let text = asTyped ? Self.unquoted(tokens.typedText) : Self.trimmed(tokens.typedText)
            return text.isEmpty ? nil : .string(text)
        case .person:
            return person(tokens, apps).map(JSONValue.string)
        case .location:
            return place(tokens).map(JSONValue.string)
        case .integer, .number:
            return number(tokens).map { .number($0) }
        case .enum:
            return enumValue(tokens, parameter.values ?? []).map(JSONValue.string)
        case .boolean:
            return yesNo(tokens).map(JSONValue.bool)
        case .dateTime:
            let span = parameter.isRange ? dates.readSpan(tokens, past: parameter.isPast) : nil
            return (span ?? dates.read(tokens, back: parameter.isPast)).map(JSONValue.string)
        }
    }

    /// A person: the words without leading fillers ("my best pal Bobo" is "Bobo"); a
    /// name the apps taught (`contactName`) is written as they taught it.
    func person(_ tokens: ArraySlice<Token>, _ apps: [AppProfile]) -> String? {
        let rest = personWords(tokens)
        let said = PeerNames.fold(rest.map(\.raw).joined())
        let names = apps.flatMap(\.contacts)
        if let name = names.first(where: { $0.folded == said }) { return name.name }
        // A small typo of exactly one known name of as many words ("Kikki").
        let close = names.filter { $0.words.count == rest.count && Spelling.close(said, $0.folded, minimumLength: 4) }
        if close.count == 1 { return close[0].name }
        // Word by word: each the name's word, a short form of it ("Mr", "lil") or a small
        // typo of a longer one ("Littel").
        let words = rest.map { pack.words.nameForms?[$0.folded] ?? $0.folded }
        let byWord = names.filter { name in
            name.words.count == words.count && words.count > 1
                && zip(words, name.words).allSatisfy { $0 == $1 || ($1.count >= 4 && Spelling.close($0, $1, minimumLength: 4)) }
        }
        if byWord.count == 1 { return byWord[0].name }
        // One word of exactly one known name ("Mojo" for "Mister Mojo"), not a little word
        // such as "the" in "Bobo the Great".
        if rest.count == 1, said.count >= 3, let word = rest.first?.word, !pack.words.notValues.contains(word),
            !pack.words.personFillers.contains(word), !pack.words.fillers.contains(word)
        {
            let containing = names.filter { $0.words.contains(said) }
            if containing.count == 1 { return containing[0].name }
        }
        // A known name and more ("kiki i'm late", before a dash): the name ran into the message.
        if rest.count > 1, apps.contactOpens(rest) { return nil }
        // Names the apps did not teach are short; more words ran past the name. A word
        // the language uses ("it", "anything", "quick") starts or ends a name only when
        // capitalised ("Zorro the Great" has one inside).
        let notNames = pack.words.notNames ?? []
        guard rest.count <= Self.longestUnknownName,
            [rest.first, rest.last].allSatisfy({
                $0.map { !notNames.contains($0.word) && (!isLanguageWord($0.word) || Self.capitalised($0.raw)) } ?? false
            })
        else { return nil }
        let text = Self.trimmed(rest.map(\.raw).joined(separator: " "))
        return text.isEmpty ? nil : text
    }

    /// How many words of a lead into free text (`words.contentLeads`) `tokens` open with,
    /// leaving some text after it.
    private func contentLead(_ tokens: ArraySlice<Token>) -> Int? {
        pack.contentLeads.filter { lead in lead.count < tokens.count && zip(lead, tokens).allSatisfy { $0 == $1.word } }
            .map(\.count).max()
    }

    /// Whether `parameter` of `intent` is what is searched for (`words.searchSlots`).
    private func isSearched(_ parameter: ParameterDefinition, _ intent: String) -> Bool {
        guard let search = pack.words.searchSlots else { return false }
        return search.contains(parameter.name) || search.contains("\(intent).\(parameter.name)")
    }

    /// Whether `word` is one the language itself uses: in patterns, or a filler.
    private func isLanguageWord(_ word: String) -> Bool {
        pack.allPatternWords.contains(word) || pack.words.fillers.contains(word) || pack.words.notValues.contains(word)
            || pack.words.personFillers.contains(word) || pack.words.yes.contains(word) || pack.words.no.contains(word)
    }

    /// "Mark", not "mark" or "MARK".
    static func capitalised(_ word: String) -> Bool {
        guard let first = word.first, first.isUppercase else { return false }
        return word.dropFirst().contains(where: \.isLowercase) || word.count == 1
    }

    /// The most words a name no app taught may have.
    static let longestUnknownName = 3

    /// Whether the word at `index` of `tokens` opens a street a place is on ("REI on 9th
    /// street"): one of the language's `streets.introducers`, with one of its `streets.words`
    /// after it.
    private func opensStreet(_ tokens: ArraySlice<Token>, at index: Int) -> Bool {
        guard let streets = pack.words.streets, streets.introducers.contains(tokens[index].word) else { return false }
        return tokens[(index + 1)...].contains { streets.words.contains($0.word) }
    }

    /// A place: a named alias ("here", "home"), else the words without leading fillers.
    func place(_ tokens: ArraySlice<Token>) -> String? {
        if let stops = pack.words.locationStops, tokens.indices.contains(where: { stops.contains(tokens[$0].word) && !opensStreet(tokens, at: $0) }) {
            return nil
        }
        // "Zippy feedback: 3 stars": what follows a colon is said about something else.
        if tokens.dropFirst().contains(where: { $0.word == ":" }) { return nil }
        if let alias = pack.words.places[tokens.map(\.word).joined(separator: " ")] { return alias }
        // "over" alone is no place, and neither is "a", nor a number alone ("for 2" is people).
        if tokens.allSatisfy({ pack.words.locationFillers.contains($0.word) || pack.words.notValues.contains($0.word) }) { return nil }
        if number(tokens) != nil { return nil }
        var rest = tokens
        while rest.count > 1, let first = rest.first, pack.words.locationFillers.contains(first.word) { rest = rest.dropFirst() }
        if let alias = pack.words.places[rest.map(\.word).joined(separator: " ")] { return alias }
        let text = Self.trimmed(rest.map(\.raw).joined(separator: " "))
        return text.isEmpty ? nil : text
    }

    /// A number in digits ("3", "$5.50") or words ("three", "twenty five"); at most two words.
    func number(_ tokens: ArraySlice<Token>) -> Double? {
        guard tokens.count <= 2 else { return nil }
        // "a" alone is no number ("for a van"); "a couple" is.
        if tokens.count == 1, let only = tokens.first, pack.words.notValues.contains(only.word) { return nil }
        let said = tokens.compactMap { pack.words.numbers[$0.word] }
        // Two words are a number only when both are ("twenty five", "a couple"), not "a van".
        if tokens.count == 2, !tokens.allSatisfy({ pack.words.numbers[$0.word] != nil || Double($0.word.filter { $0 != "$" && $0 != "," }) != nil }) {
            return nil
        }
        if said.count == 2, said[0] >= 20, said[0] % 10 == 0, said[1] < 10 { return Double(said[0] + said[1]) }
        for token in tokens.reversed() {
            let digits = token.word.filter { $0 != "$" && $0 != "," }
            if let value = Double(digits), value.isFinite { return value }
            if let value = pack.words.numbers[token.word] { return Double(value) }
        }
        return nil
    }

    /// The enum value whose words were said.
    func enumValue(_ tokens: ArraySlice<Token>, _ allowed: [String]) -> String? {
        let said = tokens.map(\.word).joined(separator: " ")
        for value in allowed {
            if value.lowercased() == said || (pack.values[value] ?? []).contains(said) { return value }
        }
        return nil
    }

    /// Yes or no, from the language's words.
    func yesNo(_ tokens: ArraySlice<Token>) -> Bool? {
        let said = tokens.map(\.word).joined(separator: " ")
        if pack.words.yes.contains(said) { return true }
        if pack.words.no.contains(said) { return false }
        return nil
    }

    /// The vocabulary item whose phrase, pronunciation or identifier was said (`said`,
    /// folded); its first phrase is the value.
    private func vocabularyItem(_ said: String, _ items: [AppVocabulary.Item]) -> JSONValue? {
        for item in items {
            let names = [item.identifier] + item.synonyms.flatMap { [$0.phrase] + ($0.pronunciation.map { [$0] } ?? []) }
            if names.contains(where: { PeerNames.fold($0) == said }) {
                return .string(item.synonyms.first?.phrase ?? item.identifier)
            }
        }
        return nil
    }

    /// `tokens` as said, if they (`said`, folded) are one of the values people say for
    /// `parameter` that the app does not name (`words.otherValues`).
    private func otherValue(_ said: String, _ tokens: ArraySlice<Token>, _ parameter: ParameterDefinition) -> JSONValue? {
        guard let values = pack.words.otherValues?[parameter.name] else { return nil }
        return values.contains { PeerNames.fold($0) == said } ? .string(Self.trimmed(tokens.typedText)) : nil
    }

    /// The words a person's name is read from: without leading fillers ("my best pal") or
    /// closing courtesies ("please").
    func personWords(_ tokens: ArraySlice<Token>) -> ArraySlice<Token> {
        var rest = tokens
        while rest.count > 1, let first = rest.first, pack.words.personFillers.contains(first.word) { rest = rest.dropFirst() }
        while rest.count > 1, let last = rest.last, pack.words.trailing.contains(last.word) { rest = rest.dropLast() }
        return rest
    }

    /// `text` as a message says it: without spaces, colons, commas or a dash and space
    /// before it, nor spaces, commas or a colon after it; without quotes that enclose all of
    /// it, and the stop after them ("“see you at 8”."). Quotes inside it, a "-5", and its
    /// last stop stay.
    static func unquoted(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last == " " || last == "," || last == ":" { text = text.dropLast() }
        while let first = text.first {
            if first == " " || first == ":" || first == "," {
                text = text.dropFirst()
            } else if "-\u{2013}\u{2014}".contains(first), text.dropFirst().first == " " {
                text = text.dropFirst(2)
            } else {
                break
            }
        }
        let pairs: [Character: Character] = ["\"": "\"", "'": "'", "\u{201C}": "\u{201D}"]
        var quoted = text
        if let last = quoted.last, ".!?".contains(last), quoted.dropLast().last.map({ pairs.values.contains($0) }) == true {
            quoted = quoted.dropLast()
        }
        if quoted.count > 1, let first = quoted.first, let closing = pairs[first], quoted.last == closing,
            !quoted.dropFirst().dropLast().contains(closing)
        {
            return String(quoted.dropFirst().dropLast())
        }
        return String(text)
    }

    /// Without surrounding quotes, spaces and a final period.
    static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        let edges: Set<Character> = ["\"", "'", "\u{201C}", "\u{201D}", " ", ".", ",", ":"]
        while let last = text.last, edges.contains(last) { text = text.dropLast() }
        while let first = text.first, edges.contains(first) { text = text.dropFirst() }
        return String(text)
    }
}
