import IntentProtocol

/// What understanding knows of one registered app: the names the user may call it,
/// the intents it serves and its vocabulary.
public struct AppProfile: Sendable, Hashable {
    /// The app's own name, as registered.
    public var name: String
    /// Alternative names and their pronunciation hints.
    public var otherNames: [String]
    /// The intents it supports.
    public var intents: [String] {
        didSet { items = Self.items(of: vocabulary, for: intents) }
    }
    /// Its AppIntentVocabulary, if it sent one.
    public var vocabulary: AppVocabulary? {
        didSet { items = Self.items(of: vocabulary, for: intents) }
    }
    /// Its vocabulary's items by intent and parameter, for the intents it serves: looked up
    /// at every value read.
    private var items: [String: [String: [AppVocabulary.Item]]]
    /// The user vocabulary it set, by type (`contactName`, ...), most important first.
    public var userVocabulary: [String: [String]] {
        didSet {
            contacts = Self.contacts(in: userVocabulary)
            titles = Self.titles(in: userVocabulary)
        }
    }
    /// The contact names it taught, folded once here instead of at every word read.
    private(set) var contacts: [KnownName]
    /// The other terms it taught, folded, by type (its lists' and notes' titles under
    /// `notebookItemTitle`): for the parameters that name their `vocabulary` type.
    private(set) var titles: [String: Set<String>]

    /// Creates a profile.
    public init(
        name: String, otherNames: [String] = [], intents: [String], vocabulary: AppVocabulary? = nil,
        userVocabulary: [String: [String]] = [:]
    ) {
        self.name = name
        self.otherNames = otherNames
        self.intents = intents
        self.vocabulary = vocabulary
        self.userVocabulary = userVocabulary
        contacts = Self.contacts(in: userVocabulary)
        titles = Self.titles(in: userVocabulary)
        items = Self.items(of: vocabulary, for: intents)
    }

    private static func contacts(in vocabulary: [String: [String]]) -> [KnownName] {
        vocabulary["contactName", default: []].map(KnownName.init)
    }

    private static func titles(in vocabulary: [String: [String]]) -> [String: Set<String>] {
        vocabulary.filter { $0.key != "contactName" }.mapValues { Set($0.map(PeerNames.fold)) }
    }

    /// A profile from an extension's registration and user vocabulary.
    public init(_ registration: Registration, userVocabulary: [String: [String]] = [:]) {
        self.init(
            name: registration.appName,
            otherNames: registration.otherNames,
            intents: registration.intentsSupported.map(Catalog.canonicalIntentName),
            vocabulary: registration.vocabulary, userVocabulary: userVocabulary)
    }

    /// The vocabulary items for `intent.parameter`: none unless the app serves `intent`, so
    /// that no app's vocabulary changes how another app's request is read.
    func items(for intent: String, _ parameter: String) -> [AppVocabulary.Item] {
        items[intent]?[parameter] ?? []
    }

    private static func items(of vocabulary: AppVocabulary?, for intents: [String]) -> [String: [String: [AppVocabulary.Item]]] {
        var items: [String: [String: [AppVocabulary.Item]]] = [:]
        for entry in vocabulary?.parameterVocabularies ?? [] {
            for name in Set(entry.parameterNames) {
                guard let key = IntentParameterName(name), intents.contains(key.intent) else { continue }
                items[key.intent, default: [:]][key.parameter, default: []] += entry.items
            }
        }
        return items
    }
}

extension [AppProfile] {
    /// Whether `tokens` open with a contact's name the apps taught (`contactName`), in up to
    /// three words ("kiki i'm late", "bobo jr to bring chips").
    public func contactOpens(_ tokens: some Collection<Token>) -> Bool {
        !contactWords(in: tokens).isEmpty
    }

    /// How many of the first words of `tokens` (up to three) are a contact's name the apps
    /// taught: each count that is one ("bobo jr" is 1, Bobo, and 2, Bobo Jr.).
    public func contactWords(in tokens: some Collection<Token>) -> [Int] {
        let contacts = Set(flatMap(\.contacts).map(\.folded))
        let words = tokens.prefix(3).map(\.folded)
        return words.indices.filter { contacts.contains(words[...$0].joined()) }.map { $0 + 1 }
    }
}

/// A name an app taught, with the forms reading compares: folded whole, and word by word.
struct KnownName: Sendable, Hashable {
    /// The name as the app taught it.
    let name: String
    /// Letters and digits only (`PeerNames.fold`).
    let folded: String
    /// Each word's letters and digits.
    let words: [String]

    init(_ name: String) {
        self.name = name
        folded = PeerNames.fold(name)
        words = Token.split(name).map(\.folded)
    }
}
