import IntentProtocol

/// Reads the user's answers to the host's questions: yes or no, a choice by number,
/// ordinal or name, cancel, and a value for a parameter.
public struct AnswerReader: Sendable {
    let pack: LanguagePack
    /// The user's clock, which dates are read against.
    let clock: UserClock
    /// Reads a value given as an answer, and finds dates.
    private let valueReader: ValueReader

    /// A reader for `pack`'s language, reading dates against `clock`.
    public init(pack: LanguagePack, clock: UserClock = .system) {
        self.pack = pack
        self.clock = clock
        self.valueReader = ValueReader(pack: pack, clock: clock)
    }

    /// Whether the answer is one of the language's cancel phrases.
    public func isCancel(_ text: String) -> Bool {
        pack.words.cancel.contains(pack.essentialWords(Token.split(text)[...]))
    }

    /// Whether the answer is a yes or a no and nothing more ("no thanks"; not "no, send it
    /// to Bobo").
    public func isOnlyYesOrNo(_ text: String) -> Bool { isOnlyYesOrNo(Token.split(text)) }

    private func isOnlyYesOrNo(_ tokens: [Token]) -> Bool {
        (whole(tokens) ?? []).contains { pack.words.yes.contains($0) || pack.words.no.contains($0) }
    }

    /// Whether the answer starts with the language's "and" ("and get Kiki one too"): it adds
    /// to what was said.
    public func startsWithAnd(_ text: String) -> Bool {
        Token.split(text).first?.word == pack.words.and
    }

    /// Whether the answer is a question of the user's ("what's on it?"): it ends with a
    /// question mark and opens with a question word (`words.askedQuestion.questionWords`),
    /// or that word with an ending ("what's").
    public func isQuestion(_ text: String) -> Bool {
        text.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("?") && opensWithQuestionWord(text)
    }

    /// Whether `text` opens with a question word ("what groups do I have"), or that word
    /// with an ending ("what's"), after any fillers.
    public func opensWithQuestionWord(_ text: String) -> Bool {
        guard let questionWords = pack.words.askedQuestion?.questionWords,
            let first = Token.split(text).first(where: { !pack.words.fillers.contains($0.word) })?.word
        else { return false }
        return questionWords.contains(first) || questionWords.contains { first.hasPrefix($0 + "'") }
    }

    /// Whether the answer is a question of the user's about someone ("hmm, what did he send
    /// me last?", where a message was asked for): it reads as no message to pass on as said.
    public func asksAboutSomeone(_ text: String) -> Bool {
        guard let asked = pack.words.askedQuestion, isQuestion(text) else { return false }
        let people = asked.subjects.union(asked.plural)
        return Token.split(text).contains { people.contains($0.word) }
    }

    /// Whether the words take leave ("ok, bye"): a phrase of `words.leaving` is in them.
    public func takesLeave(_ text: String) -> Bool {
        let said = Token.split(text).map(\.word)
        return pack.leavings.contains { phrase in said.indices.contains { said[$0...].starts(with: phrase) } }
    }

    /// Whether the answer asks what was meant instead of answering ("what?", "wait, what?").
    public func isUnsure(_ text: String) -> Bool { isUnsure(Token.split(text)) }

    private func isUnsure(_ tokens: [Token]) -> Bool {
        guard let unsure = pack.words.unsure else { return false }
        return (whole(tokens) ?? []).contains(where: unsure.contains)
    }

    /// Whether free text only points back at something said before ("the same", "that"),
    /// which nothing keeps: it is no message of its own.
    public func isSameAsBefore(_ text: String) -> Bool {
        pack.words.sameAsBefore?.contains(Self.phrase(text)) == true
    }

    /// Whether the request, whole, asks to show the last answer again ("read it to me").
    public func asksToSayAgain(_ text: String) -> Bool {
        pack.words.sayAgain?.contains(Self.phrase(text)) == true
    }

    /// Whether the request, whole, asks to undo what was done ("undo that").
    public func asksToUndo(_ text: String) -> Bool {
        pack.words.undo?.contains(Self.phrase(text)) == true
    }

