import Foundation
import IntentProtocol

/// Runs the stages of a batch (wire.md, section 5b) the way the host would have sent them
/// one by one: each parameter in order through `Resolution.resolve`, its resolved values
/// put in place for the next (`ResolvedValues.apply`, the host's rule), then confirm, then
/// handle. It stops at the first resolve that is not settled, at a confirm that does not
/// answer `ready`, at an error, and before any step whose deadline has passed. The
/// dispatcher and `HandlerTester` both run batches through it.
package enum BatchRunner {
    /// What one step of a batch gave.
    package enum Step<Handled: Sendable>: Sendable {
        case resolved(parameter: String, results: [ResolutionResult])
        case confirmed(IntentResponse)
        case handled(Handled)
        case failed(any Error)
    }

    /// A step not started because the host had stopped waiting.
    struct DeadlinePassed: Error, CustomStringConvertible {
        let stage: Stage
        var description: String { "the deadline passed before this \(stage) started; it was not run" }
    }

    /// Runs `batch` on `intent` with `handler`; `handle` does the handle step (the
    /// dispatcher's runs it once per idempotency key).
    package static func run<Handled: Sendable>(
        _ batch: StageBatch, of intent: Intent, with handler: any IntentHandler, deadline: Int64?,
        handle: (Intent) async throws -> Handled
    ) async -> [Step<Handled>] {
        var parameters = intent.parameters
        var steps: [Step<Handled>] = []
        func current() -> Intent {
            Intent(name: intent.name, parameters: parameters, sessionId: intent.sessionId, language: intent.language)
        }
        func late(_ stage: Stage) -> Bool {
            guard let deadline, HandleScope.nowMilliseconds() >= deadline else { return false }
            steps.append(.failed(DeadlinePassed(stage: stage)))
            return true
        }
        do {
            for entry in batch.resolve {
                if late(.resolve) { return steps }
                let results = try await Resolution.resolve(entry.parameter, of: current(), with: handler, required: entry.required)
                steps.append(.resolved(parameter: entry.parameter, results: results))
                guard StageBatch.continues(after: results, for: entry, given: parameters[entry.parameter]) else { return steps }
                _ = ResolvedValues.apply(results, to: entry.parameter, list: entry.list, in: &parameters)
            }
            guard batch.confirm, !late(.confirm) else { return steps }
            let confirmed = try await handler.confirm(current())
            steps.append(.confirmed(confirmed))
            guard batch.handle, StageBatch.handles(after: confirmed.code), !late(.handle) else { return steps }
            steps.append(.handled(try await handle(current())))
        } catch {
            steps.append(.failed(error))
        }
        return steps
    }
}
