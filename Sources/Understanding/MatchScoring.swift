import IntentProtocol

/// Scores the ways an intent's patterns match one request and keeps the best reading:
/// pattern words count for (typos a little less), words skipped before or after count
/// against (fillers only a little, a comment after a comma a little more), a name an app
/// taught and a word that is one of a parameter's values count for. A class, so that the
/// matching walk carries one reference instead of copying all it needs at every step.
final class MatchScoring {
    let tokens: [Token]
    let intent: IntentDefinition
    /// Values the modifiers gave, and how many words they took.
    let given: [String: JSONValue]
    let givenWords: Int
    let reader: ValueReader
    let catalog: Catalog
    let apps: [AppProfile]
    /// The (folded) names apps taught.
    let knownNames: Set<String>
    /// The apps that serve the intent and taught terms other than contacts (`AppProfile.titles`).
    let titling: [AppProfile]
    let trailing: Set<String>
    let fillers: Set<String>
    let notValues: Set<String>
    let commentStarters: Set<String>
    let commentOpeners: Set<String>
    let clauseSlots: Set<String>
    /// The language's "and".
    let and: String
    /// Words that never start a person's name ("I", "it").
    let notNames: Set<String>
    /// Words each parameter's value never ends with ("note" for a list's name).
    let notLast: [String: Set<String>]
    let notFirst: [String: Set<String>]
    /// How many of the words from each position on are trailing words or fillers.
    private let lightAfter: [Int]
    /// Where a match may end, by position: before only trailing words and fillers, or
    /// where a comment may follow (`consider` checks the rest). The walk hands on no other.
    let endings: [Bool]
    /// The best reading so far, of this intent or one scored before.
    private(set) var best: RequestReader.Candidate?
    /// What a reading of this intent must beat: the best one's score, without what taught
    /// titles gave it while it is of another intent; `Int.min` while there is none.
    private var bestScore: Int
    /// Whether `best` is of another intent, so that a reading's own titles do not count against it.
    private var bestOfOther: Bool
    /// Captures already read, by slot, words and the ending they were read without.
    private var read: [Capture: Reading?] = [:]

    /// A capture's value and what it adds to the score.
    private struct Reading {
        let value: JSONValue
        let bonus: Int
        /// The bonus is for a title an app taught.
        var title = false
        /// Whether the words start with "and" before what may be a name.
        let startsWithAnd: Bool
    }

    private struct Capture: Hashable {
        let name: String
        let range: Range<Int>
        let suffix: String?
    }

    init(
        tokens: [Token], intent: IntentDefinition, given: [String: JSONValue], givenWords: Int, reader: ValueReader,
        catalog: Catalog, apps: [AppProfile], knownNames: Set<String>, best: RequestReader.Candidate?
    ) {
        self.tokens = tokens
        self.intent = intent
        self.given = given
        self.givenWords = givenWords
        self.reader = reader
        self.catalog = catalog
        self.apps = apps
        self.knownNames = knownNames
        titling = apps.filter { !$0.titles.isEmpty && $0.intents.contains(intent.name) }
        let words = reader.pack.words
        trailing = words.trailing
        fillers = words.fillers
        notValues = words.notValues
        commentStarters = words.commentStarters ?? []
        commentOpeners = words.commentOpeners ?? []
        clauseSlots = words.clauseSlots ?? []
        and = words.and
        notNames = words.notNames ?? []
        notLast = words.notLast ?? [:]
        notFirst = words.notFirst ?? [:]
        self.best = best
        let ofOther = best.map { $0.intent != intent.name } ?? false
        bestOfOther = ofOther
        bestScore = best.map { ofOther ? $0.score - $0.titleBonus : $0.score } ?? Int.min
        var light = Array(repeating: 0, count: tokens.count + 1)
        for index in tokens.indices.reversed() {
            light[index] = light[index + 1] + (trailing.contains(tokens[index].word) || fillers.contains(tokens[index].word) ? 1 : 0)
        }
        lightAfter = light
        let starters = commentStarters
        endings = (0...tokens.count).map { end in light[end] == tokens.count - end || Self.closesClause(tokens, at: end, starters) }
    }

