import IntentExtensionKit

/// Matches what the user said against the titles the app knows, as the seed article
/// does (exact: success; one partial: confirm; several: choose; none: unsupported), and
/// better: a misspelled or sound-alike title ("grosery") still finds "Grocery Store".
struct TitleMatcher {
    /// How a title matched.
    enum Match: Equatable {
        case exact(String)
        case one(String)
        case several([String])
        case none
    }

    /// The most candidates offered to choose from.
    static let maximumChoices = 10
    /// The words of a title and of what was said that are matched.
    static let maximumWords = 32
    /// The longest word a misspelling is looked for in.
    static let maximumWordLength = 64

    /// Matches `said` against `titles`, the closest first.
    static func match(_ said: String, in titles: [String]) -> Match {
        let query = normalize(said)
        guard !query.isEmpty else { return .none }
        if let exact = titles.first(where: { normalize($0) == query }) { return .exact(exact) }
        let scored = titles.compactMap { title in score(query, normalize(title)).map { (title, $0) } }
            .sorted { $0.1 > $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
            .map(\.0)
        switch scored.count {
        case 0: return .none
        case 1: return .one(scored[0])
        default: return .several(Array(scored.prefix(maximumChoices)))
        }
    }

    /// Whether `said` is one of `titles` but for case, punctuation and an article: what
    /// `match` calls exact.
    static func isTitle(_ said: String, among titles: [String]) -> Bool {
        let query = normalize(said)
        return !query.isEmpty && titles.contains { normalize($0) == query }
    }

    /// Whether `said` is one of the notes' `titles`, said with or without "note" after it
    /// ("the wifi note").
    static func isNoteTitle(_ said: String, among titles: [String]) -> Bool {
        var words = said.split(separator: " ")
        if let last = words.last, ["note", "notes"].contains(last.lowercased()), words.count > 1 { words.removeLast() }
        return isTitle(words.joined(separator: " "), among: titles)
    }

    /// How well `query` matches `title` (higher is closer), or `nil` for no match: every
    /// word of the query must match some word of the title exactly, as a prefix, within a
    /// small edit distance, or by sound.
    static func score(_ query: String, _ title: String) -> Double? {
        // A request may send any text: the first words of each are plenty to match on, and
        // keep the work bounded.
        // Words are cut a letter past the longest one looked at, which is not looked at then.
        func words(_ text: String) -> [String] {
            text.split(separator: " ").prefix(maximumWords).map { String($0.prefix(maximumWordLength + 1)) }
        }
        let titleWords = words(title)
        var total = 0.0
        for word in words(query) {
            let best = titleWords.map { wordScore(word, $0) }.max() ?? 0
            guard best > 0 else { return nil }
            total += best
        }
        // Prefer titles with fewer words left unmatched.
        return total - 0.01 * Double(titleWords.count)
    }

    static func wordScore(_ said: String, _ word: String) -> Double {
        if said == word { return 1 }
        if word.hasPrefix(said) && said.count >= 3 { return 0.9 }
        let allowed = SpellingDistance.allowed(inWordOf: word.count)
        // Lengths further apart than the distance allowed cannot match (and a word of any
        // length costs a table of its length squared).
        if abs(said.count - word.count) <= allowed, word.count <= maximumWordLength {
            let distance = SpellingDistance.between(said, word)
            if distance <= allowed { return 0.8 - 0.1 * Double(distance) }
        }
        if said.count >= 3, said.count <= maximumWordLength, soundex(said) == soundex(word) { return 0.6 }
        return 0
    }

    /// The titles among `titles` that `name` names, most exactly first: the same text, else
    /// the same but for case, else the same letters and digits (never none of them: "?"
    /// names no emoji-only title).
    static func named(_ name: String, among titles: [String]) -> [String] {
        let exact = titles.filter { $0 == name }
        if !exact.isEmpty { return exact }
        let caseless = titles.filter { $0.lowercased() == name.lowercased() }
        if !caseless.isEmpty { return caseless }
        let key = normalize(name)
        return key.isEmpty ? [] : titles.filter { normalize($0) == key }
    }

    /// Lower case, letters and digits, single spaces, without an article before other
    /// words: "the lantern", "a lantern" and "Lantern" are one title, and so are "Food &
    /// Drinks" and "food and drinks".
    static func normalize(_ text: String) -> String {
        // The article is a word of its own as typed ("A/C filter" keeps its "a"); "&" is "and".
        var typed = text.lowercased().replacingOccurrences(of: "&", with: " and ").split(whereSeparator: \.isWhitespace)
        if typed.count > 1, articles.contains(String(typed[0])) { typed.removeFirst() }
        return String(typed.joined(separator: " ").map { $0.isLetter || $0.isNumber ? $0 : " " }).split(separator: " ").joined(separator: " ")
    }

    private static let articles: Set<String> = ["a", "an", "the"]

    /// American Soundex: words that sound alike share a code ("grosery", "grocery": G626).
    static func soundex(_ word: String) -> String {
        let letters = Array(word.uppercased().filter { $0.isASCII && $0.isLetter })
        guard let first = letters.first else { return "" }
        func code(_ c: Character) -> Character? {
            switch c {
            case "B", "F", "P", "V": "1"
            case "C", "G", "J", "K", "Q", "S", "X", "Z": "2"
            case "D", "T": "3"
            case "L": "4"
            case "M", "N": "5"
            case "R": "6"
            default: nil
            }
        }
        var result = String(first)
        var last = code(first)
        for c in letters.dropFirst() {
            let current = code(c)
            if let current, current != last { result.append(current) }
            if c != "H" && c != "W" { last = current }
            if result.count == 4 { break }
        }
        return result.padding(toLength: 4, withPad: "0", startingAt: 0)
    }
}
