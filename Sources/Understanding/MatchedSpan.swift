/// Where a pattern's best match lay in the request, kept with its reading so that the
/// words it left for the cues and the slot phrases are worked out only when asked for.
struct MatchedSpan: Sendable {
    /// The request's words, as the pattern was matched against them.
    let tokens: [Token]
    /// The words the match took.
    let span: Range<Int>
    /// How many of them were the pattern's own words.
    let patternWords: Int
    /// Whether the match ended its clause, so that what follows is a comment.
    let closesClause: Bool
    /// The words captured as free text (a message's content).
    let freeText: [Range<Int>]

    /// The words skipped before and after the match that are no comment: after the last
    /// comma before it, and after it unless it closed its clause. A match of slots alone
    /// ("MonkeyChat: {recipients} {content}") explains nothing, so then every word.
    var skipped: [Token] {
        if patternWords == 0 { return tokens }
        let opening = tokens[..<span.lowerBound].lastIndex(where: \.endsClause).map { $0 + 1 } ?? 0
        return Array(tokens[opening..<span.lowerBound]) + (closesClause ? [] : Array(tokens[span.upperBound...]))
    }

    /// The words outside free text; every word for a match of slots alone.
    var outsideFreeText: [Token] {
        if patternWords == 0 { return tokens }
        return tokens.indices.filter { i in !freeText.contains { $0.contains(i) } }.map { tokens[$0] }
    }

    /// The words before and after the match, comments too, as two clauses.
    var unmatched: [Token] {
        var before = Array(tokens[..<span.lowerBound])
        if let last = before.indices.last { before[last].endsClause = true }
        return before + Array(tokens[span.upperBound...])
    }
}
