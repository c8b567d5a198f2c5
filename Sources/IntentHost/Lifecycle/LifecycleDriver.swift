import Foundation
import IntentProtocol

/// Drives one intent through resolve (every parameter, in the catalog's order), confirm and
/// handle, and says how it ended: the one loop (`drive`) of SUBMITs and conversations, which
/// differ only in their `LifecycleAsker`. A SUBMIT's lifecycle runs on the broker thread (its
/// task prefers `BrokerExecutor`), a conversation's on the global pool; either way every
/// stage is a call into the `Broker` actor, which checks the policies again each time. With an extension that
/// takes batches (wire.md, section 5b) the stages travel several to a request, and each
/// reply in a batch is read by the same rules as a reply to its stage alone.
struct LifecycleDriver: Sendable {
    let sender: any StageSender
    /// Whether the host sends batches to extensions that declared them (config
    /// `batchedStages`); off, every stage is a request of its own.
    var batchedStages = true
    /// Whether a batch that confirms carries the handle too (config `handleInBatch`).
    var handleInBatch = false
    /// Lifecycles whose handle was sent, by key: asked again with the key, an unknown handle
    /// is sent again alone, a settled one answered with its outcome.
    var keyed: KeyedHandles?
    /// Where an extension's bad answers are said for its author.
    var faults: ExtensionFaultLog?

