import IntentProtocol

/// Reads typed requests in one language: finds the app named (by any of its names, also
/// as a verb: "MonkeyChat Bobo send more bananas"), matches the language's patterns for
/// the intents on offer, and reads each captured parameter.
public struct RequestReader: Sendable {
    /// The language it reads.
    public let pack: LanguagePack
    let catalog: Catalog
    /// The user's clock, which dates are read against.
    public var clock: UserClock
    /// Whether the language's `pointedIntents` patterns are tried too (`pointingBack()`).
    var pointing = false
    /// The intent whose `followUps` patterns are tried too (`followingUp(_:)`).
    var following: String?

    /// Requests longer than this are not understood.
    public static let maximumWords = 100
    /// What skipping a word of a name an app taught, before a match, costs: as much as the
    /// words of a short pattern give, so that the request is read as about that person.
    static let skippedNameCost = 60

    /// A reader for `pack` over the intents of `catalog`, reading dates against `clock`.
    public init(pack: LanguagePack, catalog: Catalog, clock: UserClock = .system) {
        self.pack = pack
        self.catalog = catalog
        self.clock = clock
    }

    /// This reader, trying also the patterns whose words point back at what an app just
    /// showed ("mark it as done"): for reading a request said about it.
    public func pointingBack() -> RequestReader {
        var reader = self
        reader.pointing = true
        return reader
    }

    /// This reader, trying also the patterns of `intent` that follow up on a request for it
    /// ("and to union square?"): for reading what is said right after one.
    public func followingUp(_ intent: String) -> RequestReader {
        var reader = self
        reader.following = intent
        return reader
    }

    /// Whether `request` was read by one of the patterns that follow up (`followUps`).
    public func followsUp(_ request: UnderstoodRequest) -> Bool {
        pack.followUps[request.intent]?.contains { $0.source == request.pattern } == true
    }

    /// Whether `request` was read by one of the patterns that point back (`pointedIntents`).
    public func pointsBack(_ request: UnderstoodRequest) -> Bool {
        pack.pointedIntents[request.intent]?.contains { $0.source == request.pattern } == true
    }

    /// Understands `text`, given the apps registered now.
    public func read(_ text: String, apps: [AppProfile]) -> Understood {
        let split = Token.split(text)
        if pack.isClosing(split[...]) { return .closing }
        if pack.isGreeting(split[...]) { return .greeting }
        let said = withoutGreeting(withoutClosingCourtesy(split))
        // Matching cost grows with length; nobody asks for an intent in a page of text.
        guard said.count <= Self.maximumWords else { return .tooLong }
        let tokens = pack.markTypos(said)
        let words = pack.essentialWords(tokens[...])
        if words.isEmpty { return .notUnderstood }
        if pack.words.cancel.contains(words) { return .cancel }
        if declines(tokens) { return .declined }
        if pack.words.capabilities.contains(words) { return .capabilities(app: nil) }
        if let app = app(namedBy: pack.capabilitiesOfApp, in: tokens, apps) { return .capabilities(app: app) }
        if let app = app(namedBy: pack.allowingApp, in: tokens, apps) { return .allow(app: app) }

        let firstMention = AppMention.find(in: tokens, apps: apps, pack: pack)
        var mention = firstMention
        let every = Array(Set(apps.flatMap(\.intents))).sorted()
        var found: Candidate?
        if let app = mention, let named = apps.first(where: { $0.name == app.app }) {
            found = bestMatch(app.remaining, intents: named.intents, verbForm: app.isVerb, apps: [named])
            if let noun = app.asNoun, let other = bestMatch(noun, intents: named.intents, verbForm: false, apps: [named]),
                other.score > found?.score ?? Int.min
            {
                found = other
            }
            // A name said in passing may be a word of the request ("text Kiki my Zippy is
            // here", "add Zippy promo code to my list"): read without it naming an app too.
            if !app.isVerb, app.asNoun != nil, let plain = bestMatch(tokens, intents: every, verbForm: false, apps: apps),
                plain.score > found?.score ?? Int.min
            {
                found = plain
                mention = nil
            }
        } else {
            found = bestMatch(tokens, intents: every, verbForm: false, apps: apps)
        }
        let rest = mention?.remaining ?? tokens
        let named = mention.flatMap { m in apps.first { $0.name == m.app } }
        let namedApp = mention?.byVocabulary == true ? nil : named?.name
        if let cued = cueReading(found, rest, offered: named?.intents ?? every, apps: apps, appNamed: namedApp != nil) {
            found = cued
        } else if mention == nil, let firstMention, let app = apps.first(where: { $0.name == firstMention.app }),
            !app.intents.contains(found?.intent ?? ""),
            let cued = cueReading(
                found, firstMention.remaining, offered: app.intents, apps: apps, appNamed: !firstMention.byVocabulary, evenIfExplained: true)
        {
            // The name was read as a word of the request, but the words point to what that app does.
            return .request(UnderstoodRequest(
                intent: cued.intent, namedApp: app.name, apps: [app.name], parameters: cued.parameters, pattern: cued.pattern))
        }
        if let best = found.map({ asked(completed($0, apps: apps)) }) {
            let serving = named.map { [$0.name] } ?? apps.filter { $0.intents.contains(best.intent) }.map(\.name)
            var request = UnderstoodRequest(intent: best.intent, namedApp: namedApp, apps: serving, parameters: best.parameters, pattern: best.pattern)
            request.questionKeptAsSaid = best.questionKeptAsSaid
            request.mentioned = best.mentioned
            return .request(request)
        }
        if let named, let other = bestMatch(rest, intents: catalog.intentNames, verbForm: false, apps: apps) {
            return .appCannotDo(app: named.name, intent: other.intent)
        }
        if let named, let read = slotReading(rest, offered: named.intents, apps: apps) {
            return .request(UnderstoodRequest(
                intent: read.intent, namedApp: namedApp, apps: [named.name], parameters: read.parameters, pattern: read.pattern))
        }
        return .notUnderstood
    }

