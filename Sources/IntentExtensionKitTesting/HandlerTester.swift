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

    /// Runs `parameters` as one batch, exactly as the SDK runs a batched request from the
    /// host: resolves them in order, each resolved value in place for the next, stopping at
    /// the first that is not settled (`ResolutionResult.isSettled`); then, if every one
    /// settled, confirms, and if confirm answered `ready`, handles. Returns each step's
    /// answer; an error a step throws is thrown. A parameter is a list when its value is.
    public func run(_ intent: Intent, parameters: [(name: String, required: Bool)]) async throws -> Run {
        let batch = StageBatch(
            resolve: parameters.map { StageBatch.Resolve(parameter: $0.name, required: $0.required, list: intent[$0.name]?.arrayValue != nil) },
            confirm: true, handle: true)
        var run = Run()
        for step in await BatchRunner.run(batch, of: intent, with: handler, deadline: nil, handle: { try await handle($0) }) {
            switch step {
            case .resolved(let parameter, let results): run.resolutions.append((parameter, results))
            case .confirmed(let response): run.confirmation = response
            case .handled(let response): run.response = response
            case .failed(let error): throw error
            }
        }
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
