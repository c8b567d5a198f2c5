/// Handles one kind of intent, shaped like SiriKit's handling protocols: one resolver per
/// parameter, then confirm, then handle. All of it is async.
///
/// Each call starts on the extension's connection thread and runs there until it first
/// suspends, so a quick answer costs no thread hop. Do not block: await slow work, or run
/// it in a `Task`, so heartbeats and other requests keep flowing.
public protocol IntentHandler: Sendable {
    /// One resolver per parameter name. A parameter without one resolves to success with
    /// the value given, or to needsValue when it is missing and required.
    var resolvers: [String: Resolver] { get }

    /// Says whether the intent can be done and what will happen; `ready` by default.
    func confirm(_ intent: Intent) async throws -> IntentResponse

    /// Does it, and describes the result as fully as possible.
    func handle(_ intent: Intent) async throws -> IntentResponse
}

extension IntentHandler {
    /// No resolvers: every parameter resolves to the value as given.
    public var resolvers: [String: Resolver] { [:] }

    /// Ready.
    public func confirm(_ intent: Intent) async throws -> IntentResponse {
        IntentResponse(code: "ready")
    }
}

/// Resolves one parameter.
public struct Resolver: Sendable {
    let resolve: @Sendable (Intent) async throws -> [ResolutionResult]

    /// For a single-value parameter: one result.
    public static func single(_ body: @escaping @Sendable (Intent) async throws -> ResolutionResult) -> Resolver {
        Resolver { [try await body($0)] }
    }

    /// For a list parameter: one result per element (or one `needsValue` when empty).
    public static func list(_ body: @escaping @Sendable (Intent) async throws -> [ResolutionResult]) -> Resolver {
        Resolver(resolve: body)
    }
}

extension ResolutionResult {
    /// Success with a person.
    public static func success(_ person: Person) -> ResolutionResult {
        .success((try? JSONValue(encoding: person)) ?? .null)
    }

    /// Success with text.
    public static func success(_ text: String) -> ResolutionResult {
        .success(.string(text))
    }

    /// A choice between people. More than 10 candidates become `needsValue`: ask the user
    /// to be more specific rather than read out a long list.
    public static func disambiguation(_ people: [Person]) -> ResolutionResult {
        guard people.count <= maximumOptions else { return .needsValue }
        guard people.count >= 2 else { return people.first.map { .success($0) } ?? .needsValue }
        return .disambiguation(people.compactMap { try? JSONValue(encoding: $0) })
    }

    /// Asks the user to confirm a person.
    public static func confirmationRequired(_ person: Person) -> ResolutionResult {
        .confirmationRequired((try? JSONValue(encoding: person)) ?? .null)
    }

    /// Unsupported, with no reason.
    public static var unsupported: ResolutionResult { .unsupported(reason: nil) }
}
