import Foundation
import IntentProtocol

/// Everything the host says or understands in one language, read from
/// `Protocols/languages/LANG.json`. The engine holds no words of its own.
public struct LanguagePack: Sendable {
    /// The language code, such as "en".
    public let language: String
    let words: Words
    /// Words that name each enum value, by value.
    let values: [String: [String]]
    /// Request patterns, by intent name.
    let intents: [String: [Pattern]]
    /// Patterns tried when a request starts with the app's name used as a verb.
    let appVerbForms: [String: [Pattern]]
    /// Patterns tried only when the words point back at what the app just showed ("mark it
    /// as done" after a list of one task), the value they point at left to what was shown.
    let pointedIntents: [String: [Pattern]]
    /// Patterns tried only right after the user asked an app for that intent, for a
    /// request that only says what to ask instead ("and to union square?" after the prices
    /// of a ride), the rest taken from what was asked before.
    let followUps: [String: [Pattern]]
    /// Sentence templates; see `Phrasebook`.
    let prompts: [String: [String]]
    let summaries: [String: [String]]
    let results: [String: [String]]
    /// An example request per intent, `{app}` for the app's name.
    let examples: [String: String]
    let say: [String: String]
    /// Why a value cannot be used, by reason name: `{value}` as said, `{name}` as it names
    /// something (see `Phrasebook.reason`).
    let unsupportedReasons: [String: String]
    /// Questions for a `confirmationRequired` with a reason, by reason (`{value}` filled in).
    let confirmationReasons: [String: String]
    let responseCodes: [String: String]
    let capabilitiesOfApp: [Pattern]
    /// Requests that let an app work with the assistant ("allow {app}"), each with `{app}`.
    let allowingApp: [Pattern]
    /// Phrases that give a parameter wherever they stand in a request ("for three
    /// people"), by parameter name; tried for every intent with that parameter.
    let modifiers: [String: [Pattern]]
    /// Date and time words.
    let dates: DateWords
    /// The words a date expression can start with (`DateWords.startingWords`).
    let dateStarts: Set<String>?
    /// The phrases of `dates.spans`, each in words, read once.
    let spanPhrases: [SpanPhrase]
    /// The words patterns are made of (five letters or more), which typed words are
    /// compared with for typos.
    let patternWords: [String]
    /// The shorter words patterns are made of (two to four letters), which a typed word
    /// matches when it sounds the same ("ad" for "add").
    let shortPatternWords: [String]
    /// Every word of every pattern.
    let allPatternWords: Set<String>
    /// The one-word values the language knows beside the apps' (`words.otherValues`: "lyft"),
    /// which are no typos of a pattern's word ("lift").
    let otherValueWords: Set<String>
    /// `patternWords` and `shortPatternWords` by first letter, with how they sound, for
    /// finding typos.
    let typoTargets: [Character: [Spelling.Keyed]]
    let shortTypoTargets: [Character: [Spelling.Keyed]]
    /// The longer pattern words and the fillers: words that are no app's own.
    let commonWords: Set<String>
    /// Which intents each word points to.
    let cues: IntentCues
    /// The phrases that give each parameter, cut out of the patterns.
    let slotPhrases: SlotPhrases
    /// `words.contentLeads`, each split into its words.
    let contentLeads: [[String]]
    /// `words.greetings`, each split into its words, the longest first.
    let greetings: [[String]]
    /// `words.closing` and `words.leaving` (none without `closing`), each split into its
    /// words, the longest first.
    let closings: [[String]]
    /// `words.leaving`, each split into its words.
    let leavings: [[String]]
    /// `words.wholeItems`, each split into its words, the longest first.
    let wholeItems: [[String]]
    /// `words.negations`, each split into its words, the longest first.
    let negations: [[String]]
    /// `words.hesitations`, each split into its words, the longest first.
    let hesitations: [[String]]
    /// The articles a searched term is read without: the little words that are no value
    /// and may stand before an app's name ("the", "a").
    let articles: Set<String>

