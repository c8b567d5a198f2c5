import Foundation
import IntentProtocol

/// Drives one intent through resolve (every parameter, in the catalog's order), confirm and
/// handle, and says how it ended. Runs on the Swift concurrency pool; every stage goes
/// through the broker, which checks the policies again each time.
struct LifecycleDriver: Sendable {
    let sender: any StageSender

    /// Runs the lifecycle for a submission of `intent` to `app`.
    func run(app: String, intent: IntentDefinition, body: [UInt8]) async -> Outcome {
        var run = Run(app: app, intent: intent, sessionId: UUID().uuidString, language: "en", confirmed: false)
        let submission: Submission
        do {
            submission = try JSON.decode(Submission.self, from: body)
        } catch {
            return run.end(.refused, ErrorCode.malformed.rawValue, "\(error)")
        }
        if let id = submission.sessionId { run.sessionId = id }
        if let key = submission.idempotencyKey {
            if let problem = RequestAnnotation.problem(withKey: key) { return run.end(.refused, ErrorCode.malformed.rawValue, problem) }
            run.idempotencyKey = key
        }
        run.language = submission.language ?? "en"
        run.confirmed = submission.confirmed ?? false
        do {
            run.parameters = try intent.coerce(submission.parameters)
        } catch {
            return run.end(.refused, ErrorCode.invalidParameter.rawValue, "\(error)")
        }
        return await drive(&run)
    }

    private func drive(_ run: inout Run) async -> Outcome {
        // Resolve.
        for parameter in run.intent.parameters {
            let request = run.request(resolving: parameter)
            let reply: ResolveReply
            switch await call(.resolve, request, &run) {
            case .failure(let end): return end.outcome
            case .success(let json):
                do { reply = try ResolveReply(json: json) } catch {
                    return run.end(.failure, ErrorCode.invalidReply.rawValue, "the resolve reply for \(parameter.name): \(error)")
                }
            }
            if let problem = run.apply(reply.results, to: parameter) {
                return run.end(.failure, ErrorCode.invalidReply.rawValue, problem)
            }
        }
        if let first = run.resolutions.first(where: { $0.results.contains { !$0.isSettled } }) {
            let result = first.results.first { !$0.isSettled } ?? .needsValue
            let prompt = run.intent.parameter(first.parameter)?.prompt ?? ""
            return run.end(.needsUserInput, result.kind, "\(first.parameter): \(result.kind). \(prompt)")
        }

        // Confirm.
        let confirm: IntentResponse
        switch await respond(.confirm, &run) {
        case .failure(let end): return end.outcome
        case .success(let response): confirm = response
        }
        switch run.intent.responseCode(confirm.code)?.kind {
        case .failure?, .unspecified?:
            return run.end(.failure, confirm.code, "\(run.app) cannot do this now (\(confirm.code))", response: confirm)
        default: break
        }
        if run.intent.requiresUserConfirmation == true, !run.confirmed {
            return run.end(.needsUserInput, "userConfirmationRequired",
                "\(run.app) needs you to confirm \(run.intent.name) before it is done", response: confirm)
        }

        // Handle.
        let handled: IntentResponse
        switch await respond(.handle, &run) {
        case .failure(let end): return end.outcome
        case .success(let response): handled = response
        }
        switch run.intent.responseCode(handled.code)?.kind {
        case .success?:
            return run.end(.success, handled.code, "\(run.app) did \(run.intent.name)", response: handled)
        case .inProgress?:
            return run.end(.success, handled.code, "\(run.app) is doing \(run.intent.name)", response: handled)
        default:
            return run.end(.failure, handled.code, "\(run.app) could not do \(run.intent.name) (\(handled.code))", response: handled)
        }
    }

    /// Runs confirm or handle and checks that the response code is in the catalog.
    private func respond(_ stage: Stage, _ run: inout Run) async -> Result<IntentResponse, Ended> {
        switch await call(stage, run.request(resolving: nil), &run) {
        case .failure(let end): return .failure(end)
        case .success(let json): return response(json, to: stage, run)
        }
    }

