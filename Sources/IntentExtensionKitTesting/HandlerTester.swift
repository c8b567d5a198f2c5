import IntentExtensionKit

/// Runs a handler's resolvers, confirm and handle in a unit test, without a host, a process
/// or a socket, with the same rules the SDK applies to requests from the host: a parameter
/// without a resolver resolves to its value as given (or `needsValue` / `notRequired` when
/// missing), and a disambiguation outside 2 to 10 options is corrected.
///
/// ```swift
/// let tester = HandlerTester(SendMessageHandler(store: store))
/// let intent = Intent(name: "SendMessage", parameters: ["recipients": ["Coco"], "content": "hi"])
/// #expect(try await tester.resolve("recipients", of: intent) == [.success(coco)])
/// #expect(try await tester.handle(intent).code == "success")
/// ```
public struct HandlerTester<Handler: IntentHandler>: Sendable {
    /// The handler under test.
    public let handler: Handler

    /// Tests `handler`.
    public init(_ handler: Handler) { self.handler = handler }

    /// What resolve answers for `parameter` of `intent`; `required` is what the catalog says
    /// of the parameter (the host sends it with every resolve request).
    public func resolve(_ parameter: String, of intent: Intent, required: Bool = false) async throws -> [ResolutionResult] {
        try await Resolution.resolve(parameter, of: intent, with: handler, required: required)
    }

    /// What confirm answers.
    public func confirm(_ intent: Intent) async throws -> IntentResponse {
        try await handler.confirm(intent)
    }

    /// What handle answers.
    public func handle(_ intent: Intent) async throws -> IntentResponse {
        try await handler.handle(intent)
    }

    /// Resolves `parameters` in order as the host does, stopping at the first that is not
    /// settled (`ResolutionResult.isSettled`); then, if every one settled, confirms, and if confirm is ready, handles. Returns
    /// each step's answer.
    public func run(_ intent: Intent, parameters: [(name: String, required: Bool)]) async throws -> Run {
        var run = Run()
        for (name, required) in parameters {
            let results = try await resolve(name, of: intent, required: required)
            run.resolutions.append((name, results))
            if results.contains(where: { !$0.isSettled }) { return run }
        }
        let confirmed = try await confirm(intent)
        run.confirmation = confirmed
        guard confirmed.code == "ready" || confirmed.code == "success" else { return run }
        run.response = try await handle(intent)
        return run
    }

    /// The answers of one `run`.
    public struct Run: Sendable {
        /// Each parameter resolved, in order, with its results.
        public var resolutions: [(parameter: String, results: [ResolutionResult])] = []
        /// What confirm answered, if it was reached.
        public var confirmation: IntentResponse?
        /// What handle answered, if it was reached.
        public var response: IntentResponse?
    }
}
