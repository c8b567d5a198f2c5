/// An extension's answer to confirm or handle: a response code named in the catalog, plus
/// the fields that describe the result.
public struct IntentResponse: Sendable, Hashable, Codable {
    /// The response code's name, such as `ready`, `success` or `failureRequiringAppLaunch`.
    public var code: String
    /// What the app reports: the sent message, the messages found, and so on.
    public var response: [String: JSONValue]
    /// What the app needs to continue the task itself, if the user is sent there.
    public var userActivity: JSONValue?

    /// Creates a response.
    public init(code: String, response: [String: JSONValue] = [:], userActivity: JSONValue? = nil) {
        self.code = code
        self.response = response
        self.userActivity = userActivity
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        code = try c.decode(String.self, forKey: .code)
        response = try c.decodeIfPresent([String: JSONValue].self, forKey: .response) ?? [:]
        userActivity = try c.decodeIfPresent(JSONValue.self, forKey: .userActivity)
    }
}

/// An extension's answer to resolve.
public struct ResolveReply: Sendable, Hashable, Codable {
    /// One result for a single value, one per element for a list.
    public var results: [ResolutionResult]

    /// Creates a reply.
    public init(results: [ResolutionResult]) { self.results = results }
}

/// An extension's answer when it could not process a request at all.
public struct ErrorReply: Sendable, Hashable, Codable {
    /// What went wrong, in words.
    public var error: String

    /// Creates an error reply.
    public init(error: String) { self.error = error }
}
