import Foundation
import IntentProtocol

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
    /// The typed word ended a sentence ("… using MonkeyChat. Message: …"); no list runs over it.
    public var endsSentence = false
    /// The pattern word this one is a small typo of, if any.
    public var alternate: String?
    /// A colon typed against the word before it ("Coco: hi"), which its text keeps there.
    public var attached = false
    /// For an app's name used as a noun ("is my Zippy here"), the pattern words it may
    /// stand for ("ride", "it"); a pattern may also leave it out.
    public var standsFor: Set<String>?

    /// Splits `text` into tokens. A colon becomes a token of its own; other punctuation
    /// around a word is dropped, apostrophes and hyphens inside it stay.
    public static func split(_ text: String) -> [Token] {
        // Curly apostrophes (UTF-8 E2 80 98 and 99) as straight ones; most text has none.
        let normalized = text.utf8.contains(0xE2) ? text.replacing("\u{2019}", with: "'").replacing("\u{2018}", with: "'") : text
        var tokens: [Token] = []
        // Words that ended a sentence ("…using MonkeyChat. Message: …"), if the next starts one.
        var sentenceEnds: [Int] = []
        for chunk in chunks(of: normalized) {
            // A dash standing alone introduces what follows, as a colon does: "Zippy - home".
            if chunk.allSatisfy(isDash) {
                var dash = Token(":", endsClause: false)
                dash.typed = String(chunk)
                if !tokens.isEmpty { tokens.append(dash) }
                continue
            }
            var body = Substring(chunk)
            var typed = body
            if typed.count > 1, typed.last == ":" { typed = typed.dropLast() }
            var colon = false
            var comma = false
            var stop = false
            while let last = body.last, isEdge(last) {
                if last == ":" { colon = true }
                if last == "," || last == ";" { comma = true }
                if last == "." || last == "?" || last == "!" { stop = true }
                body = body.dropLast()
            }
            while let first = body.first, isEdge(first) { body = body.dropFirst() }
            if !body.isEmpty {
                var token = Token(String(body), endsClause: comma)
                token.typed = String(typed)
                // "Jr." and "Mr." end no sentence.
                if stop, !colon, !comma, body.count >= 4 || typed.last != "." { sentenceEnds.append(tokens.count) }
                tokens.append(token)
            }
            if colon {
                var token = Token(":", endsClause: false)
                token.attached = !body.isEmpty
                tokens.append(token)
            }
        }
        for index in sentenceEnds where index + 1 < tokens.count && tokens[index + 1].raw.first?.isUppercase == true {
            tokens[index].endsClause = true
            tokens[index].endsSentence = true
        }
        return tokens
    }

    /// A token for a word.
    public init(_ raw: String, endsClause: Bool = false) {
        self.raw = raw
        typed = raw
        word = raw.lowercased()
        folded = PeerNames.fold(raw)
        self.endsClause = endsClause
    }

    /// The runs of `text` between white space. Most text is ASCII, where every character
    /// is a byte and white space is tab to carriage return or a space: those are split by
    /// byte, without finding each character's bounds.
    private static func chunks(of text: String) -> [Substring] {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.split(whereSeparator: \.isWhitespace) }
        var chunks: [Substring] = []
        var start: String.Index?
        var index = text.utf8.startIndex
        while index != text.utf8.endIndex {
            let byte = text.utf8[index]
            if byte == UInt8(ascii: " ") || (9...13).contains(byte) {
                if let from = start { chunks.append(text[from..<index]) }
                start = nil
            } else if start == nil {
                start = index
            }
            index = text.utf8.index(after: index)
        }
        if let from = start { chunks.append(text[from...]) }
        return chunks
    }

    /// Punctuation dropped around a word: ASCII by a table, the rest as characters compare,
    /// by canonical equivalence (a Greek question mark, U+037E, is a ";").
    private static func isEdge(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return edges.contains(character) }
        return asciiEdges[Int(ascii)]
    }

    private static let edges: Set<Character> = [".", ",", "!", "?", ";", ":", "\"", "'", "\u{201C}", "\u{201D}", "(", ")", "[", "]"]
    /// `edges` by ASCII code, looked up without hashing.
    private static let asciiEdges: [Bool] = (0..<128).map { edges.contains(Character(Unicode.Scalar(UInt8($0)))) }

    /// A hyphen or a dash.
    private static func isDash(_ character: Character) -> Bool {
        character == "-" || character == "\u{2013}" || character == "\u{2014}"
    }
}

extension Collection<Token> {
    /// The words exactly as typed, joined by spaces (a colon typed against a word kept
    /// against it): free text as the user wrote it.
    public var typedText: String {
        var text = ""
        for token in self {
            if !text.isEmpty, !token.attached { text += " " }
            text += token.typed
        }
        return text
    }
}

extension [Token] {
    /// The words as typed, joined by spaces.
    var text: String { map(\.raw).joined(separator: " ") }
    /// The lower-cased words, joined by spaces.
    var words: String { map(\.word).joined(separator: " ") }
}