    /// Whether `text` is a change of mind said on its own, after a "no" or not ("no, I meant
    /// Kiki", "I mean tomorrow", "actually Kiki"): it opens with one of the language's
    /// `nameCorrections` or `changesOfMind` and says something after it.
    public func isCorrectionAlone(_ text: String) -> Bool {
        var tokens = Token.split(text)[...]
        if let first = tokens.first, pack.words.no.contains(first.word) { tokens = tokens.dropFirst() }
        let openers = (pack.words.nameCorrections ?? []) + (pack.words.changesOfMind ?? [])
        let said = tokens.map(\.word)
        return openers.contains { opener in
            let words = opener.split(separator: " ").map(String.init)
            return words.count < said.count && said.starts(with: words)
        }
    }

    /// `text`'s words, lower-cased, without punctuation, one space apart.
    private static func phrase(_ text: String) -> String { Token.split(text).map(\.word).joined(separator: " ") }

    /// Whether the answer points back at what was just shown ("mark them as read"), with
    /// a word that is no part of the `values` read from it ("remind me to fix it" does not;
    /// a value that is only pointing words, a task "them", is one; "reply" points as they do)
    /// nor of a date or a stretch of days ("remind me to wash the car this afternoon", "what's
    /// due this week" do not).
    public func pointsBack(_ text: String, besides values: [String: JSONValue] = [:]) -> Bool {
        guard let pointing = pack.words.pointing else { return false }
        let verbs = pack.words.pointingVerbs ?? []
        let words = values.values.flatMap { $0.arrayValue ?? [$0] }.compactMap(\.stringValue).map { Token.split($0).map(\.word) }
        let taken = Set(words.filter { !pack.onlyPoints($0) }.joined())
        let tokens = Token.split(text)
        let clause = pack.words.pointingNotBefore ?? []
        let candidates = tokens.indices.filter { index in
            (pointing.contains(tokens[index].word) || verbs.contains(tokens[index].word)) && !taken.contains(tokens[index].word)
                && !(index + 1 < tokens.endIndex && clause.contains(tokens[index + 1].word))
        }
        guard !candidates.isEmpty else { return false }
        let date = valueReader.dates.find(in: tokens[...])?.range, span = valueReader.dates.span(in: tokens[...])?.range
        return candidates.contains { !(date?.contains($0) ?? false) && !(span?.contains($0) ?? false) }
    }

    /// Whether `value` (text, a person or a place, or a list of them) is only words that
    /// point back ("them all", "it"), which name nothing themselves.
    public func onlyPoints(_ value: JSONValue) -> Bool {
        let values = value.arrayValue ?? [value]
        return !values.isEmpty && values.allSatisfy { value in
            (value.stringValue ?? value["displayName"]?.stringValue ?? value["name"]?.stringValue).map { pack.onlyPoints(Token.split($0).map(\.word)) } == true
        }
    }

    /// Whether `text` points at more than one thing ("mark them all as done").
    public func pointsAtSeveral(_ text: String) -> Bool { pack.pointsAtSeveral(Token.split(text).map(\.word)) }

    /// The answer's words as one phrase, and without leading fillers ("go ahead" is a yes
    /// phrase whose "go" is also a filler): both forms a yes or no phrase may take.
    private func whole(_ tokens: [Token]) -> [String]? {
        let all = tokens.map(\.word).joined(separator: " ")
        return all.isEmpty ? nil : [all, pack.essentialWords(tokens[...])]
    }

    /// True for yes, false for no, nil for neither.
    public func yesNo(_ text: String) -> Bool? {
        let tokens = Token.split(text)
        let forms = whole(tokens) ?? []
        if forms.contains(where: pack.words.yes.contains) { return true }
        if forms.contains(where: pack.words.no.contains) { return false }
        let first = tokens.first?.word ?? ""
        if pack.words.yes.contains(first) {
            // "ok wait", "sure, but how much?": a yes held back is no yes yet.
            if holdsBack(tokens.dropFirst(), text) { return nil }
            // "ok, no, don't", "yes, never mind": a no or a cancel after it makes it no
            // answer; "sure, no problem" is a yes after a yes.
            let rest = withoutFillers(tokens.dropFirst())
            guard let next = rest.first?.word, !pack.words.yes.contains(rest.map(\.word).joined(separator: " ")) else { return true }
            return pack.words.no.contains { Self.firstWord(of: $0) == next } || cancels(rest) ? nil : true
        }
        if pack.words.no.contains(first) { return false }
        // "wait, no, keep it", "um no": a no after fillers or a word that takes back.
        let takingBack = Set(pack.words.corrections ?? [])
        if let said = tokens.drop(while: { pack.words.fillers.contains($0.word) || takingBack.contains($0.word) }).first?.word,
            said != first, pack.words.no.contains(said)
        {
            return false
        }
        return nil
    }