    /// Understands `text` said where `app` asked something ("a van" where Zippy asked for a
    /// yes): as `read(_:apps:)` does, and when that understands nothing, by the phrases of
    /// `app`'s intents, as if `app` had been named; where those read as much for several,
    /// `intent` (the one being confirmed) first ("to the ferry building" changes the ride).
    public func read(_ text: String, apps: [AppProfile], answering app: String?, confirming intent: String? = nil) -> Understood {
        let reading = read(text, apps: apps)
        guard reading == .notUnderstood, let profile = apps.first(where: { $0.name == app }) else { return reading }
        let said = withoutGreeting(withoutClosingCourtesy(Token.split(text)))
        // "not a van" changes nothing, and a time alone ("maybe later") is no change of a
        // request being confirmed.
        let notChanges = pack.words.notChanges ?? []
        guard said.count <= Self.maximumWords, !said.contains(where: { notChanges.contains($0.word) }) else { return reading }
        // The app's name and the words that tie it in are no value ("start a run workout in
        // Gymbo" gave an activity "in Gymbo"), and words naming another app are not said to
        // this one.
        let tokens = pack.markTypos(said)
        let mention = AppMention.find(in: tokens, apps: apps, pack: pack)
        if let mention, !mention.byVocabulary, mention.app != profile.name { return reading }
        guard let read = slotReading(mention?.remaining ?? tokens, offered: profile.intents, apps: [profile], preferring: intent),
            read.parameters.keys.contains(where: { catalog.intent(read.intent)?.parameter($0)?.type != .dateTime })
        else { return reading }
        return .request(UnderstoodRequest(intent: read.intent, namedApp: nil, apps: [profile.name], parameters: read.parameters, pattern: read.pattern))
    }