    /// Whether what follows `end` in `tokens` is a comment the request can do without: the
    /// word before it ends a clause, or the word at it starts a comment ("so I remember").
    private static func closesClause(_ tokens: [Token], at end: Int, _ commentStarters: Set<String>) -> Bool {
        (end > 0 && tokens[end - 1].endsClause)
            || (end < tokens.count && (commentStarters.contains(tokens[end].word) || tokens[end].word == ":"))
    }

    /// Scores `match` of the pattern `pattern`, after `skipped` points for the words
    /// before it, and keeps it if it is the best so far.
    func consider(_ match: PatternMatch, skipped: Int, pattern: String) {
        var score = match.words * 10 - match.typos * 3 - skipped + givenWords * 5
        // What follows a comma, or a word that starts a comment ("so I remember"), is a
        // comment the request can do without (`endings` has the same test).
        let closesClause = match.end > match.start && Self.closesClause(tokens, at: match.end, commentStarters)
        let after = tokens.count - match.end, light = lightAfter[match.end]
        guard light == after || closesClause else { return }
        score -= light + 2 * (after - light)
        // Reading the values costs; a match that cannot win even with every bonus for them
        // is left unread. Nothing but those bonuses adds to the score after this.
        if score + mostBonus(match.captures) <= bestScore { return }
        var parameters = given
        var mentioned: [IntentParameterName: JSONValue] = [:]
        var titleBonus = 0
        for (name, range) in match.captures where name != "_" {
            // `{_Intent.parameter}`: words that must read as that parameter's value, kept apart
            // ("how much is a {_RequestRide.rideOptionName}": a ride option's price).
            if name.hasPrefix("_") {
                guard let (other, value) = otherValue(name, range, in: match) else { return }
                mentioned[other] = value
                continue
            }
            guard let parameter = intent.parameter(name),
                let reading = reading(name, range, in: match, as: parameter),
                // "tell coco and zorro lunch is off": an "and" before what may be a name joins
                // it to the people before it; no value starts with it ("tell Coco and then
                // call me" keeps its "and then …").
                !(reading.startsWithAnd && startsRightAfterPeople(range, in: match)),
                let value = match.adjusted(reading.value, for: name)
            else { return }
            parameters[name] = value
            score += reading.bonus
            if reading.title { titleBonus += reading.bonus }
        }
        for (name, text) in match.constants {
            guard let parameter = intent.parameter(name), let value = constant(text, as: parameter) else { return }
            parameters[name] = value
        }
        // A title picks among this intent's readings, never the intent: "get me home" stays a
        // ride with a list called Home.
        if (bestOfOther ? score - titleBonus : score) <= bestScore { return }
        bestScore = score
        bestOfOther = false
        best = RequestReader.Candidate(
            intent: intent.name, parameters: parameters, score: score, titleBonus: titleBonus, pattern: pattern, mentioned: mentioned,
            matched: MatchedSpan(
                tokens: tokens, span: match.start..<match.end, patternWords: match.words, closesClause: closesClause,
                freeText: match.captures.filter { clauseSlots.contains($0.name) }.map(\.range)))
    }

    /// A pattern's value for `parameter` (`{itemType=task}`) as a value. A person is the name
    /// as written: "{senders=Me}" is the user, whom no reading of a name would give.
    private func constant(_ text: String, as parameter: ParameterDefinition) -> JSONValue? {
        if parameter.type == .person { return parameter.isList ? .array([.string(text)]) : .string(text) }
        return reader.read(Token.split(text)[...], for: parameter, intent: intent.name, apps: apps)
    }

