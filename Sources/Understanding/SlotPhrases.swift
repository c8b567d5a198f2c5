import IntentProtocol

/// The short phrases that give each parameter, cut out of an intent's patterns when the
/// language file is loaded: a slot with the words that introduce or close it ("from
/// {pickupLocation}", "{rating} stars", "(saying|that) {content}"). They read a request
/// no whole pattern matches, phrase by phrase, wherever each stands.
struct SlotPhrases: Sendable {
    /// The phrases, by intent and parameter.
    private let phrases: [String: [String: [Pattern]]]
    /// The words before which a value read for an intent ends: every word of its phrases,
    /// and the language's fillers and courtesies.
    private let ends: [String: Set<String>]
    /// The words of a parameter's own phrases, by intent and parameter.
    private let own: [String: [String: Set<String>]]

    /// Phrases from `patterns`; `weak` words (such as "to") alone do not make a phrase
    /// on one side of a value. Values end before `alsoEnding` words too, never before
    /// `determiners` ("the") or `numbers`, which values may hold.
    init(patterns: [String: [Pattern]], weak: Set<String>, alsoEnding: Set<String>, determiners: Set<String>, numbers: Set<String>) {
        var phrases: [String: [String: [Pattern]]] = [:]
        var ends: [String: Set<String>] = [:]
        var own: [String: [String: Set<String>]] = [:]
        for (intent, list) in patterns {
            var sources: [String: Set<String>] = [:]
            for pattern in list { Self.cut(pattern.elements, adds: pattern.adds, weak: weak, into: &sources) }
            var anchors = alsoEnding
            for (parameter, set) in sources {
                let compiled = set.sorted().compactMap { try? Pattern($0) }
                let words = Set(compiled.flatMap(\.words))
                phrases[intent, default: [:]][parameter] = compiled
                own[intent, default: [:]][parameter] = words.subtracting(determiners)
                anchors.formUnion(words)
            }
            ends[intent] = anchors.subtracting(determiners).subtracting(numbers)
        }
        self.phrases = phrases
        self.ends = ends
        self.own = own
    }

    /// The phrases for `parameter` of `intent`.
    func phrases(_ intent: String, _ parameter: String) -> [Pattern] { phrases[intent]?[parameter] ?? [] }

    /// The words that end a value read for `intent`.
    func ends(_ intent: String) -> Set<String> { ends[intent] ?? [] }

    /// The words of the phrases for `parameter` of `intent`, but determiners.
    func ownWords(_ intent: String, _ parameter: String) -> Set<String> { own[intent]?[parameter] ?? [] }

    /// Every slot of `sequence` (and of the choices in it) with the words that must be
    /// said nearest before and after it, and the optional words between.
    private static func cut(
        _ sequence: [Pattern.Element], adds: [String: Int], weak: Set<String>, into sources: inout [String: Set<String>]
    ) {
        for (index, element) in sequence.enumerated() {
            switch element {
            case .slot(let name) where !name.hasPrefix("_"):
                let before = Array(anchor(sequence[..<index].reversed()).reversed())
                let after = anchor(sequence[(index + 1)...])
                guard !before.isEmpty || !after.isEmpty else { continue }
                let slot = adds[name].map { "{\(name)+\($0)}" } ?? "{\(name)}"
                sources[name, default: []].insert((before + [slot] + after).joined(separator: " "))
                // Each side alone too ("4 bucks" as well as "tip 4 bucks"), if it says more
                // than little words such as "to".
                if !before.isEmpty, !after.isEmpty {
                    if !saysLittle(before, weak) { sources[name, default: []].insert((before + [slot]).joined(separator: " ")) }
                    if !saysLittle(after, weak) { sources[name, default: []].insert(([slot] + after).joined(separator: " ")) }
                }
            case .choice(let branches):
                for branch in branches { cut(branch, adds: adds, weak: weak, into: &sources) }
            default:
                continue
            }
        }
    }

    /// Whether the pattern source `run` has only `weak` words.
    private static func saysLittle(_ run: [String], _ weak: Set<String>) -> Bool {
        ((try? Pattern(run.joined(separator: " ")))?.words ?? []).allSatisfy(weak.contains)
    }

    /// The run of `elements` from the start up to and including the first words that
    /// must be said, written as pattern source; empty if other elements come first.
    private static func anchor(_ elements: some Sequence<Pattern.Element>) -> [String] {
        var run: [String] = []
        for element in elements {
            guard let (source, required) = literal(element) else { return [] }
            run.append(source)
            if required { return run }
        }
        return []
    }

    /// `element` written as pattern source if it is words, and whether they must be
    /// said: a word, or a choice of word runs (optional when one is empty).
    private static func literal(_ element: Pattern.Element) -> (String, Bool)? {
        switch element {
        case .word(let word):
            return (word, true)
        case .choice(let branches):
            var runs: [String] = []
            var optional = false
            for branch in branches {
                var words: [String] = []
                for part in branch {
                    guard case .word(let word) = part else { return nil }
                    words.append(word)
                }
                if words.isEmpty { optional = true } else { runs.append(words.joined(separator: " ")) }
            }
            guard !runs.isEmpty else { return nil }
            return optional ? ("[" + runs.joined(separator: "|") + "]", false) : ("(" + runs.joined(separator: "|") + ")", true)
        default:
            return nil
        }
    }
}
