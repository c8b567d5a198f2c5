import Foundation
import IntentProtocol
import Understanding

/// One conversation, written straight through: understand the request, pick the app,
/// ask for its authorization the first time, then resolve every parameter (asking the
/// user what each resolution result calls for), confirm, and handle. Each question waits
/// for the user through `DialogSession`; "cancel" or silence ends it at any question.
struct Conversation: Sendable {
    let session: DialogSession
    let pack: LanguagePack
    let catalog: Catalog
    let host: any DialogHost
    let driver: LifecycleDriver
    let timeout: Duration
    /// The handle's idempotency key, when the client gave one (else the host makes one).
    var idempotencyKey: String? = nil
    /// Questions per parameter (and per unlock) before giving up politely.
    static let maximumAsks = 3

    private var words: Phrasebook { Phrasebook(pack: pack) }
    private var answers: AnswerReader { AnswerReader(pack: pack) }

    /// Why the conversation stops early.
    private enum Stop: Error {
        case cancelled
        case silence
        case ended(Turn)
    }

    /// Runs the conversation that `text` starts; returns its last turn.
    func run(_ text: String) async -> Turn {
        var context = Context(sessionId: session.id)
        do throws(Stop) {
            return try await converse(text, &context)
        } catch {
            switch error {
            case .cancelled: return context.turn(words.say("cancelled"), end: .cancelled)
            case .silence: return context.turn(words.say("timedOut"), end: .timedOut)
            case .ended(let turn): return turn
            }
        }
    }

    /// What the turns so far have established.
    private struct Context {
        let sessionId: String
        var app: String?
        var intent: String?

        func turn(_ text: String, end: EndReason, outcome: Outcome? = nil) -> Turn {
            Turn(sessionId: sessionId, app: app, intent: intent, text: text, end: end, outcome: outcome)
        }

        func question(_ text: String, _ expecting: Turn.Expectation, parameter: String? = nil, options: [String]? = nil) -> Turn {
            Turn(sessionId: sessionId, app: app, intent: intent, text: text, expecting: expecting, parameter: parameter, options: options)
        }
    }

    private func converse(_ text: String, _ context: inout Context) async throws(Stop) -> Turn {
        var world = await host.world()
        let reader = RequestReader(pack: pack, catalog: catalog)
        let request: UnderstoodRequest
        switch reader.read(text, apps: world.profiles) {
        case .cancel:
            return context.turn(words.say("nothingToCancel"), end: .cancelled)
        case .notUnderstood:
            return context.turn(words.say("notUnderstood"), end: .failed)
        case .capabilities(let app):
            return context.turn(capabilities(world, only: app), end: .completed)
        case .appCannotDo(let app, _):
            context.app = app
            return context.turn(words.say("appCannotDo", ["app": app]), end: .failed)
        case .request(let understood):
            request = understood
        }
        context.intent = request.intent
        guard let intent = catalog.intent(request.intent) else {
            return context.turn(words.say("noAppForIntent"), end: .failed)
        }

        // The app: named, the only one serving the intent, or the user's choice.
        var appName: String
        switch request.apps.count {
        case 0: return context.turn(words.say("noAppForIntent"), end: .failed)
        case 1: appName = request.apps[0]
        default:
            let options = request.apps
            let picked = try await choose(words.say("whichApp", ["options": words.list(options, or: true)]), options, context, parameter: nil)
            appName = options[picked]
        }
        context.app = appName

        // First use: ask; denied: refuse here, never reaching the extension.
        guard let app = world.app(appName) else { return context.turn(words.say("unavailable", ["app": appName]), end: .failed) }
        switch app.authorization {
        case .authorized: break
        case .denied, .restricted:
            return context.turn(words.say("denied", ["app": appName]), end: .failed)
        case .notDetermined:
            let allowed = try await yesNo(words.say("authorize", ["app": appName, "usage": app.registration.usageDescription]), context)
            await host.authorize(bundle: app.registration.bundleIdentifier, allowed ? .authorized : .denied)
            if !allowed { return context.turn(words.say("authorizeDenied", ["app": appName]), end: .cancelled) }
            world = await host.world()
        }

        var run = Run(app: appName, intent: intent, sessionId: session.id, language: pack.language, confirmed: false)
        if let idempotencyKey { run.idempotencyKey = idempotencyKey }
        // With an app that takes batches, what is left after each answer goes in one request.
        run.batched = driver.batchedStages && app.registration.takesBatches
        for (name, value) in request.parameters {
            guard let parameter = intent.parameter(name), let coerced = try? parameter.coerce(value) else { continue }
            run.parameters[name] = coerced
        }
        let profiles = world.app(appName).map { [$0.profile] } ?? []

        // Resolve, parameter by parameter, asking until each is settled.
        for (position, parameter) in intent.parameters.enumerated() {
            var asks = 0
            while true {
                let json = try await stage(.resolve(position), &run, context)
                let reply: ResolveReply
                do { reply = try ResolveReply(json: json) } catch {
                    return failed(run.end(.failure, ErrorCode.invalidReply.rawValue, "the resolve reply for \(parameter.name): \(error)"), context)
                }
                let before = run.parameters[parameter.name]
                if let problem = run.apply(reply.results, to: parameter) {
                    return failed(run.end(.failure, ErrorCode.invalidReply.rawValue, problem), context)
                }
                guard let index = reply.results.firstIndex(where: { !$0.isSettled }) else { break }
                run.resolutions.removeLast()
                asks += 1
                if asks > Self.maximumAsks { return context.turn(words.say("tooManyTries"), end: .failed) }
                let value = try await settle(reply.results[index], parameter, intent, &run, context, profiles, said: element(before, index))
                run.parameters[parameter.name] = replacing(before, at: index, with: value, list: parameter.isList)
                run.dropQueued()
            }
        }

        // Confirm; intents that need the user's yes ask for it with the app's summary.
        let confirm = try await respond(.confirm, &run, context)
        switch intent.responseCode(confirm.code)?.kind {
        case .failure?, .unspecified?:
            return failed(run.end(.failure, confirm.code, "\(appName) cannot do this now (\(confirm.code))", response: confirm), context)
        default: break
        }
        if intent.requiresUserConfirmation == true {
            let summary = words.summary(of: intent.name, values(run, confirm))
            guard try await yesNo(words.say("confirmIntent", ["summary": summary]), context) else {
                return context.turn(words.say("declined"), end: .cancelled, outcome: run.end(.needsUserInput, "userConfirmationRequired", "the user said no"))
            }
            run.confirmed = true
        }

        // Handle.
        let handled = try await respond(.handle, &run, context)
        switch intent.responseCode(handled.code)?.kind {
        case .success?:
            let outcome = run.end(.success, handled.code, "\(appName) did \(intent.name)", response: handled)
            return context.turn(words.result(of: intent.name, values(run, handled)), end: .completed, outcome: outcome)
        case .inProgress?:
            let outcome = run.end(.success, handled.code, "\(appName) is doing \(intent.name)", response: handled)
            let said = words.result(of: intent.name, values(run, handled))
            return context.turn(said.isEmpty ? words.say("inProgress", ["app": appName]) : said, end: .completed, outcome: outcome)
        default:
            return failed(run.end(.failure, handled.code, "\(appName) could not do \(intent.name) (\(handled.code))", response: handled), context)
        }
    }