    /// The words of the capture `name` over `range` read as `parameter`, with what they
    /// add to the score, or `nil` if they cannot be its value. Once for each capture: the
    /// patterns' many matches capture the same words again and again.
    private func reading(_ name: String, _ range: Range<Int>, in match: PatternMatch, as parameter: ParameterDefinition) -> Reading? {
        let capture = Capture(name: name, range: range, suffix: match.suffixes[name])
        if let known = read[capture] { return known }
        let words = match.captured(name, range, in: tokens)
        let reading = reading(words, name, range, as: parameter)
        read[capture] = reading
        return reading
    }

    private func reading(_ words: ArraySlice<Token>, _ name: String, _ range: Range<Int>, as parameter: ParameterDefinition) -> Reading? {
        let free = clauseSlots.contains(name)
        guard !words.allSatisfy({ notValues.contains($0.word) }),
            parameter.isList || free || !words.dropLast().contains(where: \.endsClause),
            free || !words.dropLast().contains(where: \.endsSentence),
            free || !opensComment(words),
            // "add buns to the camping list: we need two": a colon ends a name (not a
            // title, "email bob: re budget"); what follows it is said about it.
            free || parameter.isList || parameter.isFreeText || !words.contains(where: { $0.word == ":" }),
            // "add to the trip plan note: …": no list's name ends with "note".
            notLast[name]?.contains(words[words.endIndex - 1].word) != true,
            // "reply to her saying …": what a message says starts after the "to".
            notFirst[name]?.contains(words[words.startIndex].word) != true,
            // "text coco back": "back" alone says nothing yet; "my list" names no list.
            !reader.pack.saysNothing(words, for: name),
            // "respond asap": a courtesy or "now" alone says how, not what (a thanks is a message).
            !(free && words.allSatisfy({ trailing.contains($0.word) }) && !reader.pack.isClosing(words)),
            // "flag message m-902 so I remember it": "so" starts a comment, not part of the value.
            free || !words.dropFirst().contains(where: { commentStarters.contains($0.word) }),
            // "…to groceries please": the courtesy is no part of the list's name (a
            // person's name drops it itself: "message Coco for me and say …").
            free || parameter.type == .person || !trailing.contains(words[words.endIndex - 1].word),
            // No people end with "and" before what may be a name.
            !(parameter.type == .person && words.count > 1 && words.last?.word == and && mayBeName(range.upperBound)),
            let value = reader.read(words, for: parameter, intent: intent.name, apps: apps),
            // Nor as read: "send kiki a message too" says "too" once "a message" is left out.
            !reader.pack.saysNothing(value, for: name)
        else { return nil }
        let startsWithAnd = words.first?.word == and && mayBeName(range.lowerBound + 1)
        // A name an app taught counts like the words it spans, and a little more when
        // said in full: "bobo jr and little bobo", not "bobo jr and little".
        if parameter.type == .person, known(value) {
            let bonus = 3 * min(words.count, nameWords(value)) + (spellsOut(words, value) ? 1 : 0)
            return Reading(value: value, bonus: bonus, startsWithAnd: startsWithAnd)
        }
        // A title the app taught counts like a name, and as much as a word of a pattern more:
        // "add go to the bank to errands" is for the errands list, though "to the bank to
        // errands" would match the pattern's "the".
        if titled(parameter), knownTitle(value, of: parameter) {
            return Reading(value: value, bonus: 10 + 3 * min(words.count, nameWords(value)), title: true, startsWithAnd: startsWithAnd)
        }
        // Words that read as one of a parameter's values beat free text. (`mostBonus` bounds
        // these bonuses; change both together.)
        return Reading(value: value, bonus: parameter.type == .enum ? 2 * words.count : 0, startsWithAnd: startsWithAnd)
    }

    /// The words of the capture `name` (`_Intent.parameter`) over `range` read as a value of
    /// that parameter of another intent, with its name; nil when they are none. Text or a
    /// name is such a value only as a term of an app's vocabulary for it: any words are some text
    /// ("what is the capital of France" names no kind of ride).
    private func otherValue(_ name: String, _ range: Range<Int>, in match: PatternMatch) -> (IntentParameterName, JSONValue)? {
        guard let other = IntentParameterName(name.dropFirst()), let parameter = catalog.intent(other.intent)?.parameter(other.parameter),
            ![.string, .person].contains(parameter.type) || apps.contains(where: { !$0.items(for: other.intent, other.parameter).isEmpty }),
            let value = reader.read(match.captured(name, range, in: tokens), for: parameter, intent: other.intent, apps: apps)
        else { return nil }
        return (other, value)
    }

