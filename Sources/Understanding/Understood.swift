import IntentProtocol

/// What a typed request asks for.
public enum Understood: Sendable, Hashable {
    /// "What can you do?", about every app or one.
    case capabilities(app: String?)
    /// "Allow Zippy": the user lets an app work with the assistant.
    case allow(app: String)
    /// "Cancel", with nothing to cancel.
    case cancel
    /// An intent, with the parameters said.
    case request(UnderstoodRequest)
    /// The app was named but does not do what was asked.
    case appCannotDo(app: String, intent: String)
    /// A greeting and nothing more ("hi there"): nothing to do yet.
    case greeting
    /// Thanks or a goodbye ("thanks, that's all"): nothing to do.
    case closing
    /// Something not to do ("don't tell Kiki anything"): nothing to do.
    case declined
    /// Nothing matched.
    case notUnderstood
    /// More words than a request is read in (`RequestReader.maximumWords`): not read.
    case tooLong
}

/// An intent understood from typed text.
public struct UnderstoodRequest: Sendable, Hashable {
    /// The intent's catalog name.
    public var intent: String
    /// The app the user named, if any.
    public var namedApp: String?
    /// The apps that can do it: the named app, or every registered app serving the intent.
    public var apps: [String]
    /// The parameters said, in the catalog's JSON forms (coerce them before use).
    public var parameters: [String: JSONValue]
    /// The pattern that matched, for explaining decisions.
    public var pattern: String
    /// The free-text parameter holding a question passed on that is sent only after a yes:
    /// kept as said, since it could not be asked directly for sure ("ask Mojo if he can pick
    /// up her kids"), or asked for in the reader's words ("Can I have the wifi password?").
    public var questionKeptAsSaid: String?
    /// Values of other intents' parameters said in passing: "how much would a Zippy Van be?"
    /// asks the ride options (which take no kind of ride) and says `RequestRide.rideOptionName`.
    public var mentioned: [IntentParameterName: JSONValue] = [:]

    /// The pattern of a request read by its parameters' phrases alone, no pattern of its
    /// intent having matched (`phrases of SendMessage`).
    static let phrasesPattern = "phrases of "

    /// Whether no pattern of the intent matched and the request was read by its parameters'
    /// phrases alone: a guess at what free text it holds.
    public var isReadByPhrases: Bool { pattern.hasPrefix(Self.phrasesPattern) }

    /// Creates a request.
    public init(intent: String, namedApp: String?, apps: [String], parameters: [String: JSONValue], pattern: String) {
        self.intent = intent
        self.namedApp = namedApp
        self.apps = apps
        self.parameters = parameters
        self.pattern = pattern
    }
}