    /// `found` with a question passed on ("ask Kiki if she can bring plates") asked directly
    /// in its free text ("Can you bring plates?"), when its verb passes questions on.
    func asked(_ found: Candidate) -> Candidate {
        guard let question = pack.words.askedQuestion, let matched = found.matched,
            matched.span.lowerBound < matched.tokens.count, question.verbs.contains(matched.tokens[matched.span.lowerBound].word),
            let said = found.parameters[question.parameter]?.stringValue
        else { return found }
        // "ask Coco and Kiki if they're free": "they" is the people asked only when several are.
        let people = (catalog.intent(found.intent)?.parameters ?? []).filter { $0.type == .person }
        let several = people.contains { (found.parameters[$0.name]?.arrayValue?.count ?? 0) > 1 }
        var found = found
        if let asked = question.asked(said, several: several) {
            found.parameters[question.parameter] = .string(asked)
            // "Can I have dinner on friday?" may not be what "ask Coco for dinner on friday"
            // meant: the words the reader chose are confirmed before they are sent.
            if question.asksAFavour(said) { found.questionKeptAsSaid = question.parameter }
        } else {
            found.questionKeptAsSaid = question.opensQuestion(said) ? question.parameter : nil
        }
        return found
    }

    /// A candidate reading of the request.
    struct Candidate {
        var intent: String
        var parameters: [String: JSONValue]
        var score: Int
        /// What titles an app taught added to `score` (`MatchScoring`).
        var titleBonus = 0
        var pattern: String
        /// Values of other intents' parameters said in passing (`{_Intent.parameter}`).
        var mentioned: [IntentParameterName: JSONValue] = [:]
        /// Where the pattern matched; nil for a reading by slot phrases.
        var matched: MatchedSpan? = nil
        /// The free-text parameter holding a question passed on, kept as said.
        var questionKeptAsSaid: String?

        /// The words the match skipped that are no comment.
        var skipped: [Token] { matched?.skipped ?? [] }
        /// The words outside free text (a message's content).
        var outsideFreeText: [Token] { matched?.outsideFreeText ?? [] }
        /// The words outside the match, comments too.
        var unmatched: [Token] { matched?.unmatched ?? [] }
    }

    /// The best-scoring match over the intents' patterns: pattern words count for (typos a
    /// little less), words skipped before or after count against (fillers only a little,
    /// a closing comment after a comma a little more).
    /// Whether the request opens by saying not to do it ("don't tell Kiki anything", "never
    /// mind the reply"), not "don't forget to call Mom".
    func declines(_ tokens: [Token]) -> Bool {
        pack.negations.contains { phrase in
            tokens.count > phrase.count && tokens.starts(with: phrase) { $0.word == $1 }
                && pack.words.negationUnless?.contains(tokens[phrase.count].word) != true
        }
    }

    func bestMatch(_ said: [Token], intents: [String], verbForm: Bool, apps: [AppProfile]) -> Candidate? {
        // The date and words of `said`, shared by every intent's reading of it.
        let dated = DatedWords(said, self, apps: apps)
        let reader = dated.reader
        let knownNames = Set(apps.flatMap(\.contacts).map(\.folded))
        let nameWords = Set(apps.flatMap(\.contacts).flatMap(\.words)).subtracting(pack.articles)
        let fillers = pack.words.fillers
        var best: Candidate?
        // What skipping the first n words costs: fillers a little, other words a lot, and
        // a person's name more ("tell Coco I need a ride to the pier" is a message).
        func skipCosts(_ tokens: [Token]) -> [Int] {
            var skipCost = [0]
            for token in tokens {
                let cost = fillers.contains(token.word) ? 1 : nameWords.contains(token.folded) ? Self.skippedNameCost : 15
                skipCost.append(skipCost[skipCost.count - 1] + cost)
            }
            return skipCost
        }
        // Most intents take no modifier out, and walk `said` itself.
        lazy var saidCosts = skipCosts(said)
        lazy var saidPositions = WordPositions(said)
        for intentName in intents {
            guard let intent = catalog.intent(intentName) else { continue }
            let (tokens, given, givenWords) = modifiers(said, intent, reader, apps, date: dated.date, saidWords: dated.words)
            let scoring = MatchScoring(
                tokens: tokens, intent: intent, given: given, givenWords: givenWords, reader: reader, catalog: catalog,
                apps: apps, knownNames: knownNames, best: best)
            let skipCost = givenWords == 0 ? saidCosts : skipCosts(tokens)
            let positions = givenWords == 0 ? saidPositions : WordPositions(tokens)
            var patterns = (pack.intents[intent.name] ?? []).map { ($0, false) }
            if verbForm { patterns += (pack.appVerbForms[intent.name] ?? []).map { ($0, true) } }
            if pointing { patterns += (pack.pointedIntents[intent.name] ?? []).map { ($0, false) } }
            if following == intent.name { patterns += (pack.followUps[intent.name] ?? []).map { ($0, false) } }
            for (pattern, isVerbForm) in patterns where pattern.mayMatch(dated.words) {
                var budget = 50_000
                for start in positions.starts(of: pattern) {
                    // A leading clause ("never mind the Zippy, cancel it") is a comment.
                    let skipped = start > 0 && tokens[start - 1].endsClause ? min(skipCost[start], 2 * start) : skipCost[start]
                    if verbForm, isVerbForm, start > 0 { break }
                    pattern.matches(tokens, from: start, endingAt: scoring.endings, budget: &budget) { match in
                        scoring.consider(match, skipped: skipped, pattern: pattern.source)
                    }
                }
            }
            best = scoring.best
        }
        return best
    }

