/// Small typos: a word is close to a known one when it sounds the same once doubled
/// letters and common spellings are folded ("Zippie", "Zipy" and "Zippy"), or when one
/// letter is missing, extra, wrong or swapped in a longer word ("Craete", "MonkyChat").
enum Spelling {
    /// A known word and its `key`, worked out once.
    struct Keyed: Sendable {
        let word: String
        let key: String
    }

    /// `words` by their first letter, in order, with their keys.
    static func byFirstLetter(_ words: [String]) -> [Character: [Keyed]] {
        var grouped: [Character: [Keyed]] = [:]
        for word in words {
            guard let first = word.first else { continue }
            grouped[first, default: []].append(Keyed(word: word, key: key(word)))
        }
        return grouped
    }

    /// Whether `said` (folded) may be a typo of `known` (folded).
    static func close(_ said: String, _ known: String, minimumLength: Int = 5) -> Bool {
        if said == known { return true }
        guard let first = said.first, first == known.first else { return false }
        return close(said, key(said), known, key(known), minimumLength: minimumLength)
    }

    /// `close`, for words whose keys are known already.
    static func close(_ said: String, _ a: String, _ known: String, _ b: String, minimumLength: Int = 5) -> Bool {
        if said == known { return true }
        guard let first = said.first, first == known.first else { return false }
        if a == b { return true }
        // Two neighbouring letters swapped keep every letter: safe in shorter words ("makr").
        if said.count == known.count, said.count >= 4, swapped(Array(said), Array(known)) { return true }
        guard min(said.count, known.count) >= minimumLength else { return false }
        return distance(Array(said), Array(known), limit: 1) <= 1 || distance(Array(a), Array(b), limit: 1) <= 1
    }

    /// Whether `a` is `b` with one pair of neighbouring letters swapped.
    static func swapped(_ a: [Character], _ b: [Character]) -> Bool {
        guard a.count == b.count, let i = a.indices.first(where: { a[$0] != b[$0] }), i + 1 < a.count else { return false }
        return a[i] == b[i + 1] && a[i + 1] == b[i] && a[(i + 2)...] == b[(i + 2)...]
    }

    /// The word as it sounds: "y" and "ie" as "i", "ck" as "k", doubled letters once.
    static func key(_ word: String) -> String {
        // Character by character, left to right, as a search and replace would: "ie" to "i"
        // and "ck" to "k" first, then "y" to "i"; a replaced pair is not read again.
        var folded: [Character] = []
        folded.reserveCapacity(word.utf8.count)
        var pairable = false
        for character in word {
            if pairable, let last = folded.last, (last == "i" && character == "e") || (last == "c" && character == "k") {
                folded[folded.count - 1] = character == "e" ? "i" : "k"
                pairable = false
                continue
            }
            folded.append(character)
            pairable = true
        }
        var out = ""
        for character in folded.lazy.map({ $0 == "y" ? "i" : $0 }) where character != out.last { out.append(character) }
        return out
    }

    /// Edits (insert, delete, replace, swap of neighbours) between `a` and `b`, or
    /// `limit + 1` once it is certain to be more than `limit`.
    static func distance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            var best = current[0]
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
                best = min(best, current[j])
            }
            if best > limit { return limit + 1 }
            (before, previous, current) = (previous, current, before)
        }
        return a.isEmpty ? b.count : b.isEmpty ? a.count : previous[b.count]
    }
}