    /// The most the values of `captures` can add to a match's score: a known name 3 a word
    /// and 1 more, a known title 10 and 3 a word, an enum's words 2 each, other words
    /// nothing. Keep in step with the bonuses `reading` gives.
    private func mostBonus(_ captures: SlotRanges) -> Int {
        var most = 0
        for (name, range) in captures {
            guard let parameter = intent.parameter(name) else { continue }
            switch parameter.type {
            case .person: most += 3 * range.count + 1
            case .enum: most += 2 * range.count
            case _ where titled(parameter): most += 10 + 3 * range.count
            default: continue
            }
        }
        return most
    }

    /// Whether a value of `parameter` may be a title an app taught: a name that is no free
    /// text, of a user vocabulary type (catalog `vocabulary`) an app serving the intent taught.
    private func titled(_ parameter: ParameterDefinition) -> Bool {
        guard let type = parameter.vocabulary, parameter.type == .string, !parameter.isFreeText else { return false }
        return titling.contains { $0.titles[type] != nil }
    }

    /// Whether every string in `value` is a term of `parameter`'s vocabulary type an app
    /// serving the intent taught.
    private func knownTitle(_ value: JSONValue, of parameter: ParameterDefinition) -> Bool {
        let said = (value.arrayValue ?? [value]).compactMap(\.stringValue)
        guard let type = parameter.vocabulary, !said.isEmpty else { return false }
        return said.allSatisfy { title in titling.contains { $0.titles[type]?.contains(PeerNames.fold(title)) == true } }
    }

    /// Whether the token at `index` may start a person's name: there is one, and it is no
    /// pronoun or little word ("then", "I").
    private func mayBeName(_ index: Int) -> Bool {
        guard tokens.indices.contains(index) else { return false }
        let word = tokens[index].word
        return !notNames.contains(word) && !fillers.contains(word) && !notValues.contains(word)
    }

    /// Whether `range` starts where a capture of people ends.
    private func startsRightAfterPeople(_ range: Range<Int>, in match: PatternMatch) -> Bool {
        match.captures.contains { name, other in other.upperBound == range.lowerBound && intent.parameter(name)?.type == .person }
    }

    /// Whether a clause after a comma in `words` opens with a comment ("…, I'm late").
    private func opensComment(_ words: ArraySlice<Token>) -> Bool {
        words.indices.dropLast().contains { words[$0].endsClause && commentOpeners.contains(words[$0 + 1].word) }
    }

    /// How many words the names in `value` have.
    private func nameWords(_ value: JSONValue) -> Int {
        (value.arrayValue ?? [value]).compactMap(\.stringValue).reduce(0) { $0 + Token.split($1).count }
    }

    /// Whether `words` are the names in `value` in full, joined by the language's "and",
    /// leaving out what a person's name is read without ("text kiki please": "kiki please"
    /// spells out Kiki as much as "kiki" does, so neither wins by it).
    private func spellsOut(_ words: ArraySlice<Token>, _ value: JSONValue) -> Bool {
        let said = reader.personWords(words)
        let names = (value.arrayValue ?? [value]).compactMap(\.stringValue).flatMap(Token.split)
        return said.filter { $0.word != and }.map(\.folded) == names.filter { $0.word != and }.map(\.folded)
    }

    /// Whether every person in `value` is one of the names apps taught.
    private func known(_ value: JSONValue) -> Bool {
        let said = (value.arrayValue ?? [value]).compactMap(\.stringValue)
        return !said.isEmpty && said.allSatisfy { knownNames.contains(PeerNames.fold($0)) }
    }
}