    /// The date said in `said`, unless its words are part of a name an app taught that is
    /// said there too ("read me the saturday menu note" names the note "saturday menu"), or
    /// it is a day alone after an article, naming what follows it ("add wine to the friday
    /// shopping list"; not "remind me on friday about it"), or after a word that gives a
    /// name ("make a list called friday dinner"), or a day after "to" at the end that is a
    /// name an app taught.
    func date(in said: [Token], _ reader: ValueReader, apps: [AppProfile]) -> (range: Range<Int>, value: String, past: String)? {
        guard let date = reader.dates.find(in: said[...]) else { return nil }
        let dates = pack.dates
        let core = said[date.range].filter { !dates.introducers.contains($0.word) && !pack.articles.contains($0.word) }
        let day = core.count == 1 ? core.first.flatMap { dates.weekdays[$0.word] ?? dates.weekend?[$0.word] != nil ? $0 : nil } : nil
        let before = day.flatMap { day in said[date.range].firstIndex { $0.word == day.word } }.flatMap { $0 > 0 ? said[$0 - 1].word : nil }
        if let before, pack.words.naming?.contains(before) == true {
            // "a list called friday dinner for friday": a date after the name is still one.
            let rest = Array(said[date.range.upperBound...])
            guard let later = self.date(in: rest, reader, apps: apps) else { return nil }
            let start = date.range.upperBound
            return (start + later.range.lowerBound..<start + later.range.upperBound, later.value, later.past)
        }
        if let day, let before, !day.endsClause, date.range.upperBound < said.count, pack.articles.contains(before),
            !dates.next.contains(before)  // "this friday" is a date
        {
            let next = said[date.range.upperBound].word
            let dateWords = dates.introducers + dates.at + dates.on + Array(dates.partsOfDay.keys) + dates.am + dates.pm
            if !dateWords.contains(next), !pack.words.fillers.contains(next), !pack.words.trailing.contains(next), next != ":" { return nil }
        }
        // A day said at the end after a word of `dates.destination` alone, that is the whole
        // of a name an app taught ("add streamers to saturday", where a list is called
        // Saturday), is that name.
        if let day, let destination = dates.destination,
            said[date.range].allSatisfy({ $0.word == day.word || destination.contains($0.word) }),
            said[date.range.upperBound...].allSatisfy({ pack.words.trailing.contains($0.word) }),
            apps.contains(where: { $0.userVocabulary.values.contains { $0.contains { PeerNames.fold($0) == day.folded } } })
        {
            return nil
        }
        return nameTaught(overlapping: date.range, in: said, apps: apps) ? nil : date
    }

    /// Whether the words at `range` of `said` are part of a name of more than one word an
    /// app taught, said there in full ("the saturday menu note", "the next week list").
    func nameTaught(overlapping range: Range<Int>, in said: [Token], apps: [AppProfile]) -> Bool {
        let words = said.map(\.folded)
        for name in apps.lazy.flatMap({ $0.userVocabulary.values.joined() }) {
            let parts = Token.split(name).map(\.folded)
            guard parts.count > 1, parts.count <= words.count else { continue }
            for start in 0...(words.count - parts.count) where words[start..<(start + parts.count)].elementsEqual(parts) {
                if range.overlaps(start..<(start + parts.count)) { return true }
            }
        }
        return false
    }