    /// What follows a suggestion that opens the answer ("how about union square?": "union
    /// square?"; language `words.suggesting`), or nil when none opens it.
    public func afterSuggestion(_ text: String) -> String? {
        rest(of: text, after: pack.words.suggesting ?? [], pastFillers: false)
    }

    /// What follows a no said first, perhaps after fillers, as typed: "send it to Bobo Jr."
    /// for "wait no, send it to Bobo Jr."; nil when the answer does not start with a no
    /// ("tell Coco no") or says nothing after it.
    public func afterNo(_ text: String) -> String? {
        rest(of: text, after: pack.words.no, pastFillers: true)
    }

    /// What follows one of `phrases` said first in `text` (with `pastFillers`, fillers
    /// before and after it are passed over), as typed; nil when none opens it or nothing follows.
    private func rest(of text: String, after phrases: [String], pastFillers: Bool) -> String? {
        let chunks = text.split(whereSeparator: \.isWhitespace)
        let words = chunks.map { Token.split(String($0)).first?.word ?? "" }
        let fillers = pastFillers ? pack.words.fillers : []
        let start = words.firstIndex { !fillers.contains($0) } ?? words.count
        for phrase in phrases {
            let said = phrase.split(separator: " ").map(String.init)
            guard start + said.count < words.count, Array(words[start..<start + said.count]) == said else { continue }
            guard let rest = words[(start + said.count)...].firstIndex(where: { !fillers.contains($0) }) else { return nil }
            return chunks[rest...].joined(separator: " ")
        }
        return nil
    }

    /// Whether the answer calls the conversation off: a cancel phrase, or a cancel word
    /// with only little words after it ("cancel it"), also after a yes or a no ("ok,
    /// cancel it": "ok" would otherwise be a yes, and "cancel it" a request of its own).
    public func isCancelAnswer(_ text: String) -> Bool {
        if isCancel(text) { return true }
        var tokens = Token.split(text)[...]
        if let first = tokens.first?.word, pack.words.yes.contains(first) || pack.words.no.contains(first) { tokens = tokens.dropFirst() }
        let rest = withoutFillers(tokens)
        return !rest.isEmpty && cancels(rest)
    }

    /// Whether what follows a yes holds it back: it opens with a hesitation ("wait", "but",
    /// "let me think"), fillers aside, or the answer asks something ("yes? how much"), but
    /// not a request of its own after "and" ("go ahead, and where is my ride?").
    private func holdsBack(_ rest: ArraySlice<Token>, _ text: String) -> Bool {
        var words = rest.map(\.word)[...]
        if words.first(where: { !pack.words.fillers.contains($0) || $0 == pack.words.and }) == pack.words.and { return false }
        if !words.isEmpty, text.contains("?") { return true }
        while true {
            if pack.hesitations.contains(where: { words.starts(with: $0) }) { return true }
            guard let first = words.first, pack.words.fillers.contains(first) else { return false }
            words = words.dropFirst()
        }
    }

    /// Whether `tokens` are a cancel phrase, or a one-word cancel with only little words
    /// after it ("cancel it", "stop that"; not "nothing else").
    private func cancels(_ tokens: ArraySlice<Token>) -> Bool {
        if pack.words.cancel.contains(pack.essentialWords(tokens)) { return true }
        guard let first = tokens.first?.word, pack.words.cancel.contains(first) else { return false }
        return tokens.dropFirst().allSatisfy { pack.words.notValues.contains($0.word) || pack.words.fillers.contains($0.word) }
    }