    // MARK: Resolution turns

    /// Asks what `result` calls for and returns the value the user gave.
    private func settle(
        _ result: ResolutionResult, _ parameter: ParameterDefinition, _ intent: IntentDefinition, _ run: inout Run,
        _ context: Context, _ profiles: [AppProfile], said: JSONValue?
    ) async throws(Stop) -> JSONValue {
        let prompt = words.prompt(for: parameter, of: intent.name, values(run, nil))
        switch result {
        case .disambiguation(let options):
            let names = options.map { words.text(of: $0) ?? "?" }
            let picked = try await choose(words.say("disambiguation", ["options": words.numbered(names)]), names, context, parameter: parameter.name)
            return options[picked]
        case .confirmationRequired(let value):
            let name = words.text(of: value) ?? ""
            if try await yesNo(words.say("confirmValue", ["value": name]), context, parameter: parameter.name) { return value }
            return try await self.value(prompt, parameter, intent, context, profiles)
        case .unsupported(let reason):
            let value = said.flatMap { words.text(of: $0) }
            let why: String
            if let reason, let text = words.reason(reason), let value {
                why = words.say("unsupportedReason", ["value": value, "reason": text])
            } else if let value {
                why = words.say("unsupportedValue", ["app": run.app, "value": value])
            } else {
                why = words.say("unsupported", ["app": run.app])
            }
            return try await self.value(why + " " + prompt, parameter, intent, context, profiles)
        default:
            return try await self.value(prompt, parameter, intent, context, profiles)
        }
    }

    /// Asks for a value until the answer reads as one for `parameter`.
    private func value(
        _ question: String, _ parameter: ParameterDefinition, _ intent: IntentDefinition, _ context: Context, _ profiles: [AppProfile]
    ) async throws(Stop) -> JSONValue {
        try await keepAsking(question, again: words.say("needsValueAgain"), context, .value, parameter: parameter.name) { answer in
            answers.value(answer, for: parameter, intent: intent.name, apps: profiles).flatMap { try? parameter.coerce($0) }
        }
    }

    /// Asks the user to pick one of `options`; returns its index.
    private func choose(_ question: String, _ options: [String], _ context: Context, parameter: String?) async throws(Stop) -> Int {
        try await keepAsking(
            question, again: words.say("notAnOption", ["count": String(options.count)]), context, .choice,
            parameter: parameter, options: options
        ) { answers.choice($0, options: options) }
    }