    /// Takes out of `tokens` the phrases that give one of `intent`'s parameters wherever
    /// they stand: `date` (found once for all intents) for its date parameter, and the
    /// language's modifiers ("for three people"). Returns the rest, the values and how
    /// many words they took. `saidWords` holds (at least) what `tokens` can match.
    func modifiers(
        _ tokens: [Token], _ intent: IntentDefinition, _ reader: ValueReader, _ apps: [AppProfile],
        date: (range: Range<Int>, value: String, past: String)?, saidWords: SaidWords
    ) -> ([Token], [String: JSONValue], Int) {
        var rest = tokens
        var values: [String: JSONValue] = [:]
        var taken = 0
        func remove(_ range: Range<Int>) {
            if range.lowerBound > 0, rest[range.upperBound - 1].endsClause { rest[range.lowerBound - 1].endsClause = true }
            rest.removeSubrange(range)
            taken += range.count
        }
        // A span after a word that gives a name is the name ("a list called next week").
        func spanSaid(past: Bool, onlyPhrases: Bool = false) -> FoundSpan? {
            // ("messages from june" are June's where an app taught the name.)
            let isName = { (token: Token) in apps.contains { $0.contacts.contains { $0.words.contains(token.folded) } } }
            guard let span = reader.dates.span(in: rest[...], past: past, onlyPhrases: onlyPhrases, isName: isName) else { return nil }
            let before = span.range.lowerBound > 0 ? rest[span.range.lowerBound - 1].word : nil
            return before.map { pack.words.naming?.contains($0) == true } == true ? nil : span
        }
        if let parameter = intent.parameters.first(where: { $0.type == .dateTime }) {
            // A search asked in the past tense searches what was: "what was due on friday". The
            // tense is the question's, in its first words: not a "were" of what a note says.
            let pastTense = pack.words.pastTense ?? []
            let isPast = parameter.isPast || parameter.isRange && tokens.prefix(5).contains { pastTense.contains($0.word) }
            // "due this week": a span, where the parameter takes one, before a name an app
            // taught (a list called "next week"); a span followed by more words is a name ("my
            // next week list"). A day said apart from it is the value if it falls in it ("this
            // week on friday" is friday); either way both phrases are taken.
            if parameter.isRange, let span = spanSaid(past: isPast) {
                // A date that is the span's own words ("this weekend") is the span.
                let apart = date.flatMap { $0.range.overlaps(span.range) ? nil : $0 }
                let day = apart.map { isPast ? $0.past : $0.value }
                let inSpan = day.flatMap(DateTimeText.instant).map { span.start <= $0 && $0 < span.end } ?? false
                values[parameter.name] = .string(inSpan ? day ?? span.value : span.value)
                let ranges: [Range<Int>]
                if let apart {
                    // The later first, so that the earlier stays where it is.
                    ranges = [span.range, apart.range].sorted { $0.lowerBound > $1.lowerBound }
                } else {
                    let other = date?.range ?? span.range
                    ranges = [min(span.range.lowerBound, other.lowerBound)..<max(span.range.upperBound, other.upperBound)]
                }
                for range in ranges { remove(range) }
            } else if let date {
                values[parameter.name] = .string(isPast ? date.past : date.value)
                remove(date.range)
            } else if !parameter.isRange, !parameter.isPast, let span = spanSaid(past: false, onlyPhrases: true),
                let start = reader.dates.firstMoment(of: span)
            {
                // "remind me to call the bank next month": the span's first day, at the time a
                // day said alone means, if that is still to come.
                values[parameter.name] = .string(start)
                remove(span.range)
            }
        }
        let determiners = pack.words.appDeterminers ?? []
        for parameter in intent.parameters where parameter.type != .dateTime {
            for pattern in pack.modifiers[parameter.name] ?? [] where pattern.mayMatch(saidWords) {
                var budget = 5_000
                var found: (Range<Int>, JSONValue, [String: JSONValue])?
                // A value said on its own ("pool") is one only as a clause of its own.
                let bare = pattern.wordSet.isEmpty
                for start in rest.indices where found == nil {
                    if bare, start > 0, !rest[start - 1].endsClause { continue }
                    if !pattern.canStart(at: rest[start]) { continue }
                    pattern.matches(rest, from: start, budget: &budget) { match in
                        guard found == nil || match.end - match.start > found?.0.count ?? 0 else { return }
                        // A phrase that is all that was said is the request, not a word on
                        // it ("flag it" after a task was shown, not "add milk and flag it").
                        // (A value said alone stays one: "pool" where a ride waits.)
                        guard bare || match.end - match.start < rest.count || taken > 0 else { return }
                        // "for the blog in the Writing folder": a value holds none of the phrase's own words.
                        if let range = match.captures[parameter.name],
                            rest[range].contains(where: { pattern.wordSet.contains($0.word) && !determiners.contains($0.word) })
                                || rest[range].dropLast().contains(where: \.endsClause)
                        { return }
                        if bare {
                            // The clause may close with a courtesy: "…, Zippy X please".
                            var end = match.end
                            while end < rest.count, !rest[end - 1].endsClause, pack.words.trailing.contains(rest[end].word) { end += 1 }
                            if end < rest.count, !rest[end - 1].endsClause { return }
                        }
                        let value = match.value(of: parameter, in: rest, intent: intent.name, reader, apps: apps)
                        // What the phrase also says of other parameters ("5 km": the unit).
                        var others: [String: JSONValue] = [:]
                        for (name, text) in match.constants where name != parameter.name {
                            guard let other = intent.parameter(name) else { continue }
                            others[name] = reader.read(Token.split(text)[...], for: other, intent: intent.name, apps: apps)
                        }
                        if let value { found = (match.start..<match.end, value, others) }
                    }
                }
                if let (range, value, others) = found {
                    values[parameter.name] = value
                    values.merge(others) { said, _ in said }
                    remove(range)
                    break
                }
            }
        }
        return (rest, values, taken)
    }

