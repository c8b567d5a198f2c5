import IntentProtocol

extension RequestReader {
    /// The reading by cues, when it should replace the patterns' reading `found`: no
    /// pattern matched, or the match had to skip a word that is a strong cue for another
    /// intent that the request points to more ("cancel my Zippy to the airport" is no
    /// ride request). The cued intent must be the one the words point to most of every
    /// intent, and on offer; its parameters are read phrase by phrase.
    /// With `evenIfExplained`, the cues decide even when the match skipped none of them.
    /// `appNamed` says the user named an app (not only one of its vocabulary's words).
    func cueReading(
        _ found: Candidate?, _ tokens: [Token], offered: [String], apps: [AppProfile], appNamed: Bool, evenIfExplained: Bool = false
    ) -> Candidate? {
        let cues = pack.cues
        // The intent on offer the words point to most, unless one not on offer ("Zippy,
        // send a message to Coco") has more for it.
        let elsewhere = catalog.intentNames.filter { !offered.contains($0) }
        guard let cued = cues.best(tokens, among: offered),
            elsewhere.allSatisfy({ cues.score($0, tokens) <= cues.score(cued, tokens) })
        else { return nil }
        if let found {
            // The words that must be read otherwise: those skipped, or with `evenIfExplained`
            // all but free text ("text Kiki my Zippy is here" is a message).
            let unexplained = evenIfExplained ? found.outsideFreeText : found.skipped
            guard cued != found.intent,
                unexplained.contains(where: { cues.strongIntents($0).contains(cued) }),
                cues.score(cued, tokens) > cues.score(found.intent, tokens)
            else { return nil }
        }
        // Alone, the cues name an intent only beside the app's name ("scrap the Zippy"), with
        // a value to act on, when it needs none ("how far away is it"), or when every other
        // word is a little one ("snooze", "scrap that"): "weekend chores" (a list's name)
        // points to SetTaskAttribute by "chores" alone, and "cancel lunch" is no ride.
        guard let read = phraseReading(cued, tokens, apps: apps, DatedWords(tokens, self, apps: apps)) else { return nil }
        if found != nil || appNamed || !read.parameters.isEmpty { return read }
        let little = pack.words.fillers.union(pack.words.notValues)
        // Words of the cues' clauses that are neither cues nor little words say what else
        // is asked: one may be a word of the request ("sure, but how much is it"), two are
        // something no app here does ("set a timer for 10 minutes" is no ride's status).
        var other = 0
        var clause: [Token] = []
        for (index, token) in tokens.enumerated() {
            clause.append(token)
            guard token.endsClause || index == tokens.count - 1 else { continue }
            if clause.contains(where: { cues.isCue($0, for: cued) }) {
                other += clause.count { !cues.isCue($0, for: cued) && !little.contains($0.word) }
            }
            clause.removeAll()
        }
        // (A typo is no cue alone: "socks and a charger" asks no prices.)
        if other <= 1, catalog.intent(cued)?.parameters.allSatisfy({ $0.required != true }) == true,
            tokens.contains(where: { $0.alternate == nil && cues.isCue($0, for: cued) })
        {
            return read
        }
        return other == 0 ? read : nil
    }

    /// `intentName` with each parameter read by the phrases that give it, wherever they
    /// stand ("from home", "to the ferry building", "3 stars"), the phrase with the most
    /// words first; an enum's value also by its words alone ("flagged"). A value ends at
    /// the end of its clause or before a word of the intent's phrases; free text (a
    /// message) runs to the end. Each word gives at most one parameter.
    /// `dated` is `said` with its date found, once for every intent read.
    func phraseReading(_ intentName: String, _ said: [Token], apps: [AppProfile], _ dated: DatedWords) -> Candidate? {
        guard let intent = catalog.intent(intentName) else { return nil }
        let reader = dated.reader
        let (tokens, given, _) = modifiers(said, intent, reader, apps, date: dated.date, saidWords: dated.words)
        var parameters = given
        var used = Set<Int>()
        var open = intent.parameters.filter { parameters[$0.name] == nil }
        // Each parameter's best phrase, kept while the words taken since leave it free: the
        // walk that finds phrases (and its budget) does not depend on the words taken, which
        // only take phrases away, and the best (the first with the most words) of what is
        // left is still the best. A kept nil means none, not "not looked for yet".
        var best: [String: PhraseFound?] = [:]
        while true {
            let found = open.compactMap { parameter in
                let kept = best[parameter.name] ?? phrase(for: parameter, of: intentName, in: tokens, avoiding: used, dated.words, reader, apps)
                best[parameter.name] = kept
                return kept.map { (parameter, $0) }
            }
            guard let (parameter, taken) = found.max(by: { $0.1.words < $1.1.words }) else { break }
            // "send kiki a message too": "too" alone is no message, nor any other value.
            if pack.saysNothing(taken.value, for: parameter.name) {
                used.formUnion(taken.span)
                best = best.filter { $0.value?.span.overlaps(taken.span) != true }
                best[parameter.name] = .some(nil)
                continue
            }
            parameters[parameter.name] = taken.value
            used.formUnion(taken.span)
            open.removeAll { $0.name == parameter.name }
            for (name, kept) in best where kept?.span.overlaps(taken.span) == true { best.removeValue(forKey: name) }
        }
        for parameter in open where parameter.type == .enum {
            let free = tokens.indices.filter { !used.contains($0) }
            if let (value, index) = free.lazy.compactMap({ i in reader.read(tokens[i...i], for: parameter, intent: intentName, apps: apps).map { ($0, i) } }).first {
                parameters[parameter.name] = value
                used.insert(index)
            }
        }
        return Candidate(intent: intentName, parameters: parameters, score: 0, pattern: UnderstoodRequest.phrasesPattern + intentName)
    }

