/// What an extension says about one parameter value during resolve, as in SiriKit.
public enum ResolutionResult: Sendable, Hashable {
    /// The value matched something the app knows; the host uses `value` from now on.
    case success(JSONValue)
    /// Several candidates (2 to 10); the user picks one.
    case disambiguation([JSONValue])
    /// The app wants the user to confirm this value ("Did you mean Bobo the Great?"); `reason`,
    /// one of the parameter's `confirmationReasons` in the catalog, says why
    /// (`listShouldBeCreated`: "There's no list called groceries. Should I make it?").
    case confirmationRequired(JSONValue, reason: String? = nil)
    /// The parameter is required and missing; the host asks the user for it.
    case needsValue
    /// The app ignores this parameter.
    case notRequired
    /// The value cannot be used; `reason` is a typed reason from the catalog, if any.
    case unsupported(reason: String?)

    /// The kind's name on the wire.
    public var kind: String {
        switch self {
        case .success: "success"
        case .disambiguation: "disambiguation"
        case .confirmationRequired: "confirmationRequired"
        case .needsValue: "needsValue"
        case .notRequired: "notRequired"
        case .unsupported: "unsupported"
        }
    }

    /// Whether the host can go on without asking the user.
    public var isSettled: Bool {
        switch self {
        case .success, .notRequired: true
        default: false
        }
    }

    /// The largest number of options a disambiguation may offer.
    public static let maximumOptions = 10
}

extension ResolutionResult: Codable {
    private enum Key: String, CodingKey { case kind, value, options, reason }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "success": self = .success(try c.decode(JSONValue.self, forKey: .value))
        case "disambiguation":
            let options = try c.decode([JSONValue].self, forKey: .options)
            guard (2...Self.maximumOptions).contains(options.count) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .options, in: c, debugDescription: "a disambiguation offers 2 to 10 options, not \(options.count)")
            }
            self = .disambiguation(options)
        case "confirmationRequired":
            self = .confirmationRequired(try c.decode(JSONValue.self, forKey: .value), reason: try c.decodeIfPresent(String.self, forKey: .reason))
        case "needsValue": self = .needsValue
        case "notRequired": self = .notRequired
        case "unsupported": self = .unsupported(reason: try c.decodeIfPresent(String.self, forKey: .reason))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown resolution kind \"\(other)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .success(let value): try c.encode(value, forKey: .value)
        case .confirmationRequired(let value, let reason):
            try c.encode(value, forKey: .value)
            try c.encodeIfPresent(reason, forKey: .reason)
        case .disambiguation(let options): try c.encode(options, forKey: .options)
        case .unsupported(let reason): try c.encodeIfPresent(reason, forKey: .reason)
        case .needsValue, .notRequired: break
        }
    }
}

/// The resolution results for one parameter: one for a single value, one per element for a list.
public struct ParameterResolution: Sendable, Hashable, Codable {
    /// The parameter's name.
    public var parameter: String
    /// The results, in the order of the values.
    public var results: [ResolutionResult]

    /// Creates a parameter's resolution.
    public init(parameter: String, results: [ResolutionResult]) {
        self.parameter = parameter
        self.results = results
    }
}