    /// The app `tokens` name where one of `patterns` takes them all, by `{app}`: "What can
    /// MonkeyChat do?", "allow Zippy".
    private func app(namedBy patterns: [Pattern], in tokens: [Token], _ apps: [AppProfile]) -> String? {
        var budget = 1_000
        var found: String?
        for pattern in patterns {
            pattern.matches(tokens, from: 0, budget: &budget) { match in
                guard match.end == tokens.count, let range = match.captures["app"] else { return }
                let said = PeerNames.fold(tokens[range].map(\.raw).joined())
                // An app's own name before another's other name, as the registry has it.
                found = found ?? (apps.first { PeerNames.fold($0.name) == said } ?? apps.first { $0.otherNames.map(PeerNames.fold).contains(said) })?.name
            }
        }
        return found
    }

    /// Drops a greeting that opens the request ("Good morning! Add milk to my list").
    func withoutGreeting(_ tokens: [Token]) -> [Token] {
        let words = tokens.map(\.word)
        guard let greeting = pack.greetings.first(where: { words.count > $0.count && words.starts(with: $0) }) else { return tokens }
        return Array(tokens.dropFirst(greeting.count))
    }

    /// Drops a closing "Thanks!" said as a sentence of its own, but not from words after
    /// a colon, which are given as they are to be passed on.
    func withoutClosingCourtesy(_ tokens: [Token]) -> [Token] {
        if tokens.contains(where: { $0.word == ":" }) { return tokens }
        var end = tokens.count
        while end > 0, pack.words.trailing.contains(tokens[end - 1].word) { end -= 1 }
        guard end < tokens.count, end > 0, let last = tokens[end - 1].typed.last, [".", "!", ",", ";"].contains(last) else { return tokens }
        var kept = Array(tokens[..<end])
        kept[end - 1].typed.removeLast()
        return kept
    }

}
