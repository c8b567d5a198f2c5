/// The body of VOCAB: change an app's user vocabulary, or only read it.
public struct VocabularyRequest: Sendable, Hashable, Codable {
    /// Replace one type's terms (an empty list removes the type).
    public var set: UserVocabulary?
    /// Remove every type, as when the user resets the app.
    public var reset: Bool?

    /// Creates a request; with neither member it only reads.
    public init(set: UserVocabulary? = nil, reset: Bool? = nil) {
        self.set = set
        self.reset = reset
    }
}

/// The answer to VOCAB: an app's vocabulary as the host holds it now.
public struct VocabularyState: Sendable, Hashable, Codable {
    /// The app.
    public var app: String
    /// The user's terms by type, most important first.
    public var user: [String: [String]]
    /// The app's own vocabulary from its registration; `intentd` always sends it, empty
    /// lists for an app that has none.
    public var appVocabulary: AppVocabulary?

    /// Creates the answer.
    public init(app: String, user: [String: [String]], appVocabulary: AppVocabulary?) {
        self.app = app
        self.user = user
        self.appVocabulary = appVocabulary
    }
}