    /// Runs the lifecycle for a submission of `intent` to `app`; `batched` says whether the
    /// app's extension takes batches; `route` is the one the SUBMIT was admitted on.
    func run(
        app: String, intent: IntentDefinition, body: [UInt8], batched: Bool = false, route: CarriedRoute? = nil
    ) async -> Outcome {
        var run = Run(app: app, intent: intent, sessionId: PooledRandom.uuidString(), language: "en", confirmed: false)
        run.batched = batched && batchedStages
        run.route = route
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
            run.keyFromClient = true
        }
        run.language = submission.language ?? "en"
        run.confirmed = submission.confirmed ?? false
        do {
            run.parameters = try intent.coerce(submission.parameters)
        } catch {
            return run.end(.refused, ErrorCode.invalidParameter.rawValue, "\(error)")
        }
        run.asked = .object(run.parameters)
        var asker = RecordingAsker()
        return await drive(&run, asking: &asker)
    }

    /// Why a run is refused whose idempotency key was first given for another request.
    static func keyOfAnotherRequest(_ key: String) -> String {
        "the idempotency key \(key) was first given for another request: a retry sends the same request, and another request needs a key of its own"
    }

    /// Drives `run` through resolve (asking again until each parameter settles), confirm
    /// and handle, and says how it ended; `asker` has the user's say wherever the user has
    /// one. The one loop of SUBMITs and conversations. A run with the key of one whose handle
    /// ended `outcomeUnknown` sends that handle again, as it was, and nothing before it.
    func drive<Asker: LifecycleAsker>(
        _ run: inout Run, asking asker: inout Asker
    ) async throws(Asker.Stop) -> Outcome {
        let outcome: Outcome
        let kept = keyed?.take(for: run)
        defer { keyed?.finished(run) }
        switch kept {
        case .otherRequest?:
            // Its first outcome would answer a request that was not made (wire.md section 5a).
            return run.end(.refused, ErrorCode.invalidParameter.rawValue, Self.keyOfAnotherRequest(run.idempotencyKey))
        case .settled(let first)?:
            // The first run's outcome, and what it was done with, for the words that tell it
            // (the same request said again from its start has not said them yet).
            for resolution in first.resolutions where run.parameters[resolution.parameter] == nil {
                let values = resolution.results.compactMap { result -> JSONValue? in
                    if case .success(let value) = result { value } else { nil }
                }
                guard !values.isEmpty, values.count == resolution.results.count else { continue }
                run.parameters[resolution.parameter] = run.intent.parameter(resolution.parameter)?.isList == true ? .array(values) : values[0]
            }
            return first
        case .unknown(let parameters, let resolutions)?:
            run.parameters = parameters
            run.resolutions = resolutions
            run.confirmed = true
            let retried = try await handle(&run, asking: &asker)
            guard run.handleSent else {
                // Not sent again (the app is away, the host is full): the first send's outcome
                // is still unknown, and is kept so for the next try.
                run.handleSent = true
                let still = run.end(.failure, ErrorCode.outcomeUnknown.rawValue, "\(retried.message); so whether the first handle was done is still unknown: send it again with the same key later")
                keyed?.keep(run, still)
                return still
            }
            outcome = retried
        case nil:
            outcome = try await stages(&run, asking: &asker)
        }
        keyed?.keep(run, outcome)
        faults?.note(outcome)
        return outcome
    }

    /// Resolve, confirm and handle.
    private func stages<Asker: LifecycleAsker>(
        _ run: inout Run, asking asker: inout Asker
    ) async throws(Asker.Stop) -> Outcome {
        // Resolve, parameter by parameter; a result that is not settled goes to the asker,
        // and the parameter is resolved again with the value it gives.
        for (position, parameter) in run.intent.parameters.enumerated() {
            var asked = 0
            while true {
                let resolved: ResolveReply
                switch try await reply(for: .resolve(position), &run, asking: &asker) {
                case .failure(let end): return end.outcome
                case .success(let json):
                    do { resolved = try ResolveReply(json: json) } catch {
                        return run.unreadable("the resolve reply for \(parameter.name): \(error)")
                    }
                }
                let before = run.parameters[parameter.name]
                let results = run.afterConfirmation(resolved.results, of: parameter)
                if let problem = run.apply(results, to: parameter) {
                    return run.unreadable(problem)
                }
                // A batch with the handle that came back whole handled though this was not
                // settled (the extension should have stopped): the work may be done.
                if run.handleSent, results.contains(where: { !$0.isSettled }) {
                    return run.unreadable("\(run.app) handled \(run.intent.name) in a batch though \(parameter.name) was not settled")
                }
                guard let index = results.firstIndex(where: { !$0.isSettled }),
                    let value = try await asker.value(
                        for: results[index], of: parameter, run, said: Run.element(before, index), asked: asked)
                else { break }
                if case .confirmationRequired(value, _) = results[index] { run.userConfirmed[parameter.name, default: []].insert(value) }
                asked += 1
                run.resolutions.removeLast()
                run.parameters[parameter.name] = Run.replacing(before, at: index, with: value, list: parameter.isList)
                run.dropQueued()
            }
        }
        if let first = run.resolutions.first(where: { $0.results.contains { !$0.isSettled } }) {
            let result = first.results.first { !$0.isSettled } ?? .needsValue
            let prompt = run.intent.parameter(first.parameter)?.prompt ?? ""
            return run.end(.needsUserInput, result.kind, "\(first.parameter): \(prompt)")
        }

        // Confirm.
        let confirm: IntentResponse
        switch try await respond(.confirm, &run, asking: &asker) {
        case .failure(let end): return end.outcome
        case .success(let response): confirm = response
        }
        switch run.intent.responseCode(confirm.code)?.kind {
        case .failure?, .unspecified?:
            if run.handleSent {
                return run.unreadable("\(run.app) handled \(run.intent.name) in a batch though its confirm said \(confirm.code)")
            }
            return run.end(.failure, confirm.code, "\(run.app) cannot do this now (\(confirm.code))", response: confirm)
        default: break
        }
        if run.intent.requiresUserConfirmation == true {
            run.confirmed = try await asker.confirm(run, confirm)
            if !run.confirmed {
                return run.end(.needsUserInput, "userConfirmationRequired",
                    "\(run.app) needs you to confirm \(run.intent.name) before it is done", response: confirm)
            }
        }

        return try await handle(&run, asking: &asker)
    }

    /// The handle, and the outcome its answer gives.
    private func handle<Asker: LifecycleAsker>(
        _ run: inout Run, asking asker: inout Asker
    ) async throws(Asker.Stop) -> Outcome {
        let handled: IntentResponse
        switch try await respond(.handle, &run, asking: &asker) {
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
    private func respond<Asker: LifecycleAsker>(
        _ step: StageStep, _ run: inout Run, asking asker: inout Asker
    ) async throws(Asker.Stop) -> Result<IntentResponse, Ended> {
        switch try await reply(for: step, &run, asking: &asker) {
        case .failure(let end): return .failure(end)
        case .success(let json): return response(json, to: step.stage, run)
        }
    }

    /// The reply to `step`; a refusal because the device is locked goes to the asker,
    /// which may have the same stage sent again, so the intent continues where it stopped.
    private func reply<Asker: LifecycleAsker>(
        for step: StageStep, _ run: inout Run, asking asker: inout Asker
    ) async throws(Asker.Stop) -> Result<JSONValue, Ended> {
        var asked = 0
        while true {
            let result = await reply(for: step, &run)
            guard case .failure(let ended) = result, ended.outcome.outcome == .refused,
                ended.outcome.code == ErrorCode.requiresUnlock.rawValue,
                try await asker.unlock(ended.outcome, asked: asked)
            else { return result }
            asked += 1
        }
    }

    /// The reply to `step`: taken from the last batch's answer when it holds one, else
    /// asked for, as a batch from `step` on (`Run.batch(from:handle:)`) or as `step` alone. An
    /// ErrorReply, as a step's reply or as the whole answer, ends the run as a per-stage
    /// ErrorReply does.
    private func reply(for step: StageStep, _ run: inout Run) async -> Result<JSONValue, Ended> {
        if let json = run.takeQueued(step) { return checked(json, to: step.stage, run) }
        guard let batch = run.batch(from: step, handle: handleInBatch) else {
            return await call(step.stage, run.request(resolving: step.parameter(of: run.intent)), &run)
        }
        var request = run.request(resolving: nil)
        request.batch = batch
        let json: JSONValue
        switch await call(batch.stage, request, &run, batched: true) {
        case .failure(let end): return .failure(end)
        case .success(let answer): json = answer
        }
        let replies: [JSONValue]
        do { replies = try BatchReply(json: json).replies } catch {
            return .failure(Ended(run.unreadable("\(run.app)'s batch reply: \(error)")))
        }
        guard replies.count <= batch.count else {
            return .failure(Ended(run.unreadable(
                "\(run.app) gave \(replies.count) replies to a batch of \(batch.count)")))
        }
        // A batch with a handle (the protocol allows one; this host sends none) that
        // stopped before it did not handle: the outcome names no key.
        if batch.handle, replies.count < batch.count { run.handleSent = false }
        run.queue(replies, from: step)
        guard let first = run.takeQueued(step) else {
            return .failure(Ended(run.unreadable("\(run.app)'s batch reply is empty")))
        }
        return checked(first, to: step.stage, run)
    }

    /// Reads a confirm or handle reply: an IntentResponse whose code is in the catalog.
    private func response(_ json: JSONValue, to stage: Stage, _ run: Run) -> Result<IntentResponse, Ended> {
        let response: IntentResponse
        do { response = try IntentResponse(json: json) } catch {
            return .failure(Ended(run.unreadable("\(run.app)'s \(stage) reply: \(error)")))
        }
        guard run.intent.responseCode(response.code) != nil else {
            return .failure(Ended(run.unreadable(
                "\(run.app) answered \(stage) with \"\(response.code)\", which is not a response code of \(run.intent.name)")))
        }
        return .success(response)
    }

    /// Sends one stage, parses the reply once, and turns refusals, failures, unreadable
    /// replies and error replies into an ended run.
    private func call(_ stage: Stage, _ request: StageRequest, _ run: inout Run, batched: Bool = false) async -> Result<JSONValue, Ended> {
        let body = request.serialized()
        // Only a handle carries the key; from here on the outcome names it.
        let key = stage == .handle ? run.idempotencyKey : nil
        if key != nil {
            run.handleSent = true
            keyed?.sending(run)
        }
        switch await sender.stage(
            app: run.app, intent: run.intent.name, stage: stage, body: body, key: key, batched: batched, route: run.route)
        {
        case .refused(let code, let message):
            // Refused before it was sent: no handle went out.
            if key != nil { run.handleSent = false }
            return .failure(Ended(run.end(.refused, code.rawValue, message)))
        case .failed(let code, let message):
            // A handle that may have been done is answered outcomeUnknown; any other failure
            // came before it was sent ("not running right now … nothing was sent to it").
            if key != nil, code != .outcomeUnknown { run.handleSent = false }
            return .failure(Ended(run.end(.failure, code.rawValue, message)))
        case .reply(let bytes):
            let json: JSONValue
            do { json = try JSONValue.parse(bytes) } catch {
                return .failure(Ended(run.unreadable("\(run.app)'s \(stage) reply: \(error)")))
            }
            return checked(json, to: stage, run)
        }
    }

    /// A reply that is an ErrorReply ends the run with `extensionError`.
    private func checked(_ json: JSONValue, to stage: Stage, _ run: Run) -> Result<JSONValue, Ended> {
        if let error = ErrorReply.found(in: json) {
            return .failure(Ended(run.end(.failure, ErrorCode.extensionError.rawValue, "\(run.app) reported an error: \(error.error)")))
        }
        return .success(json)
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
    /// Whether the key is the client's (who may send the request again with it).
    var keyFromClient = false
    /// What the request was, which a retry with its key must be again: a SUBMIT's
    /// parameters as read, or the words a conversation started with (read again on a retry,
    /// "in 5 minutes" would move, so its words are compared, not its parameters).
    var asked: JSONValue?
    /// Values the user said yes to when asked to confirm them, by parameter.
    var userConfirmed: [String: Set<JSONValue>] = [:]
    /// Whether the stages go to the extension in batches.
    var batched = false
    /// The route the SUBMIT was admitted on, for the broker.
    var route: CarriedRoute?
    /// Replies of the last batch not read yet, and the step the first of them answers.
    private var queued: ArraySlice<JSONValue> = []
    private var queuedStep: StageStep?

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

    /// Records a parameter's results and puts resolved values in place (`ResolvedValues`,
    /// the rule extensions apply inside a batch too); returns a problem if the results do
    /// not fit the parameter.
    /// `results` with a value the user already confirmed taken as success: asked once, the
    /// user is not asked again when the extension answers `confirmationRequired` for it once
    /// more (a list that does not exist until the handle makes it).
    func afterConfirmation(_ results: [ResolutionResult], of parameter: ParameterDefinition) -> [ResolutionResult] {
        guard let confirmed = userConfirmed[parameter.name] else { return results }
        return results.map { result in
            if case .confirmationRequired(let value, _) = result, confirmed.contains(value) { return .success(value) }
            return result
        }
    }

    mutating func apply(_ results: [ResolutionResult], to parameter: ParameterDefinition) -> String? {
        if let problem = ResolvedValues.apply(results, to: parameter.name, list: parameter.isList, in: &parameters) {
            return "\(app) gave \(problem)"
        }
        resolutions.append(ParameterResolution(parameter: parameter.name, results: results))
        return nil
    }

    /// The batch to send for `step` and the steps after it, or `nil` to send `step` alone:
    /// the remaining parameters, then confirm once every resolution so far settled. By
    /// default the handle goes alone: a batch is then a read, retried on another instance
    /// and answered `extensionTimeout` when it hangs, exactly as its stages one by one, and
    /// the handle is timed on its own. With `handle` (config `handleInBatch`) a batch that
    /// confirms handles too (the extension handles only after a `ready` confirm), unless the
    /// intent needs the user's yes first; such a batch carries the key and is a handle to
    /// the broker. A single step goes alone.
    func batch(from step: StageStep, handle handleInBatch: Bool) -> StageBatch? {
        guard batched, case .resolve(let index) = step else { return nil }
        let settled = resolutions.allSatisfy { $0.results.allSatisfy(\.isSettled) }
        let rest = intent.parameters.dropFirst(index).map {
            StageBatch.Resolve(parameter: $0.name, required: $0.isRequired, list: $0.isList)
        }
        let handle = handleInBatch && intent.requiresUserConfirmation != true
        let batch = StageBatch(resolve: rest, confirm: settled, handle: handle)
        return batch.count > 1 ? batch : nil
    }

    /// Keeps a batch's replies, the first answering `step`.
    mutating func queue(_ replies: [JSONValue], from step: StageStep) {
        queued = replies[...]
        queuedStep = step
    }

    /// The queued reply to `step`, if the last batch gave one; anything else queued is
    /// dropped (the run went another way, such as a conversation asking the user).
    mutating func takeQueued(_ step: StageStep) -> JSONValue? {
        guard queuedStep == step, let first = queued.first else {
            queued = []
            queuedStep = nil
            return nil
        }
        queued = queued.dropFirst()
        queuedStep = step.next(in: intent)
        return first
    }

    /// Drops the replies of the last batch, for a run whose values changed since.
    mutating func dropQueued() {
        queued = []
        queuedStep = nil
    }

    /// Element `index` of a list value, or the value itself for index 0 of a single one.
    static func element(_ value: JSONValue?, _ index: Int) -> JSONValue? {
        guard let items = value?.arrayValue else { return index == 0 ? value : nil }
        return items.indices.contains(index) ? items[index] : nil
    }

    /// Puts `value` in place of element `index` of a list parameter (or the whole value).
    static func replacing(_ current: JSONValue?, at index: Int, with value: JSONValue, list: Bool) -> JSONValue {
        guard list else { return value }
        var items = current?.arrayValue ?? []
        let new = value.arrayValue ?? [value]
        if items.indices.contains(index) {
            items.replaceSubrange(index...index, with: new)
        } else {
            items += new
        }
        return .array(items)
    }

    /// The end of a run whose extension answered what the host cannot read: `invalidReply`,
    /// or `outcomeUnknown` once the handle was sent, since the extension may have done it.
    func unreadable(_ message: String) -> Outcome {
        guard handleSent else { return end(.failure, ErrorCode.invalidReply.rawValue, message) }
        // The extension answered: sent again with the key, it gives the same answer back.
        return end(.failure, ErrorCode.outcomeUnknown.rawValue, message + "; the handle may have been done (check in \(app): sent again, it answers the same)")
    }

    func end(_ kind: Outcome.Kind, _ code: String, _ message: String, response: IntentResponse? = nil) -> Outcome {
        var outcome = Outcome(
            outcome: kind, code: code, app: app, intent: intent.name, sessionId: sessionId,
            resolutions: resolutions, response: response, message: message)
        if handleSent { outcome.idempotencyKey = idempotencyKey }
        return outcome
    }
}
