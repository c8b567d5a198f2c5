import Foundation

/// An app's own vocabulary, the same for every user: the terms it uses for parameter values
/// and the example phrases the assistant shows for "What can you do?". Read from the
/// extension's `AppIntentVocabulary.plist` and sent in REGISTER.
public struct AppVocabulary: Sendable, Hashable, Codable {
    /// Terms for parameter values, such as ride option names.
    public var parameterVocabularies: [ParameterVocabulary]
    /// Example phrases per intent.
    public var intentPhrases: [IntentPhrases]

    /// Creates a vocabulary.
    public init(parameterVocabularies: [ParameterVocabulary] = [], intentPhrases: [IntentPhrases] = []) {
        self.parameterVocabularies = parameterVocabularies
        self.intentPhrases = intentPhrases
    }

    /// Terms for some parameters (`RequestRide.rideOptionName`).
    public struct ParameterVocabulary: Sendable, Hashable, Codable {
        /// `Intent.parameter` names, SiriKit class names normalised.
        public var parameterNames: [String]
        /// The terms.
        public var items: [Item]
    }

    /// One term: the app's identifier and the ways a user may say it.
    public struct Item: Sendable, Hashable, Codable {
        /// The app's own identifier for the term.
        public var identifier: String
        /// Phrases, with optional pronunciations and examples.
        public var synonyms: [Synonym]
    }

    /// One way to say a term.
    public struct Synonym: Sendable, Hashable, Codable {
        /// The phrase.
        public var phrase: String
        /// How it sounds, if not as written.
        public var pronunciation: String?
        /// Sentences that use it.
        public var examples: [String]
    }

    /// Example phrases for one intent.
    public struct IntentPhrases: Sendable, Hashable, Codable {
        /// The intent, by catalog name.
        public var intent: String
        /// What a user might say.
        public var examples: [String]
    }

    /// Reads an `AppIntentVocabulary.plist`.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ManifestError("cannot read the vocabulary at \(url.path): \(describeFileError(error))")
        }
        try self.init(data: data, source: url.lastPathComponent)
    }

    /// Parses an `AppIntentVocabulary.plist` from property-list data.
    public init(data: Data, source: String = "vocabulary") throws {
        let root = try PropertyList.root(of: data, source: source)
        parameterVocabularies = (root["ParameterVocabularies"]?.dictionaries ?? []).map { entry in
            ParameterVocabulary(
                parameterNames: (entry["ParameterNames"]?.strings ?? []).map(Self.parameterName),
                items: (entry["ParameterVocabulary"]?.dictionaries ?? []).compactMap { item in
                    guard let id = item["VocabularyItemIdentifier"]?.string else { return nil }
                    let synonyms = (item["VocabularyItemSynonyms"]?.dictionaries ?? []).compactMap { s -> Synonym? in
                        guard let phrase = s["VocabularyItemPhrase"]?.string else { return nil }
                        return Synonym(
                            phrase: phrase, pronunciation: s["VocabularyItemPronunciation"]?.string,
                            examples: s["VocabularyItemExamples"]?.strings ?? [])
                    }
                    return Item(identifier: id, synonyms: synonyms)
                })
        }
        intentPhrases = (root["IntentPhrases"]?.dictionaries ?? []).compactMap { entry in
            guard let name = entry["IntentName"]?.string else { return nil }
            return IntentPhrases(intent: Catalog.canonicalIntentName(name), examples: entry["IntentExamples"]?.strings ?? [])
        }
    }

    /// `INRequestRideIntent.rideOptionName` becomes `RequestRide.rideOptionName`.
    static func parameterName(_ name: String) -> String {
        guard let dot = name.firstIndex(of: ".") else { return name }
        return Catalog.canonicalIntentName(String(name[..<dot])) + name[dot...]
    }
}

/// User-specific vocabulary: for each type (`contactName`, `workoutName`, ...) an ordered
/// set of terms, most important first, always replaced whole.
public struct UserVocabulary: Sendable, Hashable, Codable {
    /// The type, such as `contactName`.
    public var type: String
    /// The terms, most important first; empty removes the type.
    public var terms: [String]

    /// Creates a replacement.
    public init(type: String, terms: [String]) {
        self.type = type
        var seen = Set<String>()
        self.terms = terms.filter { seen.insert($0).inserted }
    }

    /// Reads a replacement as the host applies it: repeated terms dropped, the first kept;
    /// a type that is not a name (`problem(withType:)`) or more than `maximumTerms` different
    /// terms refused (nothing is applied then).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(type: try c.decode(String.self, forKey: .type), terms: try c.decode([String].self, forKey: .terms))
        if let problem = Self.problem(withType: type) {
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "\(problem), so nothing was changed")
        }
        guard terms.count <= Self.maximumTerms else {
            throw DecodingError.dataCorruptedError(
                forKey: .terms, in: c,
                debugDescription: "\(terms.count) different terms; a type holds at most \(Self.maximumTerms), so nothing was changed")
        }
    }

    /// The most terms one type may hold.
    public static let maximumTerms = 10_000
    /// The most types one app's user vocabulary may hold.
    public static let maximumTypes = 32
    /// The longest type name.
    public static let maximumTypeLength = 64

    /// Why `type` cannot name a vocabulary type, or nil: it is 1 to 64 ASCII letters and
    /// digits, a letter first (`contactName`), as it becomes a map key and a log line.
    public static func problem(withType type: String) -> String? {
        func isLetter(_ b: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b | 0x20) }
        let bytes = type.utf8
        guard (1...maximumTypeLength).contains(bytes.count), let first = bytes.first, isLetter(first),
            bytes.allSatisfy({ isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else {
            return "the vocabulary type \"\(PeerNames.loggable(type))\" is not 1 to \(maximumTypeLength) letters and digits, a letter first (such as contactName)"
        }
        return nil
    }
}
