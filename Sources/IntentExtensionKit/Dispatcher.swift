import Foundation
import Logging

/// Turns one request into one reply body by calling the extension's handler.
struct Dispatcher<Extension: IntentExtension>: Sendable {
    let `extension`: Extension
    /// Completed handles by idempotency key.
    let journal: any HandleJournal
    /// Where each request's deadline is noted, for the connection to cancel it then.
    let deadlines: DeadlineWatch

    /// The host's limit on a reply.
    let replyLimit = ReplyLimit()

    init(extension: Extension, deadlines: DeadlineWatch = DeadlineWatch()) {
        self.extension = `extension`
        journal = `extension`.journal ?? MemoryJournal()
        self.deadlines = deadlines
    }

    /// The reply body for request `id`: a `ResolveReply`, an `IntentResponse` or an
    /// `ErrorReply`. Work whose deadline has passed is not started (the host has stopped
    /// waiting); work still running at its deadline is cancelled (`ExtensionConnection`).
    func reply(id: RequestID, stage: Stage, body: [UInt8]) async -> [UInt8] {
        do {
            let request = try LazyStageRequest(body)
            if let deadline = request.deadline {
                guard HandleScope.nowMilliseconds() < deadline else {
                    return ErrorReply(error: "the deadline passed before this \(stage) started; it was not run").serialized()
                }
                deadlines.expect(id, by: deadline)
            }
            let intent = Intent(request)
            guard let handler = `extension`.handler(for: intent) else {
                return ErrorReply(error: "this extension has no handler for \(intent.name)").serialized()
            }
            if let batch = request.batch {
                guard batch.stage == stage else {
                    return ErrorReply(error: "a batch that ends with \(batch.stage) came as a \(stage) request").serialized()
                }
                return await run(batch, of: intent, with: handler, request)
            }
            switch stage {
            case .resolve:
                guard let parameter = request.parameter else {
                    return ErrorReply(error: "a resolve request must name its parameter").serialized()
                }
                let results = try await Resolution.resolve(parameter, of: intent, with: handler, required: request.required ?? false)
                return ResolveReply(results: results).serialized()
            case .confirm:
                return try await handler.confirm(intent).serialized()
            case .handle:
                return try await handle(intent, with: handler, request)
            }
        } catch is CancellationError {
            // Its deadline passed: the host has stopped waiting, and hears nothing more.
            Logger(label: "IntentExtensionKit").warning("a \(stage) was cancelled at its deadline: not done")
            return ErrorReply(error: "\(stage) was cancelled at its deadline").serialized()
        } catch {
            // The host hears the error; the extension's log (its standard error) keeps it for its author.
            Logger(label: "IntentExtensionKit").error("\(stage) failed: \(error)")
            return ErrorReply(thrown: error).serialized()
        }
    }
}

extension Dispatcher {
    /// Runs a batch and writes its BatchReply: each step's reply exactly as it would be
    /// alone, the handle's run once per idempotency key as every handle is.
    func run(_ batch: StageBatch, of intent: Intent, with handler: any IntentHandler, _ request: LazyStageRequest) async -> [UInt8] {
        let steps = await BatchRunner.run(batch, of: intent, with: handler, deadline: request.deadline) { intent in
            try await handle(intent, with: handler, request)
        }
        var bytes = Array(#"{"replies":["#.utf8)
        for (index, step) in steps.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            switch step {
            case .resolved(_, let results): bytes += ResolveReply(results: results).serialized()
            case .confirmed(let response): bytes += response.serialized()
            case .handled(let reply): bytes += reply
            case .failed(let error): bytes += ErrorReply(thrown: error).serialized()
            }
        }
        bytes += Array("]}".utf8)
        return bytes
    }

