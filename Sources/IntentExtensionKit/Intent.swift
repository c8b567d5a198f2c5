/// An intent as an extension sees it: its name and its parameter values so far, with
/// resolved values in place of what the user said.
public struct Intent: Sendable, Hashable {
    /// The catalog name, such as `SendMessage`.
    public let name: String
    /// Parameter values by name.
    public let parameters: [String: JSONValue]
    /// The conversation this belongs to.
    public let sessionId: String
    /// The user's language, such as `en`.
    public let language: String

    /// Creates an intent (tests and tools; the SDK makes them from requests).
    public init(name: String, parameters: [String: JSONValue], sessionId: String = "", language: String = "en") {
        self.name = name
        self.parameters = parameters
        self.sessionId = sessionId
        self.language = language
    }

    /// The raw value of a parameter.
    public subscript(parameter: String) -> JSONValue? { parameters[parameter] }

    /// A text parameter, or `nil` when missing or empty.
    public func string(_ parameter: String) -> String? {
        guard let text = parameters[parameter]?.stringValue, !text.isEmpty else { return nil }
        return text
    }

    /// A list-of-text parameter; a single text counts as a list of one.
    public func strings(_ parameter: String) -> [String] {
        guard let value = parameters[parameter] else { return [] }
        return (value.arrayValue ?? [value]).compactMap(\.stringValue)
    }

    /// A list-of-persons parameter.
    public func persons(_ parameter: String) -> [Person] {
        guard let value = parameters[parameter] else { return [] }
        return (value.arrayValue ?? [value]).compactMap { try? $0.decode(as: Person.self) }
    }

    /// A number parameter.
    public func number(_ parameter: String) -> Double? { parameters[parameter]?.numberValue }
}
