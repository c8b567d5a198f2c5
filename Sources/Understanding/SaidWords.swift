/// Every pattern word a run of tokens can match: the words as typed, the words they are
/// typos of, and the words an app's name stands for. Patterns whose words are not all here
/// cannot match, and are not walked.
struct SaidWords {
    private let words: Set<String>

    /// The words `tokens` can match.
    init(_ tokens: some Sequence<Token>) {
        var words = Set<String>()
        for token in tokens {
            words.insert(token.word)
            if let alternate = token.alternate { words.insert(alternate) }
            if let standsFor = token.standsFor { words.formUnion(standsFor) }
        }
        self.words = words
    }

    /// Whether a token can match the pattern word `word`.
    func contains(_ word: String) -> Bool { words.contains(word) }
}
