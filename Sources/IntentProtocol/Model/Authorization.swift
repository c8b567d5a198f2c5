/// Whether the user lets an app work with the assistant, with SiriKit's numbers.
public enum AuthorizationStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Not asked yet: the conversation asks on first use; programs may still send intents.
    case notDetermined
    /// Not allowed by policy.
    case restricted
    /// The user said no: every intent for the app is refused.
    case denied
    /// The user said yes.
    case authorized

    /// SiriKit's number.
    public var value: Int {
        switch self {
        case .notDetermined: 0
        case .restricted: 1
        case .denied: 2
        case .authorized: 3
        }
    }
}

/// The body of AUTHORIZE: the user's decision about an app.
public struct AuthorizationRequest: Sendable, Hashable, Codable {
    /// What the user decided.
    public enum Decision: String, Sendable, Hashable, Codable, CaseIterable {
        /// Allow the app.
        case allow
        /// Refuse the app.
        case deny
        /// Forget the decision and the app's user vocabulary.
        case reset
    }

    /// The decision.
    public var decision: Decision

    /// Creates a request.
    public init(decision: Decision) { self.decision = decision }
}

/// The answer to AUTHORIZE.
public struct AuthorizationState: Sendable, Hashable, Codable {
    /// The app.
    public var app: String
    /// Its status now.
    public var status: AuthorizationStatus

    /// Creates the answer.
    public init(app: String, status: AuthorizationStatus) {
        self.app = app
        self.status = status
    }
}
