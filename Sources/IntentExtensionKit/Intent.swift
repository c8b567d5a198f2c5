import IntentProtocol
import Synchronization

/// An intent as an extension sees it: its name and its parameter values so far, with
/// resolved values in place of what the user said.
public struct Intent: Sendable, Hashable {
    /// The catalog name, such as `SendMessage`.
    public let name: String
    /// The conversation this belongs to.
    public let sessionId: String
    /// The user's language, such as `en`.
    public let language: String
    private let storage: ParameterStorage

    /// Parameter values by name (decoded from the request the first time they are read).
    public var parameters: [String: JSONValue] { storage.parameters }

    /// Creates an intent (tests and tools; the SDK makes them from requests).
    public init(name: String, parameters: [String: JSONValue], sessionId: String = "", language: String = "en") {
        self.name = name
        self.sessionId = sessionId
        self.language = language
        storage = ParameterStorage(.decoded(parameters))
    }

    /// The intent of a request, its parameters decoded only when read.
    init(_ request: LazyStageRequest) {
        name = request.intent
        sessionId = request.sessionId
        language = request.language
        storage = ParameterStorage(.encoded(request))
    }

    public static func == (a: Intent, b: Intent) -> Bool {
        a.name == b.name && a.sessionId == b.sessionId && a.language == b.language && a.parameters == b.parameters
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(sessionId)
        hasher.combine(language)
        hasher.combine(parameters)
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

/// An intent's parameter values, given whole or decoded from the request once, on first use.
private final class ParameterStorage: Sendable {
    enum State: Sendable {
        case decoded([String: JSONValue])
        case encoded(LazyStageRequest)
    }

    private let state: Mutex<State>

    init(_ state: State) { self.state = Mutex(state) }

    var parameters: [String: JSONValue] {
        state.withLock { state in
            switch state {
            case .decoded(let parameters):
                return parameters
            case .encoded(let request):
                let parameters = request.parameters()
                state = .decoded(parameters)
                return parameters
            }
        }
    }
}
