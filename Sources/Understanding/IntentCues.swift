import Foundation

/// Which intents a word points to, learnt from the language file when it is loaded: every
/// word of an intent's patterns (and of the language's `cues` for it) is a cue for that
/// intent, weighted by how few intents use it ("cancel", "tip" and "flag" say much;
/// "my" and "to" say nothing). It decides between readings, never alone: a pattern
/// reading that had to skip a strong cue of another intent yields to that intent.
struct IntentCues: Sendable {
    /// The weight of each word, by intent.
    private let weights: [String: [String: Double]]
    /// Intents a word is a strong cue for: used by at most `strongSpread` intents.
    private let strong: [String: Set<String>]

    /// A word used by this many intents or fewer is a strong cue for each of them.
    static let strongSpread = 2

    /// Cues from `patterns` (by intent) and `extra` words (by intent); words in
    /// `ignoring` (fillers, "a", "the") are never cues.
    init(patterns: [String: [Pattern]], extra: [String: [String]], ignoring: Set<String>) {
        var users: [String: Set<String>] = [:]
        for (intent, list) in patterns {
            for word in list.flatMap(\.words) where !ignoring.contains(word) && word.allSatisfy(\.isLetter) {
                users[word, default: []].insert(intent)
            }
        }
        for (intent, words) in extra {
            for word in words { users[word.lowercased(), default: []].insert(intent) }
        }
        let count = Double(max(Set(patterns.keys).union(extra.keys).count, 1))
        var weights: [String: [String: Double]] = [:]
        var strong: [String: Set<String>] = [:]
        for (word, intents) in users {
            let weight = log(count / Double(intents.count))
            for intent in intents { weights[word, default: [:]][intent] = weight }
            if intents.count <= Self.strongSpread { strong[word] = intents }
        }
        self.weights = weights
        self.strong = strong
    }

    /// How strongly `tokens` point to `intent`: the weights of its cue words said, each
    /// counted once.
    func score(_ intent: String, _ tokens: some Sequence<Token>) -> Double {
        var seen = Set<String>()
        var total = 0.0
        for token in tokens {
            guard let word = cueWord(token), seen.insert(word).inserted else { continue }
            total += weights[word]?[intent] ?? 0
        }
        return total
    }

    /// Whether `token` is a cue word for `intent`.
    func isCue(_ token: Token, for intent: String) -> Bool {
        cueWord(token).flatMap { weights[$0]?[intent] } != nil
    }

    /// The intents that `token` is a strong cue for.
    func strongIntents(_ token: Token) -> Set<String> {
        cueWord(token).flatMap { strong[$0] } ?? []
    }

    /// The one intent of `offered` that `tokens` point to most, if one has a strong cue
    /// among them and no other scores as high.
    func best(_ tokens: [Token], among offered: [String]) -> String? {
        let cued = Set(tokens.flatMap(strongIntents)).intersection(offered)
        let ranked = cued.map { ($0, score($0, tokens)) }.sorted { $0.1 > $1.1 }
        guard let first = ranked.first else { return nil }
        if ranked.count > 1, ranked[1].1 >= first.1 { return nil }
        return first.0
    }

    /// The pattern word a token counts as: as typed, or the word it is a typo of.
    private func cueWord(_ token: Token) -> String? {
        if weights[token.word] != nil { return token.word }
        if let alternate = token.alternate, weights[alternate] != nil { return alternate }
        return nil
    }
}