    /// Reads a confirm or handle reply: an IntentResponse whose code is in the catalog.
    func response(_ json: JSONValue, to stage: Stage, _ run: Run) -> Result<IntentResponse, Ended> {
        let response: IntentResponse
        do { response = try IntentResponse(json: json) } catch {
            return .failure(Ended(run.end(.failure, ErrorCode.invalidReply.rawValue, "\(run.app)'s \(stage) reply: \(error)")))
        }
        guard run.intent.responseCode(response.code) != nil else {
            return .failure(Ended(run.end(.failure, ErrorCode.invalidReply.rawValue,
                "\(run.app) answered \(stage) with \"\(response.code)\", which is not a response code of \(run.intent.name)")))
        }
        return .success(response)
    }

    /// Sends one stage, parses the reply once, and turns refusals, failures, unreadable
    /// replies and error replies into an ended run.
    func call(_ stage: Stage, _ request: StageRequest, _ run: inout Run) async -> Result<JSONValue, Ended> {
        let body = (try? JSON.encode(request)) ?? []
        // Only a handle carries the key; from here on the outcome names it.
        let key = stage == .handle ? run.idempotencyKey : nil
        if key != nil { run.handleSent = true }
        switch await sender.stage(app: run.app, intent: run.intent.name, stage: stage, body: body, key: key) {
        case .refused(let code, let message):
            return .failure(Ended(run.end(.refused, code.rawValue, message)))
        case .failed(let code, let message):
            return .failure(Ended(run.end(.failure, code.rawValue, message)))
        case .reply(let bytes):
            let json: JSONValue
            do { json = try JSONValue.parse(bytes) } catch {
                return .failure(Ended(run.end(.failure, ErrorCode.invalidReply.rawValue, "\(run.app)'s \(stage) reply: \(error)")))
            }
            if let error = try? ErrorReply(json: json) {
                return .failure(Ended(run.end(.failure, ErrorCode.extensionError.rawValue, "\(run.app) reported an error: \(error.error)")))
            }
            return .success(json)
        }
    }
}

/// A lifecycle that ended early, carried through `Result`.
struct Ended: Error {
    let outcome: Outcome
    init(_ outcome: Outcome) { self.outcome = outcome }
}


/// The state of one lifecycle run.
struct Run {
    let app: String
    let intent: IntentDefinition
    var sessionId: String
    var language: String
    var confirmed: Bool
    var parameters: [String: JSONValue] = [:]
    var resolutions: [ParameterResolution] = []
    /// The handle's idempotency key: the client's, or one the host made.
    var idempotencyKey = RequestAnnotation.makeKey()
    /// Whether the handle was sent, so that the outcome names the key.
    var handleSent = false

    init(app: String, intent: IntentDefinition, sessionId: String, language: String, confirmed: Bool) {
        self.app = app
        self.intent = intent
        self.sessionId = sessionId
        self.language = language
        self.confirmed = confirmed
    }

    func request(resolving parameter: ParameterDefinition?) -> StageRequest {
        StageRequest(
            sessionId: sessionId, language: language, intent: intent.name, parameters: parameters,
            parameter: parameter?.name, required: parameter.map(\.isRequired))
    }

    /// Records a parameter's results and puts resolved values in place; returns a problem
    /// if the results do not fit the parameter.
    mutating func apply(_ results: [ResolutionResult], to parameter: ParameterDefinition) -> String? {
        let given = parameters[parameter.name]
        let expected = parameter.isList ? max(1, given?.arrayValue?.count ?? 0) : 1
        guard results.count == expected else {
            return "\(app) gave \(results.count) results for \(parameter.name); expected \(expected)"
        }
        resolutions.append(ParameterResolution(parameter: parameter.name, results: results))
        if parameter.isList {
            var values = given?.arrayValue ?? []
            var kept: [JSONValue] = []
            for (index, result) in results.enumerated() {
                switch result {
                case .success(let value): kept.append(value)
                case .notRequired: continue
                default: if index < values.count { kept.append(values[index]) }
                }
            }
            values = kept
            parameters[parameter.name] = values.isEmpty ? nil : .array(values)
        } else {
            switch results[0] {
            case .success(let value): parameters[parameter.name] = value
            case .notRequired: parameters[parameter.name] = nil
            default: break
            }
        }
        return nil
    }

    func end(_ kind: Outcome.Kind, _ code: String, _ message: String, response: IntentResponse? = nil) -> Outcome {
        var outcome = Outcome(
            outcome: kind, code: code, app: app, intent: intent.name, sessionId: sessionId,
            resolutions: resolutions, response: response, message: message)
        if handleSent { outcome.idempotencyKey = idempotencyKey }
        return outcome
    }
}