    /// Whether an answer to the question confirming an intent (`summary`, "Cancel your
    /// ride") agrees in the summary's own words: "yes cancel it", "yep go ahead and cancel",
    /// "cancel" to "Cancel your ride?"; "yes delete it" to "Delete cake from Party?". Past
    /// any words of the language's yes phrases (and "and"), the summary's first word, its
    /// verb, then only the summary's words and words that are never values; no question
    /// ("delete everything?"), no no, nothing else ("maybe delete it").
    public func agreesInItsWords(_ text: String, confirming summary: String) -> Bool {
        let summaryWords = Token.split(summary).map(\.word)
        guard !text.contains("?"), let verb = summaryWords.first else { return false }
        let asked = Set(summaryWords)
        let agreeing = Set(pack.words.yes.flatMap { $0.split(separator: " ").map(String.init) } + [pack.words.and])
        let said = Token.split(text).drop { agreeing.contains($0.word) && $0.word != verb }
        guard said.first?.word == verb else { return false }
        return said.dropFirst().allSatisfy { token in
            !pack.words.no.contains(token.word) && (asked.contains(token.word) || pack.words.notValues.contains(token.word))
        }
    }

    /// What an answer that opens as a correction says after its opening words ("Coco" for
    /// "no wait, I meant Coco", "Kiki" for "actually just Kiki"); nil when it opens with
    /// no correction (a no, or the language's `corrections`) or says nothing after it.
    public func correction(_ text: String) -> String? {
        after((pack.words.corrections ?? []) + pack.words.no, in: text)
    }

    /// What free text says after opening with a change of mind about a name ("kiki to
    /// bring the speaker" for "i mean kiki to bring the speaker"; language `nameCorrections`,
    /// narrower than `corrections`: "sorry kiki is late" opens with none); nil otherwise.
    public func nameCorrection(_ text: String) -> String? {
        after(pack.words.nameCorrections ?? [], in: text)
    }

    /// What `text` says after opening with `phrases` (and fillers); nil when it opens with
    /// none of them or says nothing after.
    private func after(_ phrases: [String], in text: String) -> String? {
        let openers = phrases.map { $0.split(separator: " ").map(String.init) }
        var chunks = text.split(whereSeparator: \.isWhitespace)[...]
        var corrected = false
        while !chunks.isEmpty {
            let words = chunks.prefix(3).map { Token.split(String($0)).first?.word ?? "" }
            if let opener = openers.first(where: { Array(words.prefix($0.count)) == $0 }) {
                chunks = chunks.dropFirst(opener.count)
                corrected = true
            } else if pack.words.fillers.contains(words[0]) {
                chunks = chunks.dropFirst()
            } else {
                break
            }
        }
        return corrected && !chunks.isEmpty ? chunks.joined(separator: " ") : nil
    }

    /// Whether free text read from a request takes itself back partway, so that sending it
    /// word for word may not be what the user meant: a clause after the first opens with a
    /// change of mind (language `changesOfMind`: "…, actually to Coco", "…, no wait"), any
    /// clause does after a no ("no wait, Kiki: can you bring dessert?"), or the text ends
    /// calling itself off ("…, never mind"). "wait for me", "actually I can come" are not.
    public func takesItselfBack(_ text: String) -> Bool {
        guard let changes = pack.words.changesOfMind else { return false }
        let openers = changes.map { $0.split(separator: " ").map(String.init) }
        let opens = { (words: [String]) in openers.contains { words.starts(with: $0) } }
        let tokens = Token.split(text)
        var start = tokens.startIndex
        for index in tokens.indices {
            let clause = tokens[index...].prefix(4).map(\.word)
            // A no that opens a change of mind, even with no comma before it ("we meet at 7 no
            // wait make that 7:30", "no wait, …", "nope, actually …").
            if clause.count > 1, pack.words.no.contains(clause[0]), opens(clause) || opens(Array(clause.dropFirst())) { return true }
            // A later clause opening with one ("…, actually to Coco").
            if index == start, index > tokens.startIndex, opens(clause) { return true }
            if RequestReader.endsClause(tokens[index]) { start = index + 1 }
        }
        return start > tokens.startIndex && start < tokens.endIndex && cancels(tokens[start...])
    }

    /// The plain yes of the language.
    public var plainYes: String { pack.words.yes.first ?? "yes" }

    /// `tokens` from the first that is neither a filler nor a dash standing alone.
    private func withoutFillers(_ tokens: ArraySlice<Token>) -> ArraySlice<Token> {
        tokens.drop { pack.words.fillers.contains($0.word) || $0.word == ":" }
    }