    struct Words: Sendable, Decodable {
        var fillers: Set<String>
        var trailing: Set<String>
        /// Words that on their own never make a value ("a", "the").
        var notValues: Set<String>
        var yes: [String]
        var no: [String]
        /// Words that point back at what was just shown ("them", "those").
        var pointing: Set<String>?
        /// Verbs that point back at what was just shown as `pointing` words do ("reply"),
        /// but not inside a value ("remind me to reply" is a task called "reply").
        var pointingVerbs: Set<String>?
        /// Words said with pointing words that leave them pointing ("that one", "both of them").
        var pointingAlso: Set<String>?
        /// Words after which a pointing word points at nothing shown but joins a clause ("a
        /// note that says …").
        var pointingNotBefore: Set<String>?
        /// Words that point at more than one of what was shown ("them all", "both", "everything").
        var pointingSeveral: Set<String>?
        /// Words of the past tense, which make a search's days the ones gone ("what was due
        /// on friday" is last Friday's).
        var pastTense: Set<String>?
        var cancel: [String]
        /// Greetings that open a request and add nothing to it ("hi there, what can you
        /// do?"); one-word ones ("hi") are `fillers`.
        var greetings: [String]?
        /// Words that greet ("hi", "hello", "morning"): said with nothing but greetings,
        /// fillers and courtesies, a greeting is answered with one.
        var hello: Set<String>?
        /// Phrases that only thank or take leave ("thanks", "that's all", "bye"): said with
        /// nothing but yes, no and courtesy words around them ("ok thanks, bye"), no request.
        var closing: [String]?
        /// Closing phrases that take leave ("bye", "good night"), answered as such.
        var leaving: [String]?
        /// Answers that ask what was meant instead of answering ("what?", "huh", "come again").
        var unsure: [String]?
        /// Words that open a correction of what was asked ("actually", "wait", "I meant").
        var corrections: [String]?
        /// Phrases that open free text by correcting a name ("I mean Kiki to …").
        var nameCorrections: [String]?
        /// Words that, opening a clause inside free text, change what the text said before
        /// ("…, actually to Coco", "no wait, Kiki: …"): the text is asked about before use.
        var changesOfMind: [String]?
        /// Free text that only points back at something said before ("the same", "that"):
        /// no value, so that it is asked for rather than sent as said.
        var sameAsBefore: Set<String>?
        /// Requests to show the last answer again ("read it to me", "say that again").
        var sayAgain: Set<String>?
        /// Requests to undo what was just done ("undo that"): no app can, so the host says
        /// what to ask for instead.
        var undo: Set<String>?
        /// Words that open an answer offered as a suggestion ("how about", "what about"):
        /// where a place is asked for, what follows is the place, not a question.
        var suggesting: [String]?
        /// Words after which a name follows ("called", "named"): a day right after one is
        /// part of the name ("a list called friday dinner").
        var naming: Set<String>?
        /// Words that, last in an answer that opens with an article, stand for what was
        /// asked about ("the groceries one" is groceries).
        var thatOne: Set<String>?
        /// Words after a person that say what they are told to do ("Coco to bring chairs").
        var toldTo: Set<String>?
        /// Words a parameter's value never ends with, by parameter: "note" ends no list's
        /// name ("add to the trip plan note: …" appends to a note).
        var notLast: [String: Set<String>]?
        /// Words that, first, say what not to do ("don't", "never"): such a request asks for
        /// nothing, unless a word of `negationUnless` follows ("don't forget to call Mom").
        var negations: [String]?
        var negationUnless: Set<String>?
        /// Words that, after a yes, hold it back ("ok wait", "sure, but how much?",
        /// "yes, let me think"): such an answer is no yes yet.
        var hesitations: [String]?
        /// Words that never change a request when said to confirm it ("not a van"): a
        /// reading by the asking app's phrases alone is not taken with them in it.
        var notChanges: Set<String>?
        /// Values that alone are none, by parameter: "text coco back" says nothing yet.
        var notAlone: [String: Set<String>]?
        /// Words a parameter's value never starts with, by parameter: a message's content
        /// starts after "to" ("reply to her saying …").
        var notFirst: [String: Set<String>]?
        var capabilities: [String]
        var capabilitiesOfApp: [String]
        var allowingApp: [String]?
        var listSeparators: Set<String>
        /// Items with a list word inside that are one item ("mac and cheese"): a list is not
        /// split inside them.
        var wholeItems: [String]?
        var appBefore: Set<String>
        /// Words that tie an app's name in only right before it ("a van from Zippy").
        var appSource: Set<String>?
        var appAfter: Set<String>
        var appOpeners: Set<String>
        var personFillers: Set<String>
        /// Words that never start or end a person's name, even capitalised ("I'm", "we").
        var notNames: Set<String>?
        /// Short forms of words in names, with the word ("mr": "mister", "lil": "little").
        var nameForms: [String: String]?
        var locationFillers: Set<String>
        var numbers: [String: Int]
        /// Words that pick an option by place: its number, -1 for the last, -2 for the middle
        /// one (of an odd number), 0 for words said around them ("the", "one").
        var ordinals: [String: Int]
        var places: [String: String]
        /// Words a place's name never contains ("for", "now"): a place captured with
        /// them ran past its end.
        var locationStops: Set<String>?
        /// Words that, before a street ("on 9th street"), are part of a place for all
        /// `locationStops` says: `introducers` ("on") and the `words` a street is named with.
        var streets: Streets?
        /// Parameters whose words may run over a comma (a message's content); others
        /// end at a clause, and what follows is a comment the request can do without.
        var clauseSlots: Set<String>?
        /// Words that lead into free text and are no part of it ("letting them know").
        var contentLeads: [String]?
        /// Values people say for a parameter whose values an app names (kinds of ride: "a
        /// limo", "an SUV"), read as said even when no app names them, so that the app
        /// answers which it has instead of the words going to another request.
        var otherValues: [String: [String]]?
        /// What is searched for, as `parameter` or `Intent.parameter`: read without a
        /// leading article ("about the wedding" searches "wedding").
        var searchSlots: Set<String>?
        /// Words before an app's name that leave it a noun of the sentence ("my Zippy").
        var appDeterminers: Set<String>?
        /// The pattern words an app's name used as a noun may stand for ("ride", "it").
        var appStandsFor: Set<String>?
        /// Words that start a comment after the request ("so", "because").
        var commentStarters: Set<String>?
        /// Words that open a comment when they start a clause after a comma ("…, I'm in a
        /// meeting"): a list takes no such clause as one of its items.
        var commentOpeners: Set<String>?
        /// Shorthand and spellings without apostrophes, with the word patterns use
        /// ("txt": "text", "u": "you", "dont": "don't").
        var shorthand: [String: String]?
        /// Other forms of pattern words, read as the pattern word ("sending": "send").
        var wordForms: [String: String]?
        /// How a question passed on is asked directly ("ask Kiki if she can bring
        /// plates": "Can you bring plates?").
        var askedQuestion: AskedQuestion?
        var and: String
        var or: String
    }

