/// One thing the user typed: the body of SAY. Without `sessionId` it starts a new
/// conversation; with one it answers that conversation's last question.
public struct Utterance: Sendable, Hashable, Codable {
    /// What the user typed.
    public var text: String
    /// The conversation this answers, as the host's last turn named it.
    public var sessionId: String?
    /// The language, such as "en"; the host's default when absent.
    public var language: String?
    /// For the utterance that starts a conversation: the idempotency key of the handle it
    /// leads to (wire.md, section 5a); the host makes one when absent.
    public var idempotencyKey: String?
    /// With `sessionId`: calls that conversation off, whatever its question, as saying
    /// "cancel" does in any language (`intentctl chat`'s Ctrl-C); `text` is not read.
    public var cancel: Bool?
    /// With `sessionId`: the user is typing the answer, so the question waits the session
    /// timeout again from now; `text` is not read, and the answer is the question asked.
    public var typing: Bool?

    /// Creates an utterance.
    public init(
        text: String, sessionId: String? = nil, language: String? = nil, idempotencyKey: String? = nil, cancel: Bool? = nil,
        typing: Bool? = nil
    ) {
        self.text = text
        self.sessionId = sessionId
        self.language = language
        self.idempotencyKey = idempotencyKey
        self.cancel = cancel
        self.typing = typing
    }
}

/// What the host says back: the RESULT body for SAY. Either a question (`expecting` is
/// set and the session waits for the answer) or the end (`end` is set).
public struct Turn: Sendable, Hashable, Codable {
    /// The conversation; answer with this id.
    public var sessionId: String
    /// The app the conversation is about, once known.
    public var app: String?
    /// The intent, once known.
    public var intent: String?
    /// What the host says.
    public var text: String
    /// What kind of answer the host waits for; nil when the conversation has ended.
    public var expecting: Expectation?
    /// The parameter being asked about.
    public var parameter: String?
    /// The choices, for `expecting == .choice`, in the order they were numbered.
    public var options: [String]?
    /// With `expecting`: how many seconds the host waits for the answer before it ends the
    /// conversation (`timedOut`, nothing done).
    public var answerWithinSeconds: Double?
    /// Set on the last turn: why the conversation ended.
    public var end: EndReason?
    /// The lifecycle's outcome, on the last turn of a conversation that reached an app.
    public var outcome: Outcome?

    /// Creates a turn.
    public init(
        sessionId: String, app: String? = nil, intent: String? = nil, text: String, expecting: Expectation? = nil,
        parameter: String? = nil, options: [String]? = nil, end: EndReason? = nil, outcome: Outcome? = nil
    ) {
        self.sessionId = sessionId
        self.app = app
        self.intent = intent
        self.text = text
        self.expecting = expecting
        self.parameter = parameter
        self.options = options
        self.end = end
        self.outcome = outcome
    }

    /// What the host waits for.
    public enum Expectation: String, Sendable, Codable {
        /// A value for `parameter`.
        case value
        /// One of `options`, by number or name.
        case choice
        /// Yes or no.
        case yesNo
        /// The user unlocking the device, then saying anything.
        case unlock
    }
}

/// Why a conversation ended.
public enum EndReason: String, Sendable, Codable {
    /// The request was carried out (or answered, for "What can you do?").
    case completed
    /// The user said cancel, or no to a confirmation.
    case cancelled
    /// The user did not answer within the session's deadline.
    case timedOut
    /// It could not be done: not understood, refused, or the app failed.
    case failed
}