    private static func firstWord(of phrase: String) -> String {
        phrase.split(separator: " ").first.map(String.init) ?? phrase
    }

    /// A yes or a no phrase said first and then more: the answer, the phrase as typed, and
    /// the rest as typed after any fillers ("yes, and tell Coco I'm coming": yes, "yes,",
    /// "tell Coco I'm coming"; "go ahead and …").
    /// Nil when it starts with neither or nothing but fillers follows; when what follows
    /// starts with a no or a cancel ("ok no, text Coco …" answers nothing); and when its
    /// one word is also a filler ("ok", "right") not followed by the language's "and"
    /// ("OK Siri, text Coco …" is no yes).
    public func yesNoThen(_ text: String) -> (yes: Bool, answer: String, rest: String)? {
        let chunks = text.split(whereSeparator: \.isWhitespace)
        let words = chunks.map { Token.split(String($0)).map(\.word) }
        let firstWords = Set((pack.words.no + pack.words.cancel).map(Self.firstWord(of:)))
        for length in stride(from: min(3, words.count - 1), through: 1, by: -1) {
            let phrase = words[..<length].joined().joined(separator: " ")
            let yes: Bool
            if pack.words.yes.contains(phrase) {
                yes = true
            } else if pack.words.no.contains(phrase) {
                yes = false
            } else {
                continue
            }
            if length == 1, pack.words.fillers.contains(phrase), words[1].first != pack.words.and { return nil }
            if yes, holdsBack(Token.split(chunks[length...].joined(separator: " "))[...], text) { return nil }
            var rest = length
            while rest < words.count, words[rest].allSatisfy(pack.words.fillers.contains) { rest += 1 }
            guard rest < words.count, let first = words[rest].first, !firstWords.contains(first) else { return nil }
            return (yes, chunks[..<length].joined(separator: " "), chunks[rest...].joined(separator: " "))
        }
        return nil
    }

    /// The index into `options` the answer picks: "2", "the second one", "number 2",
    /// "last", or a name (the whole option, else the only option containing the words).
    public func choice(_ text: String, options: [String]) -> Int? {
        let tokens = Token.split(text)
        let numbers = tokens.compactMap { token -> Int? in
            if let n = Int(token.word) { return n }
            if let n = pack.words.ordinals[token.word], n != 0 { return n }
            if let n = pack.words.numbers[token.word], n > 1 || tokens.count == 1 { return n }
            return nil
        }
        let others = tokens.filter { Int($0.word) == nil && pack.words.ordinals[$0.word] == nil && pack.words.numbers[$0.word] == nil }
        let onlyNumbers = others.allSatisfy { pack.words.fillers.contains($0.word) || pack.words.listSeparators.contains($0.word) }
        // "1 and 3" is two choices, not the first: asked again rather than half taken
        // ("3, the third one" is one; "Top 10 Movies 2024" is a name).
        if onlyNumbers, Set(numbers).count > 1 { return nil }
        if let number = numbers.first, others.allSatisfy({ pack.words.fillers.contains($0.word) }) {
            if number == -1 { return options.indices.last }
            // "The middle one" of three; of two or four there is none.
            if number == -2 { return options.count % 2 == 1 ? options.count / 2 : nil }
            // Compared before subtracting: the user may type Int.min.
            return number >= 1 && number <= options.count ? number - 1 : nil
        }
        let said = PeerNames.fold(text)
        guard !said.isEmpty else { return nil }
        if let exact = options.firstIndex(where: { PeerNames.fold($0) == said }) { return exact }
        let containing = options.indices.filter { PeerNames.fold(options[$0]).contains(said) }
        if containing.count == 1 { return containing[0] }
        let contained = options.indices.filter { said.contains(PeerNames.fold(options[$0])) }
        if contained.count == 1 { return contained[0] }
        // "the great one": the words that mean something, all in one option only.
        let meaningful = others.map(\.folded).filter { word in
            !pack.words.fillers.contains(word) && !pack.words.notValues.contains(word) && pack.words.ordinals[word] == nil
        }
        guard !meaningful.isEmpty else { return nil }
        let matching = options.indices.filter { index in
            let words = Set(Token.split(options[index]).map(\.folded))
            return meaningful.allSatisfy(words.contains)
        }
        return matching.count == 1 ? matching[0] : nil
    }

