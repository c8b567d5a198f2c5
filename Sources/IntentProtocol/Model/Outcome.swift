/// How an intent's lifecycle ended, as the host reports it to a client.
public struct Outcome: Sendable, Hashable, Codable {
    /// The four ways a lifecycle ends.
    public enum Kind: String, Sendable, Codable {
        /// Handled; the response says what happened.
        case success
        /// A parameter needs the user: a value, a choice, or a confirmation.
        case needsUserInput
        /// The host refused the intent by policy; it never reached the extension.
        case refused
        /// The extension reported a failure, or could not be reached in time.
        case failure
    }

    /// How it ended.
    public var outcome: Kind
    /// The response code name, the resolution kind that needs the user, or an `ErrorCode`.
    public var code: String
    /// The app, as registered.
    public var app: String
    /// The intent's name.
    public var intent: String
    /// The session this lifecycle ran in.
    public var sessionId: String
    /// Per parameter, in resolution order.
    public var resolutions: [ParameterResolution]
    /// The extension's final response, if it got that far.
    public var response: IntentResponse?
    /// One sentence for people.
    public var message: String
    /// The handle's idempotency key, once a handle was sent: retry with it after
    /// `outcomeUnknown` to learn what happened without doing it twice.
    public var idempotencyKey: String?
    /// The W3C `traceparent` every stage of the lifecycle carried (wire.md, section 5b).
    public var traceparent: String?

    /// Creates an outcome.
    public init(
        outcome: Kind, code: String, app: String, intent: String, sessionId: String,
        resolutions: [ParameterResolution] = [], response: IntentResponse? = nil, message: String
    ) {
        self.outcome = outcome
        self.code = code
        self.app = app
        self.intent = intent
        self.sessionId = sessionId
        self.resolutions = resolutions
        self.response = response
        self.message = message
    }
}