    /// The intent of the app named whose phrases read the most parameters out of the
    /// request, when neither its patterns nor the cues decide ("hey Zippy, take me from
    /// the park to the pier"); on a tie, `preferred`, then the one the words point to most.
    func slotReading(_ tokens: [Token], offered: [String], apps: [AppProfile], preferring preferred: String? = nil) -> Candidate? {
        var best: (read: Candidate, rank: (Int, Int, Double))?
        let dated = DatedWords(tokens, self, apps: apps)
        for intent in offered {
            guard let read = phraseReading(intent, tokens, apps: apps, dated), !read.parameters.isEmpty else { continue }
            let rank = (read.parameters.count, intent == preferred ? 1 : 0, pack.cues.score(intent, tokens))
            if let best, best.rank >= rank { continue }
            best = (read, rank)
        }
        return best?.read
    }

    /// `found` with the parameters its match left out read by their phrases from the words
    /// it skipped ("pull up message 77"), and numbers also from a comment ("rating five
    /// stars, tip $12.50"): a number's phrase says what it is.
    func completed(_ found: Candidate, apps: [AppProfile]) -> Candidate {
        guard !found.unmatched.isEmpty, let intent = catalog.intent(found.intent) else { return found }
        let reader = ValueReader(pack: pack, clock: clock)
        var found = found
        var used: [Bool: Set<Int>] = [:]
        let freeText = pack.words.clauseSlots ?? []
        for parameter in intent.parameters where found.parameters[parameter.name] == nil && !freeText.contains(parameter.name) {
            let number = [.number, .integer].contains(parameter.type)
            let words = number ? found.unmatched : found.skipped
            guard let best = phrase(for: parameter, of: found.intent, in: words, avoiding: used[number] ?? [], SaidWords(words), reader, apps)
            else { continue }
            found.parameters[parameter.name] = best.value
            used[number, default: []].formUnion(best.span)
        }
        return found
    }

    /// A phrase found for a parameter: its words, the value's length, where the value is, and the value.
    typealias PhraseFound = (words: Int, length: Int, span: Range<Int>, value: JSONValue)

    /// The best phrase giving `parameter` in `tokens` outside `used`: the most phrase
    /// words, then the fewest value words. `saidWords` holds (at least) what `tokens` can match.
    private func phrase(
        for parameter: ParameterDefinition, of intentName: String, in tokens: [Token], avoiding used: Set<Int>,
        _ saidWords: SaidWords, _ reader: ValueReader, _ apps: [AppProfile]
    ) -> PhraseFound? {
        let words = pack.words
        let ends = pack.slotPhrases.ends(intentName)
        let freeText = words.clauseSlots?.contains(parameter.name) ?? false
        // A value also ends before the words of another parameter's value ("3, 4 and 5 read").
        let otherValues = (catalog.intent(intentName)?.parameters ?? []).filter { $0.name != parameter.name && $0.type == .enum }
            .flatMap { ($0.values ?? []).flatMap { [$0.lowercased()] + (pack.values[$0] ?? []) } }
            .filter { !$0.contains(" ") }
        let stops = (parameter.isList ? ends.subtracting(words.listSeparators) : ends).union(otherValues)
        let own = pack.slotPhrases.ownWords(intentName, parameter.name)
        var best: PhraseFound?
        for phrase in pack.slotPhrases.phrases(intentName, parameter.name) where phrase.mayMatch(saidWords) {
            var budget = 5_000
            for start in tokens.indices where phrase.canStart(at: tokens[start]) {
                phrase.matches(tokens, from: start, budget: &budget) { match in
                    guard let range = match.captures[parameter.name], used.isDisjoint(with: range) else { return }
                    let runsOn = match.end == range.upperBound && range.upperBound < tokens.count
                    if freeText {
                        if runsOn { return }
                    } else {
                        let captured = tokens[range]
                        guard parameter.isList || !captured.dropLast().contains(where: \.endsClause),
                            !captured.contains(where: { stops.contains($0.word) })
                        else { return }
                        if runsOn, !tokens[range.upperBound - 1].endsClause, !stops.contains(tokens[range.upperBound].word) { return }
                    }
                    guard let value = match.adjusted(
                        reader.read(match.captured(parameter.name, range, in: tokens), for: parameter, intent: intentName, apps: apps),
                        for: parameter.name)
                    else { return }
                    // A word of this parameter's phrases right beside the value counts too
                    // ("a $7.50 tip" is a tip).
                    let before = range.lowerBound > match.start || range.lowerBound == 0 ? 0 : (own.contains(tokens[range.lowerBound - 1].word) ? 1 : 0)
                    let after = range.upperBound < match.end || range.upperBound == tokens.count ? 0 : (own.contains(tokens[range.upperBound].word) ? 1 : 0)
                    let score = match.words + before + after
                    if let best, best.words > score || (best.words == score && best.length <= range.count) { return }
                    best = (score, range.count, range, value)
                }
            }
        }
        return best
    }
}