    /// The answer read as a value for `parameter`, or nil when it cannot be one. A bare yes
    /// or no is a value only where yes or no is asked for, or any text is taken (a message
    /// may say "yes"); it is no place, name or date, and neither is a "what?".
    public func value(_ text: String, for parameter: ParameterDefinition, intent: String, apps: [AppProfile]) -> JSONValue? {
        let said = Token.split(text)
        if !parameter.isFreeText, isUnsure(said) || (parameter.type != .boolean && isOnlyYesOrNo(said)) { return nil }
        // Said as the request says it ("just me", "the two of us" where a party size was
        // asked for).
        if !parameter.isFreeText, let value = modified(said, for: parameter, intent: intent, apps: apps) { return value }
        var tokens = said[...]
        // A name or title ("chores please", "on the chores list" where a list was asked
        // for): chores.
        if let value = phrased(tokens, for: parameter, intent: intent) { tokens = value }
        // "the groceries one" where a list was asked for: groceries.
        if !parameter.isFreeText, tokens.count > 2, let first = tokens.first, let last = tokens.last,
            pack.articles.contains(first.word), pack.words.thatOne?.contains(last.word) == true
        {
            tokens = tokens.dropFirst().dropLast()
        }
        return valueReader.read(tokens, for: parameter, intent: intent, apps: apps)
    }

    /// The value of the language's phrase for `parameter` (`modifiers`) that is the whole
    /// answer, if one is.
    private func modified(_ said: [Token], for parameter: ParameterDefinition, intent: String, apps: [AppProfile]) -> JSONValue? {
        guard let first = said.first else { return nil }
        var value: JSONValue?
        for phrase in pack.modifiers[parameter.name] ?? [] where value == nil && !phrase.wordSet.isEmpty && phrase.canStart(at: first) {
            var budget = 5_000
            phrase.matches(said, from: 0, budget: &budget) { match in
                guard value == nil, match.end == said.count else { return }
                value = match.value(of: parameter, in: said, intent: intent, valueReader, apps: apps)
            }
        }
        return value
    }

    /// Whether the answer is one of the phrases that give `parameter` of `intent` (a name
    /// or title), with its value: "on the chores list please" where a task's list was asked
    /// for. Such an answer is no new request.
    public func isPhrasedValue(_ text: String, for parameter: ParameterDefinition, intent: String) -> Bool {
        let tokens = Token.split(text)[...]
        return phrased(tokens, for: parameter, intent: intent).map { $0.count < tokens.count } ?? false
    }

    /// For a name or title (not free text), the answer's words without a courtesy after
    /// them ("chores please"), and the value's words alone when they and the words around
    /// them are one of the phrases that give `parameter` of `intent` ("on the chores list":
    /// "chores"); nil when neither is there.
    private func phrased(_ said: ArraySlice<Token>, for parameter: ParameterDefinition, intent: String) -> ArraySlice<Token>? {
        guard parameter.type == .string, !parameter.isFreeText else { return nil }
        var tokens = said
        while tokens.count > 1, let last = tokens.last, pack.words.trailing.contains(last.word) { tokens = tokens.dropLast() }
        let all = Array(tokens)
        guard all.count > 1 else { return tokens.count < said.count ? tokens : nil }
        // The phrase that leaves the fewest words to the value: "to the chores list" is
        // chores, though "to {targetTaskList}" matches it too.
        var value: ArraySlice<Token>?
        // A value holds no word of the phrases ("what's on my grocery list" is no list
        // called "what's on my grocery").
        let own = pack.slotPhrases.ownWords(intent, parameter.name)
        for phrase in pack.slotPhrases.phrases(intent, parameter.name) where phrase.canStart(at: all[0]) {
            var budget = 5_000
            phrase.matches(all, from: 0, budget: &budget) { match in
                guard match.end == all.count, let range = match.captures[parameter.name], !range.isEmpty,
                    range.count < value?.count ?? all.count, !all[range].contains(where: { own.contains($0.word) })
                else { return }
                value = match.captured(parameter.name, range, in: all)
            }
        }
        return value ?? (tokens.count < said.count ? tokens : nil)
    }
}
