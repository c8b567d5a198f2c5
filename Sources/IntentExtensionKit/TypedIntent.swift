/// A typed view of an intent of a built-in domain (generated from `Protocols/domains`).
/// Domains known only from a file use `Intent` and `IntentHandler` directly.
public protocol TypedIntent: Sendable {
    /// The catalog name, such as `SendMessage`.
    static var name: String { get }
    /// The intent as received, for anything the typed view does not cover.
    var intent: Intent { get }
    /// Wraps a received intent.
    init(_ intent: Intent)
}

/// A typed response: one of the intent's response codes, and what the app reports.
public struct TypedResponse<Code: RawRepresentable & Sendable>: Sendable where Code.RawValue == String {
    /// The response code.
    public var code: Code
    /// The fields describing the result.
    public var fields: [String: JSONValue]
    /// What the app needs to continue the task itself.
    public var userActivity: JSONValue?

    /// Creates a response.
    public init(_ code: Code, _ fields: [String: JSONValue] = [:], userActivity: JSONValue? = nil) {
        self.code = code
        self.fields = fields
        self.userActivity = userActivity
    }

    /// The response as it goes on the wire.
    public var response: IntentResponse { IntentResponse(code: code.rawValue, response: fields, userActivity: userActivity) }
}

extension Intent {
    /// A list of values of a raw-representable type, skipping any that do not fit.
    public func values<T: RawRepresentable>(_ parameter: String, as type: T.Type = T.self) -> [T] where T.RawValue == String {
        strings(parameter).compactMap(T.init(rawValue:))
    }

    /// A whole number (a fraction cut off); nil for one too large for `Int`.
    public func integer(_ parameter: String) -> Int? { number(parameter).flatMap { abs($0) < 1e18 ? Int($0) : nil } }

    /// A boolean.
    public func bool(_ parameter: String) -> Bool? { parameters[parameter]?.boolValue }

    /// A place.
    public func place(_ parameter: String) -> Place? { try? parameters[parameter]?.decode(as: Place.self) }

    /// A list of places.
    public func places(_ parameter: String) -> [Place] {
        guard let value = parameters[parameter] else { return [] }
        return (value.arrayValue ?? [value]).compactMap { try? $0.decode(as: Place.self) }
    }

    /// The default resolution of a parameter: success with its values, else needsValue
    /// (required) or notRequired.
    public func defaultResolution(of parameter: String, required: Bool) -> [ResolutionResult] {
        Resolution.defaultResolution(parameters[parameter], required: required)
    }

    /// The default resolution of a single-value parameter.
    public func defaultResult(of parameter: String, required: Bool) -> ResolutionResult {
        defaultResolution(of: parameter, required: required).first ?? (required ? .needsValue : .notRequired)
    }
}