    struct Streets: Sendable, Decodable {
        var introducers: Set<String>
        var words: Set<String>
    }

    private struct File: Decodable {
        var language: String
        var words: Words
        var values: [String: [String]]
        var intents: [String: [String]]
        var appVerbForms: [String: [String]]?
        var pointedIntents: [String: [String]]?
        var followUps: [String: [String]]?
        var prompts: [String: [String]]?
        var summaries: [String: [String]]?
        var results: [String: [String]]?
        var examples: [String: String]?
        var say: [String: String]
        var unsupportedReasons: [String: String]?
        var confirmationReasons: [String: String]?
        var responseCodes: [String: String]?
        var modifiers: [String: [String]]?
        /// Words that point to an intent besides its patterns' words, by intent.
        var cues: [String: [String]]?
        var dates: DateWords
    }

    /// Reads and compiles a language file.
    public init(contentsOf url: URL) throws {
        try self.init(data: try Data(contentsOf: url), source: url.lastPathComponent)
    }

    /// Compiles a language file's JSON; `source` names it in errors.
    public init(data: Data, source: String = "language file") throws {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch let error as DecodingError {
            throw LanguageError("\(source): \(error)")
        }
        func compile(_ table: [String: [String]]) throws(LanguageError) -> [String: [Pattern]] {
            var compiled: [String: [Pattern]] = [:]
            for (intent, sources) in table {
                compiled[intent] = try sources.map { source throws(LanguageError) in try Pattern(source) }
            }
            return compiled
        }
        let templates = [file.prompts, file.summaries, file.results].compactMap { $0 }.flatMap { $0.values.joined() }
            + [file.say, file.unsupportedReasons, file.confirmationReasons, file.responseCodes, file.examples].compactMap { $0 }.flatMap(\.values)
        for template in templates {
            if let problem = Phrasebook.problem(in: template) { throw LanguageError("\(source): \(problem)") }
        }
        language = file.language
        words = file.words
        values = file.values
        intents = try compile(file.intents)
        appVerbForms = try compile(file.appVerbForms ?? [:])
        pointedIntents = try compile(file.pointedIntents ?? [:])
        followUps = try compile(file.followUps ?? [:])
        prompts = file.prompts ?? [:]
        summaries = file.summaries ?? [:]
        results = file.results ?? [:]
        examples = file.examples ?? [:]
        say = file.say
        unsupportedReasons = file.unsupportedReasons ?? [:]
        confirmationReasons = file.confirmationReasons ?? [:]
        responseCodes = file.responseCodes ?? [:]
        capabilitiesOfApp = try file.words.capabilitiesOfApp.map { source throws(LanguageError) in try Pattern(source) }
        allowingApp = try (file.words.allowingApp ?? []).map { source throws(LanguageError) in try Pattern(source) }
        modifiers = try compile(file.modifiers ?? [:])
        dates = file.dates
        dateStarts = file.dates.startingWords(numbers: file.words.numbers)
        spanPhrases = SpanPhrase.all(file.dates.spans)
        let all: [Pattern] = Array(intents.values.joined()) + Array(appVerbForms.values.joined()) + Array(pointedIntents.values.joined())
            + Array(followUps.values.joined())
        allPatternWords = Set(all.flatMap { $0.words })
        otherValueWords = Set((file.words.otherValues ?? [:]).values.joined().filter { !$0.contains(" ") })
        patternWords = allPatternWords.filter { $0.count >= 5 && $0.allSatisfy(\.isLetter) }.sorted()
        shortPatternWords = allPatternWords.filter { (2...4).contains($0.count) && $0.allSatisfy(\.isLetter) }.sorted()
        typoTargets = Spelling.byFirstLetter(patternWords)
        shortTypoTargets = Spelling.byFirstLetter(shortPatternWords)
        commonWords = Set(patternWords).union(file.words.fillers)
        let everyPattern = intents.merging(appVerbForms) { $0 + $1 }
        let little = file.words.fillers.union(file.words.notValues).union(file.words.trailing)
        cues = IntentCues(patterns: everyPattern, extra: file.cues ?? [:], ignoring: little)
        contentLeads = (file.words.contentLeads ?? []).map { $0.split(separator: " ").map(String.init) }
        greetings = Self.phrases(file.words.greetings)
        closings = file.words.closing.map { Self.phrases($0 + (file.words.leaving ?? [])) } ?? []
        leavings = Self.phrases(file.words.leaving)
        wholeItems = Self.phrases(file.words.wholeItems)
        negations = Self.phrases(file.words.negations)
        hesitations = Self.phrases(file.words.hesitations)
        articles = file.words.notValues.intersection(file.words.appDeterminers ?? [])
        slotPhrases = SlotPhrases(
            patterns: everyPattern, weak: little, alsoEnding: file.words.fillers.union(file.words.trailing),
            determiners: file.words.appDeterminers ?? [], numbers: Set(file.words.numbers.keys))
    }