    /// Runs a handle once per idempotency key: a key already done gets the reply recorded
    /// for it; otherwise the handler runs under the key's `HandleScope` and its reply is
    /// recorded before it is sent.
    func handle(_ intent: Intent, with handler: any IntentHandler, _ request: LazyStageRequest) async throws -> [UInt8] {
        guard let key = request.idempotencyKey else { return try await handler.handle(intent).serialized() }
        if let problem = RequestAnnotation.problem(withKey: key) { throw ProtocolError.malformedBody(problem) }
        let scope = HandleScope(key: key, intent: intent.name, deadline: request.deadline)
        // The in-memory journal is read and written in place, with no hop to another thread.
        if let memory = journal as? MemoryJournal { return try await handleOnce(intent, with: handler, scope: scope, in: memory) }
        if let done = try await journal.reply(for: key, intent: intent.name) { return done }
        let response: IntentResponse
        do {
            response = try await HandleScope.$current.withValue(scope) { try await handler.handle(intent) }
        } catch {
            // The error reply says the work was not done; writes that committed say otherwise.
            if scope.writes > 0 {
                Logger(label: "IntentExtensionKit").warning(
                    "handle \(key) of \(intent.name) threw after \(scope.writes) journaled write(s): if they committed, the reply reports a failure for work that was done; fail before writing, or answer with a response code (\(error))")
            }
            throw error
        }
        let reply = replyLimit.fitted(response)
        // The work is done: a journal that cannot record the reply must not turn it into a
        // failure. A retry then runs the handler again, and journaled writes replay.
        do { try await journal.record(reply, for: key, intent: intent.name) } catch {
            Logger(label: "IntentExtensionKit").warning("could not record the reply to handle \(key): \(error)")
        }
        return reply
    }

    /// `handle` with the in-memory journal, which also knows which keys run now: a retry
    /// that comes while the first run of its key still goes on (its answer was late) waits
    /// for that run's reply instead of acting a second time.
    private func handleOnce(_ intent: Intent, with handler: any IntentHandler, scope: HandleScope, in memory: MemoryJournal) async throws -> [UInt8] {
        waiting: while true {
            switch try memory.begin(scope.key, intent: intent.name) {
            case .done(let reply): return reply
            case .started: break waiting
            case .running: try await Task.sleep(for: .milliseconds(5))
            }
        }
        let response: IntentResponse
        do {
            response = try await HandleScope.$current.withValue(scope) { try await handler.handle(intent) }
        } catch {
            memory.finish(scope.key)
            throw error
        }
        let reply = replyLimit.fitted(response)
        memory.keep(reply, for: scope.key, intent: intent.name, finishing: true)
        return reply
    }
}

/// The SDK's resolution rules, shared by the dispatcher and the typed handlers.
package enum Resolution {
    /// What `handler` answers for `parameter`: its resolver's results, or the default
    /// resolution without one, kept within the protocol's rules (`checked`).
    package static func resolve(
        _ parameter: String, of intent: Intent, with handler: any IntentHandler, required: Bool
    ) async throws -> [ResolutionResult] {
        guard let resolver = handler.resolvers[parameter] else { return defaultResolution(intent[parameter], required: required) }
        return try await resolver.resolve(intent).map(checked)
    }

    /// Without a resolver: success with each given value; needsValue or notRequired if none.
    static func defaultResolution(_ value: JSONValue?, required: Bool) -> [ResolutionResult] {
        guard let value else { return [required ? .needsValue : .notRequired] }
        let values = value.arrayValue ?? [value]
        return values.isEmpty ? [required ? .needsValue : .notRequired] : values.map { .success($0) }
    }

    /// Keeps disambiguations within 2 to 10 options, as the protocol requires.
    static func checked(_ result: ResolutionResult) -> ResolutionResult {
        guard case .disambiguation(let options) = result else { return result }
        if options.count > ResolutionResult.maximumOptions { return .needsValue }
        if options.count == 1 { return .success(options[0]) }
        if options.isEmpty { return .needsValue }
        return result
    }

}

extension ErrorReply {
    /// The reply for an error a handler threw: its `errorDescription` when it is a
    /// `LocalizedError` (words for the user, who hears them), else its description.
    init(thrown error: any Error) {
        self.init(error: (error as? LocalizedError)?.errorDescription ?? "\(error)")
    }
}