    /// Asks a yes-or-no question.
    private func yesNo(_ question: String, _ context: Context, parameter: String? = nil) async throws(Stop) -> Bool {
        try await keepAsking(question, again: words.say("yesOrNo"), context, .yesNo, parameter: parameter) { answers.yesNo($0) }
    }

    /// Asks `question` until `read` makes sense of the answer, saying `again` before
    /// each repeat; after `maximumAsks` tries the conversation ends.
    private func keepAsking<Value>(
        _ question: String, again: String, _ context: Context, _ expecting: Turn.Expectation, parameter: String?,
        options: [String]? = nil, read: (String) -> Value?
    ) async throws(Stop) -> Value {
        var text = question
        for _ in 0..<Self.maximumAsks {
            let answer = try await listen(context.question(text, expecting, parameter: parameter, options: options))
            if let value = read(answer) { return value }
            text = again + " " + question
        }
        throw .ended(context.turn(words.say("tooManyTries"), end: .failed))
    }

    /// Sends a question and waits; "cancel" and silence stop the conversation.
    private func listen(_ turn: Turn) async throws(Stop) -> String {
        switch await session.ask(turn, via: host, timeout: timeout) {
        case .silence: throw .silence
        case .said(let text):
            if answers.isCancel(text) { throw .cancelled }
            return text
        }
    }

    // MARK: Stages

    /// Runs one stage; a refusal because the device is locked asks the user to unlock and
    /// runs the same stage again, so the intent continues where it stopped.
    private func stage(_ step: StageStep, _ run: inout Run, _ context: Context) async throws(Stop) -> JSONValue {
        var asks = 0
        while true {
            switch await driver.reply(for: step, &run) {
            case .success(let json): return json
            case .failure(let ended):
                guard ended.outcome.outcome == .refused, ended.outcome.code == ErrorCode.requiresUnlock.rawValue else {
                    throw .ended(failed(ended.outcome, context))
                }
                asks += 1
                if asks > Self.maximumAsks { throw .ended(context.turn(words.say("tooManyTries"), end: .failed, outcome: ended.outcome)) }
                _ = try await listen(context.question(words.say(asks == 1 ? "unlock" : "stillLocked"), .unlock))
            }
        }
    }

    private func respond(_ step: StageStep, _ run: inout Run, _ context: Context) async throws(Stop) -> IntentResponse {
        let json = try await self.stage(step, &run, context)
        switch driver.response(json, to: step.stage, run) {
        case .success(let response): return response
        case .failure(let ended): throw .ended(failed(ended.outcome, context))
        }
    }

    // MARK: Words

    /// The last turn for an outcome that went wrong, in words.
    private func failed(_ outcome: Outcome, _ context: Context) -> Turn {
        let app = outcome.app
        let text: String
        switch ErrorCode(rawValue: outcome.code) {
        case .extensionTimeout?, .extensionUnavailable?, .shuttingDown?:
            text = words.say("unavailable", ["app": app])
        case .notAuthorized?:
            text = words.say("denied", ["app": app])
        case .outcomeUnknown?:
            // Not a failure to report as one: it may have been done.
            text = words.say("outcomeUnknown", ["app": app])
        case .some:
            text = words.say("failed", ["app": app])
        case nil:
            if let reason = words.responseCode(outcome.code) ?? outcome.response?.response["reason"]?.stringValue {
                text = words.say("failedBecause", ["app": app, "reason": reason])
            } else {
                text = words.say("failed", ["app": app])
            }
        }
        return context.turn(text, end: .failed, outcome: outcome)
    }

    /// "What can you do?": each app with its example phrases.
    private func capabilities(_ world: DialogWorld, only: String?) -> String {
        let apps = world.apps.filter { only == nil || $0.registration.appName == only }
        guard !apps.isEmpty else { return words.say("capabilitiesNone") }
        var lines = [words.say("capabilities")]
        for app in apps.sorted(by: { $0.registration.appName < $1.registration.appName }) {
            let examples = (app.registration.vocabulary?.intentPhrases ?? []).flatMap(\.examples)
            let shown = examples.isEmpty ? app.registration.intentsSupported.map(Catalog.canonicalIntentName) : examples
            lines.append(words.say("capabilitiesApp", ["app": app.registration.appName, "examples": shown.map { "\u{201C}\($0)\u{201D}" }.joined(separator: ", ")]))
        }
        return lines.joined(separator: "\n")
    }

    /// The values sentences draw on: the resolved parameters, then the response's fields.
    private func values(_ run: Run, _ response: IntentResponse?) -> [String: JSONValue] {
        var values = run.parameters
        for (key, value) in response?.response ?? [:] { values[key] = value }
        return values
    }

    private func element(_ value: JSONValue?, _ index: Int) -> JSONValue? {
        guard let items = value?.arrayValue else { return index == 0 ? value : nil }
        return items.indices.contains(index) ? items[index] : nil
    }

    /// Puts `value` in place of element `index` of a list parameter (or the whole value).
    private func replacing(_ current: JSONValue?, at index: Int, with value: JSONValue, list: Bool) -> JSONValue {
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
}