    /// `phrases`, each split into its words, the longest first (in order among those of a
    /// length).
    private static func phrases(_ phrases: [String]?) -> [[String]] {
        let split = (phrases ?? []).map { $0.split(separator: " ").map(String.init) }
        return split.enumerated().sorted { ($0.element.count, $1.offset) > ($1.element.count, $0.offset) }.map(\.element)
    }

    /// Every language file in `directory`, by language code, each with what the files
    /// `additions` of its language add (see `LanguageAddition`).
    public static func all(in directory: URL, adding additions: [URL] = []) throws -> [String: LanguagePack] {
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        var packs: [String: LanguagePack] = [:]
        guard !additions.isEmpty else {
            for file in files {
                let pack = try LanguagePack(contentsOf: file)
                packs[pack.language] = pack
            }
            return packs
        }
        for merged in try LanguageAddition.merged(files, with: additions, from: directory) {
            packs[merged.language] = try LanguagePack(data: merged.data, source: merged.source)
        }
        return packs
    }

    /// Finds `Protocols/languages`: `INTENTD_LANGUAGES_DIR`, then beside the catalog
    /// directory, then up from the executable, then the installed share folder.
    public static func locate(besideCatalog catalog: URL?) -> URL? {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["INTENTD_LANGUAGES_DIR"] { return URL(fileURLWithPath: env) }
        if let catalog {
            let sibling = catalog.deletingLastPathComponent().appendingPathComponent("languages")
            if fm.fileExists(atPath: sibling.path) { return sibling }
        }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("Protocols/languages")
            if fm.fileExists(atPath: candidate.path) { return candidate }
            dir.deleteLastPathComponent()
        }
        for installed in ["/usr/local/share/intentd/languages", "/usr/share/intentd/languages"] where fm.fileExists(atPath: installed) {
            return URL(fileURLWithPath: installed)
        }
        return nil
    }
}

extension LanguagePack {
    /// Whether `words` (lower-cased) only point back at what was shown ("it", "them all",
    /// "both of them"), naming nothing themselves; "all" alone is a pattern's word for every list.
    public func onlyPoints(_ words: some Collection<String>) -> Bool {
        let pointing = self.words.pointing ?? []
        let several = self.words.pointingSeveral ?? []
        let also = self.words.pointingAlso ?? []
        return words.contains(where: pointing.contains) && words.allSatisfy { pointing.contains($0) || several.contains($0) || also.contains($0) }
    }

