import Foundation

/// One word of a typed request: what was typed, and the folded form patterns compare.
public struct Token: Sendable, Hashable {
    /// The word as typed, without surrounding quotes or sentence punctuation.
    public var raw: String
    /// The word exactly as typed, punctuation included (but a colon of its own).
    public var typed: String
    /// Lower-cased, for comparing with pattern words.
    public var word: String
    /// Letters and digits only, for comparing names ("List-o-Mat" and "ListOMat" alike).
    public var folded: String
    /// The typed word ended a clause with a comma; lists split there.
    public var endsClause: Bool
    /// The pattern word this one is a small typo of, if any.
    public var alternate: String?
    /// For an app's name used as a noun ("is my Zippy here"), the pattern words it may
    /// stand for ("ride", "it"); a pattern may also leave it out.
    public var standsFor: Set<String>?

    /// Splits `text` into tokens. A colon becomes a token of its own; other punctuation
    /// around a word is dropped, apostrophes and hyphens inside it stay.
    public static func split(_ text: String) -> [Token] {
        let normalized = text.replacing("\u{2019}", with: "'").replacing("\u{2018}", with: "'")
        var tokens: [Token] = []
        for chunk in normalized.split(whereSeparator: \.isWhitespace) {
            // A dash standing alone introduces what follows, as a colon does: "Zippy - home".
            if chunk.allSatisfy(Self.dashes.contains) {
                if !tokens.isEmpty { tokens.append(Token(":", endsClause: false)) }
                continue
            }
            var body = Substring(chunk)
            var typed = body
            if typed.count > 1, typed.last == ":" { typed = typed.dropLast() }
            var colon = false
            var comma = false
            while let last = body.last, Self.edge.contains(last) {
                if last == ":" { colon = true }
                if last == "," || last == ";" { comma = true }
                body = body.dropLast()
            }
            while let first = body.first, Self.edge.contains(first) { body = body.dropFirst() }
            if !body.isEmpty {
                var token = Token(String(body), endsClause: comma)
                token.typed = String(typed)
                tokens.append(token)
            }
            if colon { tokens.append(Token(":", endsClause: false)) }
        }
        return tokens
    }

    /// A token for a word.
    public init(_ raw: String, endsClause: Bool = false) {
        self.raw = raw
        typed = raw
        word = raw.lowercased()
        folded = Self.fold(raw)
        self.endsClause = endsClause
    }

    /// Lower-case letters and digits only.
    public static func fold(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    private static let dashes: Set<Character> = ["-", "\u{2013}", "\u{2014}"]
    private static let edge: Set<Character> = [".", ",", "!", "?", ";", ":", "\"", "'", "\u{201C}", "\u{201D}", "(", ")", "[", "]"]
}

extension [Token] {
    /// The words as typed, joined by spaces.
    var text: String { map(\.raw).joined(separator: " ") }
    /// The lower-cased words, joined by spaces.
    var words: String { map(\.word).joined(separator: " ") }
}
