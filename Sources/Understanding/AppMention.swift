/// Where a request names an app, and the request without that mention.
struct AppMention {
    /// The app's own name.
    var app: String
    /// The tokens with the name and its connecting words ("on", "open the ... app and")
    /// taken out.
    var remaining: [Token]
    /// The name came first, used as a verb: "MonkeyChat Bobo send more bananas".
    var isVerb: Bool
    /// When the name may be a noun of the sentence ("is my Zippy here", "what does Zippy
    /// offer", "Zippy status"): the tokens with the name left in as a stand-in for what the
    /// app deals in.
    var asNoun: [Token]?
    /// The app was not named, but a phrase of its vocabulary was said ("a Zippy Van").
    var byVocabulary = false

    /// The first mention of any app's name, alternative name or pronunciation: longest
    /// names first, never inside a phrase of an app's vocabulary ("Zippy Van"); failing
    /// that, the name typed in pieces ("list o mat") or with a small typo ("MonkyChat").
    static func find(in tokens: [Token], apps: [AppProfile], pack: LanguagePack) -> AppMention? {
        var names: [(words: [String], app: String)] = []
        var phrases: [(words: [String], app: String)] = []
        for app in apps {
            for name in [app.name] + app.otherNames {
                let words = Token.split(name).map(\.folded).filter { !$0.isEmpty }
                if !words.isEmpty { names.append((words, app.name)) }
                // "List-o-Mat" said as one word: "listomat".
                if words.count > 1 { names.append(([words.joined()], app.name)) }
            }
            for entry in app.vocabulary?.parameterVocabularies ?? [] {
                for item in entry.items {
                    for synonym in item.synonyms {
                        let words = Token.split(synonym.phrase).map(\.folded)
                        if words.count > 1 { phrases.append((words, app.name)) }
                    }
                }
            }
        }
        names.sort { $0.words.count > $1.words.count }
        let folded = tokens.map(\.folded)
        let known = pack.commonWords
        var protected = Set<Int>()
        var phraseOf: String?
        for phrase in phrases where phrase.words.count <= folded.count {
            for start in 0...(folded.count - phrase.words.count) where Array(folded[start..<(start + phrase.words.count)]) == phrase.words {
                protected.formUnion(start..<(start + phrase.words.count))
                // Only a phrase with a word of its own names its app: an app cannot claim
                // "a message" and so every request to send one.
                if phrase.words.contains(where: { !known.contains($0) }) { phraseOf = phraseOf ?? phrase.app }
            }
        }
        for start in folded.indices where !protected.contains(start) {
            for name in names where start + name.words.count <= folded.count {
                let span = start..<(start + name.words.count)
                guard Array(folded[span]) == name.words, protected.isDisjoint(with: span) else { continue }
                return cut(tokens, span, app: name.app, pack: pack)
            }
        }
        for start in folded.indices where !protected.contains(start) && !known.contains(tokens[start].word) {
            for length in stride(from: min(3, folded.count - start), through: 1, by: -1) {
                let span = start..<(start + length)
                guard protected.isDisjoint(with: span) else { continue }
                let said = folded[span].joined()
                if let name = names.first(where: { Spelling.close(said, $0.words.joined()) }) {
                    return cut(tokens, span, app: name.app, pack: pack)
                }
            }
        }
        // A phrase of one app's vocabulary names that app: "a Zippy Van to the airport".
        if let app = phraseOf { return AppMention(app: app, remaining: tokens, isVerb: false, asNoun: nil, byVocabulary: true) }
        return nil
    }

    /// Removes the name with the words that tie it into the sentence.
    private static func cut(_ tokens: [Token], _ span: Range<Int>, app: String, pack: LanguagePack) -> AppMention {
        var lower = span.lowerBound
        var opened = false
        var tied = false
        let determiners = pack.words.appDeterminers ?? []
        while lower > 0, pack.words.appBefore.contains(tokens[lower - 1].word), span.lowerBound - lower < 3 {
            let word = tokens[lower - 1].word
            let opener = pack.words.appOpeners.contains(word)
            // "what is still open in List-o-Mat": a verb before "in" is no part of the mention.
            if opener, tied { break }
            lower -= 1
            if opener { opened = true }
            if !opener, !determiners.contains(word) { tied = true }
        }
        if lower == span.lowerBound, lower > 0, pack.words.appSource?.contains(tokens[lower - 1].word) == true { lower -= 1 }
        var upper = span.upperBound
        let before = tokens[..<lower]
        let isVerb = lower == span.lowerBound && before.allSatisfy { pack.words.fillers.contains($0.word) }
        while upper < tokens.count, pack.words.appAfter.contains(tokens[upper].word) || (tokens[upper].word == ":" && isVerb) {
            let word = tokens[upper].word
            if (word == "to" || word == "and") && !opened { break }
            upper += 1
        }
        var kept = Array(before)
        // "…home on Zippy, it's raining": the comma still ends the clause.
        if let last = kept.indices.last, tokens[upper - 1].endsClause, upper < tokens.count {
            kept[last].endsClause = true
            kept[last].endsSentence = tokens[upper - 1].endsSentence
        }
        var remaining = kept + Array(tokens[upper...])
        if isVerb { remaining = Array(tokens[upper...]) }
        var asNoun: [Token]?
        // The name first is also a noun: "Zippy status".
        let determined = span.lowerBound > 0 && determiners.contains(tokens[span.lowerBound - 1].word)
        if let standsFor = pack.words.appStandsFor, isVerb || determined || lower == span.lowerBound {
            var name = Token(tokens[span].map(\.raw).joined(separator: " "), endsClause: tokens[span.upperBound - 1].endsClause)
            name.standsFor = standsFor
            asNoun = Array(tokens[..<span.lowerBound]) + [name] + Array(tokens[span.upperBound...])
        }
        return AppMention(app: app, remaining: remaining, isVerb: isVerb, asNoun: asNoun)
    }
}