    /// Whether `words` (lower-cased) point at more than one thing ("them all", "both").
    public func pointsAtSeveral(_ words: some Collection<String>) -> Bool {
        let several = self.words.pointingSeveral ?? []
        return words.contains(where: several.contains)
    }

    /// The lower-cased words without leading fillers and trailing politeness: what is
    /// compared with the cancel, yes, no and capability phrases.
    func essentialWords(_ tokens: ArraySlice<Token>) -> String {
        var rest = tokens
        while let last = rest.last, words.trailing.contains(last.word) || last.word == ":" { rest = rest.dropLast() }
        while rest.count > 1, let first = rest.first, words.fillers.contains(first.word) { rest = rest.dropFirst() }
        return rest.map(\.word).joined(separator: " ")
    }

    /// Whether `tokens` only greet ("hi", "hello there!", "good morning"): a `words.hello`
    /// word or a `words.greetings` phrase, and besides them only fillers and courtesies.
    func isGreeting(_ tokens: ArraySlice<Token>) -> Bool {
        guard let hello = words.hello else { return false }
        return said(tokens, phrases: greetings, orWords: hello) { words.fillers.contains($0) || words.trailing.contains($0) }
    }

    /// Whether `value`, read for the parameter `name`, is words that alone are none
    /// (`words.notAlone`: "too" for what a message says, as in "send kiki a message too").
    func saysNothing(_ value: JSONValue, for name: String) -> Bool {
        value.stringValue.map { saysNothing(Token.split($0)[...], for: name) } ?? false
    }

    /// Whether `tokens`, said for the parameter `name`, are words that alone are none
    /// ("back" for what a message says, "my list" for a list).
    func saysNothing(_ tokens: ArraySlice<Token>, for name: String) -> Bool {
        words.notAlone?[name]?.contains(tokens.map(\.word).joined(separator: " ")) == true
    }

    /// Whether `tokens` only thank or take leave: at least one `words.closing` or
    /// `words.leaving` phrase (the longest that fits), and besides them only one-word yes or
    /// no answers and courtesies ("ok thanks", "no that's all, thank you").
    func isClosing(_ tokens: ArraySlice<Token>) -> Bool {
        said(tokens, phrases: closings, orWords: []) { words.yes.contains($0) || words.no.contains($0) || words.trailing.contains($0) }
    }

    /// Whether `tokens` say one of `phrases` (the longest first) or of `single` at least
    /// once, and besides them only words `besides` allows.
    private func said(_ tokens: ArraySlice<Token>, phrases: [[String]], orWords single: Set<String>, besides: (String) -> Bool) -> Bool {
        var rest = tokens
        var found = false
        while let first = rest.first {
            let start = rest.prefix(phrases.first?.count ?? 0).map(\.word)
            if let phrase = phrases.first(where: { start.starts(with: $0) }) {
                rest = rest.dropFirst(phrase.count)
                found = true
            } else if single.contains(first.word) {
                rest = rest.dropFirst()
                found = true
            } else if besides(first.word) {
                rest = rest.dropFirst()
            } else {
                return false
            }
        }
        return found
    }
}

extension LanguagePack {
    /// Reads shorthand and other forms of a pattern word as that word ("txt" as "text",
    /// "sending" as "send"), and marks typed words
    /// that are a small typo of a pattern word ("craete", "snoze") with that word, so
    /// patterns still match them (for a little less).
    func markTypos(_ tokens: [Token]) -> [Token] {
        tokens.map { token in
            var token = token
            if let full = words.shorthand?[token.word] ?? words.wordForms?[token.word] {
                token.word = full
                return token
            }
            let word = token.word
            guard word.count >= 2, let first = word.first, word.allSatisfy(\.isLetter), !allPatternWords.contains(word),
                !words.fillers.contains(word), !words.notValues.contains(word), !otherValueWords.contains(word)
            else { return token }
            let key = Spelling.key(word)
            if word.count >= 4 {
                token.alternate = typoTargets[first]?.first { Spelling.close(word, key, $0.word, $0.key) }?.word
            }
            if token.alternate == nil {
                token.alternate = shortTypoTargets[first]?.first { $0.key == key }?.word
                    ?? (word.count == 4 ? shortPatternWords.first { Spelling.swapped(Array(word), Array($0)) } : nil)
            }
            return token
        }
    }
}

/// A language file that cannot be used.
public struct LanguageError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
