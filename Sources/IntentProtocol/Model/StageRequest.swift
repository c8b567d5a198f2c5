/// The body of a REQUEST: what the extension needs to run one stage.
public struct StageRequest: Sendable, Hashable, Codable {
    /// The conversation this request belongs to.
    public var sessionId: String
    /// The user's language, such as `en`.
    public var language: String
    /// The intent's name, such as `SendMessage`.
    public var intent: String
    /// The parameter values so far, resolved values replacing the user's.
    public var parameters: [String: JSONValue]
    /// For resolve: the parameter to resolve.
    public var parameter: String?
    /// For resolve: whether the catalog marks that parameter as required.
    public var required: Bool?
    /// For handle: the key that names this piece of work across retries.
    public var idempotencyKey: String?
    /// When the host stops waiting, in milliseconds since 1970 (UTC); the host adds it to
    /// every REQUEST it sends.
    public var deadline: Int64?
    /// Several stages in one request, for extensions that declared `batched` stages.
    public var batch: StageBatch?

    /// Creates a request body.
    public init(
        sessionId: String, language: String, intent: String, parameters: [String: JSONValue],
        parameter: String? = nil, required: Bool? = nil, idempotencyKey: String? = nil, batch: StageBatch? = nil
    ) {
        self.sessionId = sessionId
        self.language = language
        self.intent = intent
        self.parameters = parameters
        self.parameter = parameter
        self.required = required
        self.idempotencyKey = idempotencyKey
        self.batch = batch
    }
}

/// The body of a SUBMIT: an intent's parameters, as the user or a program gave them.
public struct Submission: Sendable, Hashable, Codable {
    /// Parameter values; strings are converted to the catalog's types by the host.
    public var parameters: [String: JSONValue]
    /// The user's language; `en` when absent.
    public var language: String?
    /// A session id to continue; the host makes one when absent.
    public var sessionId: String?
    /// For intents that need the user's confirmation before handle: the user said yes.
    public var confirmed: Bool?
    /// The handle's idempotency key: the same on every retry of one piece of work. The
    /// host makes one when absent.
    public var idempotencyKey: String?
    /// A W3C `traceparent` for the lifecycle; the host makes one when absent (wire.md, 5b).
    public var traceparent: String?

    /// Creates a submission.
    public init(
        parameters: [String: JSONValue], language: String? = nil, sessionId: String? = nil, confirmed: Bool? = nil,
        idempotencyKey: String? = nil
    ) {
        self.parameters = parameters
        self.language = language
        self.sessionId = sessionId
        self.confirmed = confirmed
        self.idempotencyKey = idempotencyKey
    }
}
