import Foundation
import IntentProtocol
import Synchronization
import Understanding

/// One conversation, written straight through: understand the request, pick the app,
/// ask for its authorization the first time, then run the lifecycle a SUBMIT runs
/// (`LifecycleDriver.drive`) with an asker that asks the user what each resolution result,
/// the lock and the intent's confirmation call for. Each question waits for the user
/// through `DialogSession`; "cancel" or silence ends it at any question.
struct Conversation: Sendable {
    let session: DialogSession
    let pack: LanguagePack
    let catalog: Catalog
    let host: any DialogHost
    let driver: LifecycleDriver
    let timeout: Duration
    /// The handle's idempotency key, when the client gave one (else the host makes one).
    var idempotencyKey: String? = nil
    /// What the user said first, which a request asked again with its key says again.
    var firstWords = ""
    /// What this client's conversations were last shown, for values the user does not say.
    var shown: ShownResults.Shown? = nil
    /// The last answer this client was given, to say again when asked ("read it to me").
    var lastAnswer: ShownResults.Answer? = nil
    /// What this client's user last asked an app for, for values carried over (`carriedFrom`).
    var asked: ShownResults.Asked? = nil
    /// What carries over when the conversation starts over: requests not done (said after a
    /// yes, or instead of an answer), which the last turn names, and what a replaced request had.
    private let setAside = SetAside()
    /// Questions per parameter (and per unlock) before giving up politely.
    static let maximumAsks = 3
    /// Times one question is said again when asked to ("say that again").
    static let maximumRepeats = 5

    private var words: Phrasebook { Phrasebook(pack: pack) }
    private var answers: AnswerReader { AnswerReader(pack: pack) }
    private var reader: RequestReader { RequestReader(pack: pack, catalog: catalog) }

    /// Why the conversation stops early.
    private enum Stop: Error {
        case cancelled
        case silence
        case ended(Turn)
        /// The user made a new request instead of answering: start over with it.
        case newRequest(String)
        /// The user said no to taking their words as the answer ("word for word?"): start
        /// over with them as a request, which they chose over the one asked about.
        case instead(String)
    }

    /// How many times one conversation starts over with a new request said instead of an answer.
    static let maximumNewRequests = 8

    /// How a conversation ended, for what the next ones of its client take from it.
    struct Ending {
        /// Its last turn.
        var last: Turn
        /// What that turn answered before requests set aside were named after it; nil when it
        /// said an earlier answer again.
        var answer: String?
        /// The values the user gave the intent it did; nil when it did none.
        var done: [String: JSONValue]?
        /// What the request it did said of other intents in passing (a kind of ride asked the price of).
        var mentioned: [IntentParameterName: JSONValue] = [:]
    }

    /// Runs the conversation that `text` starts.
    func run(_ text: String) async -> Ending {
        var last = await conversation(text)
        let answer = setAside.saidAgain.load(ordering: .relaxed) ? nil : last.text
        let done = setAside.done.withLock { $0 }.flatMap { $0.intent == last.outcome?.intent && last.outcome?.outcome == .success ? $0 : nil }
        let requests = setAside.requests.withLock { $0 }.map { "\u{201C}\($0)\u{201D}" }
        if !requests.isEmpty {
            last.text += " " + words.say(requests.count == 1 ? "setAside" : "setAsideSeveral", ["requests": words.list(requests)])
        }
        return Ending(last: last, answer: answer, done: done?.values, mentioned: done?.mentioned ?? [:])
    }

    private func conversation(_ text: String) async -> Turn {
        var text = text
        setAside.request.withLock { $0 = text }
        var context = Context(sessionId: session.id)
        for _ in 0...Self.maximumNewRequests {
            context = Context(sessionId: session.id)
            do throws(Stop) {
                return try await converse(text, &context)
            } catch {
                switch error {
                case .cancelled: return context.turn(words.say("cancelled"), end: .cancelled)
                case .silence: return context.turn(words.say("timedOut"), end: .timedOut)
                case .ended(let turn): return turn
                case .newRequest(let said), .instead(let said):
                    text = said
                    setAside.remove(said)
                    setAside.request.withLock { $0 = said }
                }
            }
        }
        return context.turn(words.say("tooManyTries"), end: .failed)
    }

    /// What carries over as the conversation starts over (see `setAside`), and the values of
    /// the request it did, for what later requests carry over.
    private final class SetAside: Sendable {
        /// At most this many are kept, the first ones, each cut to `maximumCharacters`.
        static let maximumRequests = 3
        static let maximumCharacters = 200
        let requests = Mutex<[String]>([])
        /// The request the conversation is about now, as said.
        let request = Mutex("")
        /// The app and intent whose confirmation the request starting over was said to.
        let answering = Mutex<(app: String?, intent: String?)>((nil, nil))
        /// Whether the confirmation was turned down with more said after the no.
        let declinedWithMore = Atomic(false)
        /// Whether the last turn says an earlier answer again: no new answer to keep.
        let saidAgain = Atomic(false)
        /// The request a request of the same kind replaced at its confirmation ("make it a
        /// Zippy Van instead"): its intent, app and values, which the new one keeps where it
        /// says nothing else.
        let replaced = Mutex<(intent: String, app: String, values: [String: JSONValue])?>(nil)
        /// The intent done, its values as done, and what its request said of other intents.
        let done = Mutex<(intent: String, values: [String: JSONValue], mentioned: [IntentParameterName: JSONValue])?>(nil)

        /// Whether `rest` says what the request being answered said ("yes, tell Coco I'm
        /// late" to the question about "tell Coco I'm late").
        func repeatsRequest(_ rest: String) -> Bool {
            let rest = PeerNames.fold(rest)
            let said = request.withLock { PeerNames.fold($0) }
            return !rest.isEmpty && (said.contains(rest) || rest.contains(said))
        }

        func add(_ request: String) {
            let shown = request.count > Self.maximumCharacters ? request.prefix(Self.maximumCharacters) + "…" : Substring(request)
            requests.withLock { if $0.count < Self.maximumRequests { $0.append(String(shown)) } }
        }

        /// Forgets the requests `said` repeats: the conversation starts over with it.
        func remove(_ said: String) {
            let said = PeerNames.fold(said)
            requests.withLock { $0.removeAll { said.contains(PeerNames.fold($0)) } }
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
        if answers.asksToSayAgain(text) {
            setAside.saidAgain.store(true, ordering: .relaxed)
            return sayAgain(world, context)
        }
        // No intent undoes another: the user hears what to ask for instead, and no app is asked.
        if answers.asksToUndo(text) { return context.turn(words.say("cannotUndo"), end: .failed) }
        // A request said where an app asked for a yes is read as said to that app ("make it a
        // van" where Zippy asked).
        let answering = setAside.answering.withLock { said in defer { said = (nil, nil) }; return said }
        let general = reader.read(text, apps: world.profiles, answering: answering.app, confirming: answering.intent)
        let reading = pointedAt(text, besides: general, reader, world) ?? followUp(text, after: general, world) ?? general
        // A yes or a no with no question asked is no request, however it reads ("no" is
        // close to a message attribute's words); "ok, thanks" is a thanks.
        if reading != .closing, answers.isOnlyYesOrNo(text) { return context.turn(words.say("notUnderstood"), end: .failed) }
        var request: UnderstoodRequest
        switch reading {
        case .closing:
            return context.turn(words.say(answers.takesLeave(text) && words.has("leaving") ? "leaving" : "closing"), end: .completed)
        case .greeting:
            return context.turn(words.say("greeting"), end: .completed)
        case .allow(let app):
            context.app = app
            return await allow(app, world, context)
        case .cancel:
            return context.turn(words.say("nothingToCancel"), end: .cancelled)
        case .declined:
            return context.turn(words.say("declined"), end: .completed)
        case .notUnderstood:
            // A change of mind with no question asked ("no, I meant Kiki" after a message was
            // sent) changes no request already over: the user hears so.
            return context.turn(words.say(answers.isCorrectionAlone(text) ? "lateCorrection" : "notUnderstood"), end: .failed)
        case .tooLong:
            return context.turn(words.say(words.has("tooLong") ? "tooLong" : "notUnderstood", ["limit": String(RequestReader.maximumWords)]), end: .failed)
        case .capabilities(let app):
            return context.turn(capabilities(world, only: app), end: .completed)
        case .appCannotDo(let app, _):
            context.app = app
            return context.turn(words.say("appCannotDo", ["app": app]), end: .failed)
        case .request(let understood):
            request = understood
        }
        // A change of mind the reading leaves out ("add butter to the shopping list, actually
        // olive oil" reads as butter) is not guessed at: nothing is done, and the user says
        // the request again as meant.
        if let correction = reader.unreadCorrection(in: text, reading: request, apps: world.profiles) {
            if answers.isCorrectionAlone(text) { return context.turn(words.say("lateCorrection"), end: .failed) }
            return context.turn(words.say("changedMind", ["correction": correction]), end: .cancelled)
        }
        // Two requests said as one ("cancel the ride and text Coco I'll be late"): the first
        // is done, and the last turn says the second was not.
        // A message, then one of its own to a contact ("text Kiki hi and text Coco bye"), may
        // be one message passing word on ("tell Kiki to grab the keys and text Coco when she's
        // home"): it is sent whole only when the user says so (below).
        var relays = false
        if let joined = reader.joined(text, reading: request, apps: world.profiles) {
            if joined.inFreeText {
                relays = true
            } else {
                request = joined.first
                setAside.request.withLock { $0 = joined.said }
                setAside.add(joined.second)
            }
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
            // Refused as SUBMIT refuses it (`notAuthorized`): `ask` exits as `send` does.
            let refused = Outcome(
                outcome: .refused, code: ErrorCode.notAuthorized.rawValue, app: appName, intent: intent.name, sessionId: session.id,
                message: Admission.notAllowed(appName))
            return context.turn(words.say("denied", ["app": appName]), end: .failed, outcome: refused)
        case .notDetermined:
            // Another request said instead of a yes ("what did coco say"): this one is not done,
            // and the last turn says so.
            let allowed = try await unlessReplaced(intent: intent.name, app: appName) { () async throws(Stop) in
                try await yesNo(words.say("authorize", ["app": appName, "usage": app.registration.usageDescription]), context)
            }
            await host.authorize(bundle: app.registration.bundleIdentifier, allowed ? .authorized : .denied)
            if !allowed { return context.turn(words.say("authorizeDenied", ["app": appName]), end: .cancelled) }
            world = await host.world()
        }

        var run = Run(app: appName, intent: intent, sessionId: session.id, language: pack.language, confirmed: false)
        if let idempotencyKey {
            run.idempotencyKey = idempotencyKey
            run.keyFromClient = true
            run.asked = .string(RequestAnnotation.saidAlike(firstWords))
        }
        // With an app that takes batches, what is left after each answer goes in one request.
        run.batched = driver.batchedStages && app.registration.takesBatches
        for (name, value) in request.parameters {
            guard let parameter = intent.parameter(name), let coerced = try? parameter.coerce(value) else { continue }
            // "send the same to Little Bobo": what the same is was not kept, so it is asked for
            // (only where it is required, and so asked: elsewhere the words stay as said).
            if parameter.isFreeText, parameter.isRequired, let said = value.stringValue, answers.isSameAsBefore(said) { continue }
            // Words that only point back ("mark them all as done") name nothing: what was
            // shown gives the value (below), or it is asked for.
            if !parameter.isFreeText, answers.onlyPoints(value) { continue }
            run.parameters[name] = coerced
        }
        // A request that replaced one of its kind at its confirmation keeps what that one had
        // and it does not say: "make it a Zippy Van instead" still goes where the first went.
        if let replaced = setAside.replaced.withLock({ value in defer { value = nil }; return value }),
            replaced.intent == intent.name, replaced.app == appName
        {
            for (name, value) in replaced.values where run.parameters[name] == nil { run.parameters[name] = value }
        }
        carryValues(into: &run, request, world)
        let inferredPerson = takeShownValues(into: &run, text, request)
        let profiles = world.app(appName).map { [$0.profile] } ?? []
        // Free text that takes itself back partway ("text Kiki the guitar is optional, actually
        // never mind", "text Coco no wait, Kiki: …"), opens by correcting a name ("tell Coco
        // I mean Kiki to bring the speaker") or holds a message of its own is used word for
        // word only when the user says so, and so is a question passed on that could not be
        // asked directly ("ask Mojo if he can pick up her kids"). A no stops, so that the request
        // can be said again as meant: each on its own, or the message as it should be sent.
        // So is free text of a question no pattern read ("what groups do I have?" is no
        // message "do I have?" to a group "what").
        for parameter in intent.parameters where parameter.isFreeText {
            guard let said = run.parameters[parameter.name]?.stringValue else { continue }
            let takesBack = answers.takesItselfBack(said) || answers.nameCorrection(said).map { profiles.contactOpens(Token.split($0)) } == true
            let keptQuestion = request.questionKeptAsSaid == parameter.name
                || (request.isReadByPhrases && answers.opensWithQuestionWord(text))
            guard relays || takesBack || keptQuestion || inferredPerson else { continue }
            // Only the person was taken from what was shown: "Send Coco “later”?"
            let onlyInferred = !(relays || takesBack || keptQuestion)
            let question = words.say(onlyInferred ? "sendToShown" : "wordForWordOrStop", for: intent.name, value: said, values(run, nil))
            if try await !yesNo(question, context, parameter: parameter.name) {
                if onlyInferred { return context.turn(words.say("declined"), end: .cancelled) }
                let declined = takesBack ? "declinedWithMore" : relays ? "declinedJoined" : "declinedQuestion"
                return context.turn(words.say(declined), end: .cancelled)
            }
        }

        // The lifecycle every SUBMIT runs too, asking the user wherever the user has a say.
        let said = Set(run.parameters.keys)
        var asker = Asking(conversation: self, context: context, profiles: profiles)
        let outcome = try await driver.drive(&run, asking: &asker)
        switch outcome.outcome {
        case .success:
            // What the user gave, said or answered; not what the app filled in ("Current Location").
            let given = said.union(asker.answered)
            setAside.done.withLock { $0 = (intent.name, run.parameters.filter { given.contains($0.key) }, request.mentioned) }
            // Work under way is not work done: the result's words ("I sent …") wait for it.
            if intent.responseCode(outcome.code)?.kind == .inProgress {
                return context.turn(words.say("inProgress", ["app": appName]), end: .completed, outcome: outcome)
            }
            return context.turn(words.result(of: intent.name, values(run, outcome.response)), end: .completed, outcome: outcome)
        case .needsUserInput where outcome.code == "userConfirmationRequired":
            let more = setAside.declinedWithMore.load(ordering: .relaxed)
            return context.turn(words.say(more ? "declinedWithMore" : "declined"), end: .cancelled, outcome: outcome)
        default:
            return failed(outcome, context)
        }
    }

    /// What the user last asked the app for, where the catalog carries it over and the
    /// request says none of it: "book a Zippy Pool" after "how much is a ride to Union
    /// Square?" goes there (and the ride is confirmed first); "book one to the pier" is
    /// another trip, from where the user is; "book it" after "how much is a van to Union
    /// Square?" books a Zippy Van, what was said of the booking in passing. While locked,
    /// nothing comes from an intent restricted then (the confirmation would say it).
    private func carryValues(into run: inout Run, _ request: UnderstoodRequest, _ world: DialogWorld) {
        let (app, carried) = (run.app, run.intent.parameters.filter { $0.carriedFrom != nil })
        guard !carried.isEmpty, !carried.contains(where: { request.parameters[$0.name] != nil }) else { return }
        if world.lockCloses(asked?.intent, of: app) { return }
        for parameter in carried where run.parameters[parameter.name] == nil {
            guard let value = parameter.carriedFrom?.lazy.compactMap(IntentParameterName.init)
                .compactMap({ asked?.value(of: $0, app: app, now: .now) }).first,
                let coerced = try? parameter.coerce(value)
            else { continue }
            run.parameters[parameter.name] = coerced
        }
        // What the price question said of the booking in passing: "how much would a Zippy Van be?".
        for parameter in run.intent.parameters where run.parameters[parameter.name] == nil {
            let target = IntentParameterName(intent: run.intent.name, parameter: parameter.name)
            guard let value = asked?.mentioned(target, app: app, now: .now), let coerced = try? parameter.coerce(value) else { continue }
            run.parameters[parameter.name] = coerced
        }
    }

    /// Values not said but just shown: "mark them as read" after a search (catalog `from`),
    /// only when the words point back at them ("them", "those", "reply"); "mark them all as
    /// done" is about more than one, so a one-value parameter is asked for, and "snooze
    /// that" about one, so several shown are asked about. People are taken
    /// only when they are one ("reply on my way" to the messages of one sender); returns
    /// whether one was, since what is sent them is confirmed first: the words may have
    /// meant something else.
    private func takeShownValues(into run: inout Run, _ text: String, _ request: UnderstoodRequest) -> Bool {
        guard answers.pointsBack(text, besides: request.parameters) else { return false }
        let app = run.app
        var inferredPerson = false
        for parameter in run.intent.parameters where run.parameters[parameter.name] == nil {
            if !parameter.isList, answers.pointsAtSeveral(text) { continue }
            guard var values = parameter.from?.references.lazy.compactMap({ shown?.values(for: $0, app: app, now: .now) }).first else { continue }
            if parameter.type == .person {
                values = values.reduce(into: []) { kept, value in if !kept.contains(value) { kept.append(value) } }
                if values.count > 1 { continue }
                inferredPerson = true
            } else if parameter.isList, values.count > 1, !answers.pointsAtSeveral(text) {
                // "push that to Friday" after eight tasks were shown points at one of them:
                // which is asked. Only words for several ("them", "all of them") take every one.
                continue
            }
            // In the parameter's type: a person's name becomes a person.
            if parameter.isList {
                run.parameters[parameter.name] = try? parameter.coerce(.array(values.map(JSONValue.string)))
            } else if values.count == 1 {
                run.parameters[parameter.name] = try? parameter.coerce(.string(values[0]))
            }
        }
        return inferredPerson
    }

    /// "Allow Zippy": the user's yes to the app, as at its first use (or after a no), told
    /// only once the host has it; a policy's restriction stays, and a locked device changes
    /// no decision (whoever holds it is not known to be the user).
    private func allow(_ appName: String, _ world: DialogWorld, _ context: Context) async -> Turn {
        guard let app = world.app(appName) else { return context.turn(words.say("unavailable", ["app": appName]), end: .failed) }
        if app.authorization == .restricted { return context.turn(words.say("allowRestricted", ["app": appName]), end: .failed) }
        if world.locked, app.authorization != .authorized { return context.turn(words.say("allowLocked", ["app": appName]), end: .failed) }
        if app.authorization != .authorized { await host.authorize(bundle: app.registration.bundleIdentifier, .authorized) }
        guard await host.world().app(appName)?.authorization == .authorized else {
            return context.turn(words.say("allowNotSaved", ["app": appName]), end: .failed)
        }
        return context.turn(words.say("allowed", ["app": appName]), end: .completed)
    }

    /// The last answer this client was given, said again; not while the device is locked
    /// when it was about an app's intent restricted then, or one not known now (the lock
    /// fails closed).
    private func sayAgain(_ world: DialogWorld, _ context: Context) -> Turn {
        guard let last = lastAnswer?.current(at: .now) else { return context.turn(words.say("nothingToSayAgain"), end: .failed) }
        var context = context
        (context.app, context.intent) = (last.app, last.intent)
        if let app = last.app, world.lockCloses(last.intent, of: app) {
            return context.turn(words.say("sayAgainLocked", ["app": app]), end: .failed)
        }
        return context.turn(last.text, end: .completed)
    }

    /// `text` read as a request to the app that just showed something, when it points back
    /// at it and names no app, by one of that app's intents taking values it showed and
    /// something more the words say: "flag them" after a MonkeyChat search flags those
    /// messages, not a List-o-Mat task; "add passport to it" after a note was made adds to
    /// the note, not to a list. A pointing word inside a value of the `general` reading
    /// points at nothing ("remind me to call her tomorrow" is a reminder).
    private func pointedAt(_ text: String, besides general: Understood, _ reader: RequestReader, _ world: DialogWorld) -> Understood? {
        let values = if case .request(let request) = general { request.parameters } else { [String: JSONValue]() }
        guard let shown, answers.pointsBack(text), var profile = world.app(shown.app)?.profile else { return nil }
        // A request that takes back its own words points at nothing shown: "add butter to
        // groceries, actually no make it olive oil" is a change of mind, not "mark it".
        if case .request(let request) = general, reader.unreadCorrection(in: text, reading: request, apps: world.profiles) != nil { return nil }
        // What was shown decides: after a note, "add the charger to it" is the note's. With
        // none of its values kept (a search that found nothing), the intents that take what
        // it shows, whose questions then say how to show some ("flag them").
        let now = ContinuousClock.now
        func intents(taking takes: (ShownSources) -> Bool) -> [String] {
            profile.intents.filter { catalog.intent($0)?.parameters.contains { $0.from.map(takes) == true } == true }
        }
        let takingShown = intents { $0.references.contains { shown.values(for: $0, app: shown.app, now: now) != nil } }
        profile.intents = takingShown.isEmpty ? intents { $0.shows(shown.intent) } : takingShown
        guard case .request(let request) = reader.pointingBack().read(text, apps: [profile]), request.namedApp == nil, !request.parameters.isEmpty,
            // Read by a pattern that points back ("mark it as done"), or pointing outside
            // what the general reading took as values.
            reader.pointsBack(request) || answers.pointsBack(text, besides: values)
        else { return nil }
        return .request(request)
    }

    /// `text` read as a follow-up on what the user just asked an app (language `followUps`:
    /// "and to union square?" after the prices of a ride), when nothing else reads it: that
    /// request again, with what the words say instead and the rest as asked before. Not
    /// while the device is locked and the app restricts the intent then (the lock fails
    /// closed, as for values carried over).
    private func followUp(_ text: String, after general: Understood, _ world: DialogWorld) -> Understood? {
        guard general == .notUnderstood, let asked = asked?.current(at: .now), let app = world.app(asked.app),
            app.profile.intents.contains(asked.intent)
        else { return nil }
        if world.lockCloses(asked.intent, of: asked.app) { return nil }
        var profile = app.profile
        profile.intents = [asked.intent]
        guard case .request(var request) = reader.followingUp(asked.intent).read(text, apps: [profile]), reader.followsUp(request) else {
            return nil
        }
        for (name, value) in asked.values where request.parameters[name] == nil { request.parameters[name] = value }
        if request.mentioned.isEmpty { request.mentioned = asked.mentioned }
        return .request(request)
    }

    /// The conversation's say in a lifecycle: each question goes to the user.
    private struct Asking: LifecycleAsker {
        typealias Stop = Conversation.Stop

        let conversation: Conversation
        let context: Context
        let profiles: [AppProfile]
        /// The parameters the user answered a question about.
        var answered: Set<String> = []

        mutating func value(
            for result: ResolutionResult, of parameter: ParameterDefinition, _ run: Run, said: JSONValue?, asked: Int
        ) async throws(Stop) -> JSONValue? {
            if asked >= Conversation.maximumAsks { throw .ended(context.turn(conversation.words.say("tooManyTries"), end: .failed)) }
            answered.insert(parameter.name)
            // Another request said instead of a value ("mark the cake done" where a list was
            // asked for): this one is not done, and the last turn says so. One of its kind with
            // the same items replaces it, keeping what else it said but what a message says,
            // which is said again.
            let others = run.parameters.filter { $0.key != parameter.name }
            let kept = others.filter { run.intent.parameter($0.key)?.isFreeText != true }
            return try await conversation.unlessReplaced(intent: run.intent.name, app: run.app, values: kept, said: others) { () async throws(Stop) in
                try await conversation.settle(result, parameter, run.intent, run, context, profiles, said: said)
            }
        }

        func unlock(_ refused: Outcome, asked: Int) async throws(Stop) -> Bool {
            if asked >= Conversation.maximumAsks {
                throw .ended(context.turn(conversation.words.say("tooManyTries"), end: .failed, outcome: refused))
            }
            let answer = try await conversation.unlessReplaced(intent: context.intent, app: context.app) { () async throws(Stop) in
                try await conversation.listen(context.question(conversation.words.say(asked == 0 ? "unlock" : "stillLocked"), .unlock))
            }
            // "nah", "no": the user will not unlock; nothing is done.
            if conversation.answers.yesNo(answer) == false { throw .cancelled }
            return true
        }

        func confirm(_ run: Run, _ response: IntentResponse) async throws(Stop) -> Bool {
            let summary = conversation.words.summary(of: run.intent.name, conversation.values(run, response))
            let question = conversation.words.say("confirmIntent", ["summary": summary])
            var asked = question
            var looks = 0
            while true {
                do {
                    var said = ""
                    let yes = try await conversation.keepAsking(
                        asked, again: conversation.words.say("yesOrNo"), repeating: question, context, .yesNo, parameter: nil, confirming: summary
                    ) { answer in
                        said = answer
                        return conversation.answers.yesNo(answer)
                    }
                    // "no, golden gate park": what follows the no is not taken as a change; the
                    // last turn says how to make one ("wait, no, keep it" only says no twice).
                    if !yes, let more = conversation.answers.afterNo(said), conversation.answers.yesNo(more) == nil {
                        conversation.setAside.declinedWithMore.store(true, ordering: .relaxed)
                    }
                    return yes
                } catch {
                    // "how much?" where a ride waits for its yes: a look, run in passing, and
                    // the question asked again after what it showed.
                    if looks < Conversation.maximumAsks, let shown = await conversation.lookInPassing(error, about: run, context) {
                        asked = shown + " " + question
                        looks += 1
                        continue
                    }
                    await conversation.setAsideUnlessReplaced(error, intent: run.intent.name, app: run.app, values: run.parameters)
                    throw error
                }
            }
        }
    }

    // MARK: Resolution turns

    /// Asks what `result` calls for and returns the value the user gave.
    private func settle(
        _ result: ResolutionResult, _ parameter: ParameterDefinition, _ intent: IntentDefinition, _ run: Run,
        _ context: Context, _ profiles: [AppProfile], said: JSONValue?
    ) async throws(Stop) -> JSONValue {
        let prompt = words.prompt(for: parameter, of: intent.name, values(run, nil))
        switch result {
        case .disambiguation(let options):
            let names = options.map { words.text(of: $0) ?? "?" }
            // One of them by number or name, or another of the app's names instead ("Kiki" to
            // "Which one: Bobo Jr., Bobo the Great or Little Bobo?", "no, Kiki", "actually Kiki"):
            // that one, resolved again.
            return try await keepAsking(
                words.say("disambiguation", in: "\(intent.name).\(parameter.name)", ["options": words.numbered(names)]),
                again: notAnOption(names.count), context, .choice, parameter: parameter.name, options: names
            ) { text -> JSONValue? in
                if let picked = answers.choice(text, options: names) { return options[picked] }
                guard let other = [text, answers.afterNo(text), answers.correction(text)].compactMap({ $0 }).first(where: { Self.isName($0, of: profiles) })
                else { return nil }
                return readValue(other, for: parameter, intent, profiles)
            }
        case .confirmationRequired(let value, let reason):
            let name = words.text(of: value) ?? ""
            if let answer = try await confirmValue(name, value, reason, parameter, intent, context, profiles) { return answer }
            return try await self.value(prompt, parameter, intent, context, profiles)
        case .unsupported(let reason):
            let value = said.flatMap { parameter.type == .dateTime ? words.spokenDate($0) ?? words.text(of: $0) : words.text(of: $0) }
            let why: String
            if let reason, let value, let text = words.reason(reason, value: value, of: parameter.name, app: run.app) {
                why = words.say("unsupportedReason", ["value": value, "reason": text])
            } else if let value {
                why = words.say("unsupportedValue", ["app": run.app, "value": value])
            } else {
                why = words.say("unsupported", ["app": run.app])
            }
            return try await self.value(why + " " + prompt, repeating: prompt, parameter, intent, context, profiles)
        default:
            return try await self.value(prompt, parameter, intent, context, profiles)
        }
    }

    /// Asks whether the app's `value` (`name`) is meant, for `confirmationRequired`: yes is
    /// it, no is none (nil inside), the name said again is it, and another of the app's names
    /// ("Kiki" to "Did you mean Kikki?", "no, Costco") is that one, as is another place,
    /// amount or time after a no ("no, 15" to "Tip $40.00?").
    private func confirmValue(
        _ name: String, _ value: JSONValue, _ reason: String?, _ parameter: ParameterDefinition, _ intent: IntentDefinition,
        _ context: Context, _ profiles: [AppProfile]
    ) async throws(Stop) -> JSONValue? {
        try await keepAsking(
            words.confirmation(of: name, reason: reason), again: words.say("yesOrNo"), context, .yesNo, parameter: parameter.name
        ) { text -> JSONValue?? in
            // "no, Costco": the no turns the name down and gives another of the app's names
            // ("no, the other one" is only a no), or another place ("no, golden gate park"),
            // amount or time ("no, 15"), which the app resolves in turn.
            if let rest = answers.afterNo(text), Self.isName(rest, of: profiles) || Self.saysItself.contains(parameter.type),
                let other = readValue(rest, for: parameter, intent, profiles)
            {
                return .some(other)
            }
            if let yes = answers.yesNo(text) { return yes ? .some(value) : .some(nil) }
            if !Self.folded(name).isEmpty, Self.folded(text) == Self.folded(name) { return .some(value) }
            guard Self.isName(text, of: profiles) else { return nil }
            return readValue(text, for: parameter, intent, profiles)
        }
    }

    /// Asks for a value (`askValue`). A look at what is asked about, said instead (a request
    /// for a read-only intent the parameter's values come `from`), is what the question invites.
    /// Where one value is asked for ("what lists do I have?" where a list was), its result is
    /// said and the question asked again; where several are ("show my unread messages" where
    /// the messages to mark are), the conversation starts over with it, and the request asked
    /// about is the user's to say again, pointing at them.
    private func value(
        _ question: String, repeating: String? = nil, _ parameter: ParameterDefinition, _ intent: IntentDefinition, _ context: Context,
        _ profiles: [AppProfile], looks: Int = 0
    ) async throws(Stop) -> JSONValue {
        do throws(Stop) {
            return try await askValue(question, repeating: repeating, parameter, intent, context, profiles)
        } catch {
            // Only a look: a list made where one is asked for ("create a list called Bakery with
            // rolls") is a request of its own, though "add … to it" then takes that list.
            guard case .newRequest(let said) = error, case .request(let request) = await reading(said), isLook(request, at: parameter)
            else { throw error }
            if !parameter.isList {
                if looks < Self.maximumAsks, let app = context.app, let shown = await look(request, in: app) {
                    let asked = repeating ?? question
                    return try await value(shown + " " + asked, repeating: asked, parameter, intent, context, profiles, looks: looks + 1)
                }
                // A look that cannot be run in passing starts over, and the request asked
                // about is said not done.
                setAside.add(setAside.request.withLock { $0 })
            }
            throw .instead(said)
        }
    }

    /// What a look said instead of an answer about `run` showed ("how much?" where a ride
    /// waits for its yes): a request to the same app for an intent that only shows
    /// (catalog `readOnly`), run in passing with what it does not say taken from `run`
    /// (where the ride goes); nil for anything else.
    private func lookInPassing(_ error: Stop, about run: Run, _ context: Context) async -> String? {
        guard case .newRequest(let said) = error, case .request(var request) = await reading(said, answering: run.app, confirming: run.intent.name),
            let intent = catalog.intent(request.intent), intent.isReadOnly
        else { return nil }
        for parameter in intent.parameters where request.parameters[parameter.name] == nil {
            if let value = run.parameters[parameter.name], run.intent.parameter(parameter.name)?.type == parameter.type {
                request.parameters[parameter.name] = value
            }
        }
        return await look(request, in: run.app, failing: context)
    }

    /// `request` run in passing, in `app`, with nobody to ask: its result in words, or nil
    /// when it needs the user or does not succeed (with `failing`, why it failed: "you have
    /// no ride booked").
    private func look(_ request: UnderstoodRequest, in app: String, failing: Context? = nil) async -> String? {
        guard request.apps.contains(app), request.namedApp.map({ $0 == app }) ?? true, let intent = catalog.intent(request.intent),
            await host.world().app(app)?.authorization == .authorized
        else { return nil }
        var run = Run(app: app, intent: intent, sessionId: session.id, language: pack.language, confirmed: false)
        for (name, value) in request.parameters {
            if let parameter = intent.parameter(name), let coerced = try? parameter.coerce(value) { run.parameters[name] = coerced }
        }
        var asker = RecordingAsker()
        let outcome = await driver.drive(&run, asking: &asker)
        if outcome.outcome == .failure, let failing { return failed(outcome, failing).text }
        guard outcome.outcome == .success else { return nil }
        return words.result(of: intent.name, values(run, outcome.response))
    }

    /// Asks for a value until the answer reads as one for `parameter`; asked again, the
    /// question is `repeating` (the prompt without why the value said before won't work).
    private func askValue(
        _ question: String, repeating: String?, _ parameter: ParameterDefinition, _ intent: IntentDefinition, _ context: Context,
        _ profiles: [AppProfile]
    ) async throws(Stop) -> JSONValue {
        var question = question
        for _ in 0..<Self.maximumAsks {
            var said = ""
            let again = words.say("needsValueAgain")
            defer { question = repeating ?? question }
            let value = try await keepAsking(
                question, again: again, repeating: repeating, context, .value, parameter: parameter.name, questionsAskAgain: parameter.type == .location
            ) { answer in
                // "how about union square?" where a place is asked for offers the place.
                let answer = parameter.type == .location ? answers.afterSuggestion(answer) ?? answer : answer
                said = answer
                // The request said again: with only the value asked for ("add it to the groceries
                // list" where the list was asked for, "message Coco" where a recipient was),
                // that value; with more ("add jam to my groceries list"), no answer, and the
                // conversation starts over with it. Another request that answers it (catalog
                // `answeredBy`: "a new list called Costco" where the list was asked for) gives
                // its one value. Free text is taken whole, but for the request said again with
                // only it ("make a new grocery list in List-o-Mat" where the name was asked for).
                let reading = reader.read(answer, apps: profiles)
                if case .request(let request) = reading {
                    if request.intent == intent.name, let said = request.parameters[parameter.name] {
                        if request.parameters.count == 1 { return try? parameter.coerce(said) }
                        // A list's element is read from the words ("send it to Coco" reads "it" as
                        // the message); anything else said with more starts over.
                        if !parameter.isList, !parameter.isFreeText { return nil }
                    }
                    if !parameter.isFreeText {
                        if let value = otherRequestsValue(request, for: parameter, app: context.app) { return value }
                        // The same request said again without what was asked ("add bread to my
                        // list" where the list was asked for) is no answer: the words are no list's name.
                        if request.intent == intent.name, request.parameters[parameter.name] == nil, !request.parameters.isEmpty { return nil }
                    }
                }
                // A question of the user's ("what's on it?" where a list was asked for, "where do
                // you go?" where a place was) is no title or place, and a thanks ("thanks, that's
                // all") no name, unless the app knows one by those words.
                if parameter.type == .string || parameter.type == .location, !parameter.isFreeText, answers.isQuestion(answer),
                    !Self.isName(answer, of: profiles)
                {
                    return nil
                }
                if reading == .closing, parameter.type == .string, !parameter.isFreeText, !Self.isName(answer, of: profiles) { return nil }
                // "All of them" where one task is asked for names none.
                if !parameter.isFreeText, answers.onlyPoints(.string(answer)) { return nil }
                return readValue(answer, for: parameter, intent, profiles)
            }
            // Free text that reads as a request of its own ("add batteries to my grocery list"
            // where a message was asked for) is taken word for word only when the user says
            // so; a no starts over with it as a request. A no first ("wait no, send it to
            // Bobo Jr.") corrects what was said before: the request is what follows. A
            // "what?" is taken word for word only when the user says so too, and so is a
            // question about someone ("what did he send me last?"), and "the same thing" (what
            // was sent before is not kept); a no asks again.
            // A correction naming someone or something the app knows ("no wait, I meant Coco",
            // "actually just Kiki"), or free text that takes itself back ("can you bring the
            // cake stand, never mind"), is taken word for word only when the user says so; a no
            // stops, so that the request can be said again as meant.
            guard parameter.isFreeText else { return value }
            let request = answers.afterNo(said) ?? said
            let unsure = answers.isUnsure(said) || answers.asksAboutSomeone(said) || answers.isSameAsBefore(said)
            let correcting = !unsure
                && (answers.correction(said).map { Self.isName($0, of: profiles) } == true
                    || (answers.takesItselfBack(said) && answers.afterNo(said) == nil))
            let asRequest = unsure || correcting ? false : await readsAsRequest(request, besides: parameter, of: intent)
            guard unsure || asRequest || correcting else { return value }
            let check = words.say(unsure ? "wordForWordOrAskAgain" : correcting ? "wordForWordOrStop" : "wordForWord", ["value": said])
            if try await yesNo(check, context, parameter: parameter.name) { return value }
            if correcting { throw .ended(context.turn(words.say("declinedWithMore"), end: .cancelled)) }
            if !unsure { throw .instead(request) }
        }
        throw .ended(context.turn(words.say("tooManyTries"), end: .failed))
    }

    /// `text` read as a value of `parameter`, in the parameter's type; nil if it reads as none.
    /// The types whose values are read from words alone, so that what follows a no is one
    /// only when it reads as such: a place, a number or a time ("no, the other one" is none).
    private static let saysItself: Set<ParameterType> = [.location, .number, .integer, .dateTime]

    private func readValue(_ text: String, for parameter: ParameterDefinition, _ intent: IntentDefinition, _ profiles: [AppProfile]) -> JSONValue? {
        answers.value(text, for: parameter, intent: intent.name, apps: profiles).flatMap { try? parameter.coerce($0) }
    }

    /// Whether `text`, said for `parameter`, reads as a request that says more than that
    /// parameter of `intent`.
    private func readsAsRequest(_ text: String, besides parameter: ParameterDefinition, of intent: IntentDefinition) async -> Bool {
        guard case .request(let request) = await reading(text), !request.parameters.isEmpty else { return false }
        return request.intent != intent.name || request.parameters.keys.contains { $0 != parameter.name }
    }

    /// What an answer that picks none of `count` options is told: "Please say 1, 2 or 3,
    /// or a name."; past four, "a number from 1 to 7".
    private func notAnOption(_ count: Int) -> String {
        if count > 4 { return words.say("notAnOptionOfMany", ["count": String(count)]) }
        return words.say("notAnOption", ["numbers": words.list((1...max(count, 1)).map(String.init), or: true)])
    }

    /// Asks the user to pick one of `options`; returns its index.
    private func choose(_ question: String, _ options: [String], _ context: Context, parameter: String?) async throws(Stop) -> Int {
        try await keepAsking(
            question, again: notAnOption(options.count), context, .choice,
            parameter: parameter, options: options
        ) { answers.choice($0, options: options) }
    }

    /// Asks a yes-or-no question.
    private func yesNo(_ question: String, _ context: Context, parameter: String? = nil) async throws(Stop) -> Bool {
        try await keepAsking(question, again: words.say("yesOrNo"), context, .yesNo, parameter: parameter) { answers.yesNo($0) }
    }

    /// Asks `question` until `read` makes sense of the answer, saying `again` before each
    /// repeat (of `repeating`, if given); after `maximumAsks` tries the conversation ends.
    /// `confirming` is the summary of the intent the question confirms ("Cancel your ride").
    private func keepAsking<Value>(
        _ question: String, again: String, repeating: String? = nil, _ context: Context, _ expecting: Turn.Expectation, parameter: String?,
        options: [String]? = nil, confirming: String? = nil, questionsAskAgain: Bool = false, read: (String) -> Value?
    ) async throws(Stop) -> Value {
        var text = question
        for _ in 0..<Self.maximumAsks {
            let answer = try await listen(context.question(text, expecting, parameter: parameter, options: options), confirming: confirming)
            if let value = read(answer) { return value }
            // A bare no where a value or a choice was asked for ("no" to "From which list?")
            // calls the request off, as "never mind" does.
            if expecting != .yesNo, answers.isOnlyYesOrNo(answer), answers.yesNo(answer) == false { throw .cancelled }
            // So does a thanks or a goodbye ("thanks, that's all").
            if expecting != .yesNo, await reading(answer) == .closing { throw .cancelled }
            // No answer to this question, but a request of its own ("send a message to Bobo
            // saying hi" where a name was asked for): start over with it. Where an intent is
            // being confirmed, words that only the asking app's phrases read are one too
            // ("make it a van" where Zippy asked).
            let asked = answer.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("?")
            let answering = confirming != nil && !asked ? (app: context.app, intent: context.intent) : (app: nil, intent: nil)
            // A question where a yes or no is asked, and no intent is being confirmed ("what
            // does that mean?" to "Allow it?"), is no new request: the question is asked again.
            let asks = expecting == .yesNo && confirming == nil && asked
            // Nor is one where a place is asked for ("where can you go?", `questionsAskAgain`),
            // which the host cannot answer: it says so.
            if questionsAskAgain, answers.isQuestion(answer) {
                text = words.say(words.has("questionNotAnswered") ? "questionNotAnswered" : "needsValueAgain") + " " + (repeating ?? question)
                continue
            }
            if !asks, await isRequest(answer, asking: context.app, answering: answering.app, confirming: answering.intent) {
                setAside.answering.withLock { $0 = answering }
                throw .newRequest(answer)
            }
            text = again + " " + (repeating ?? question)
        }
        throw .ended(context.turn(words.say("tooManyTries"), end: .failed))
    }

    /// Sends a question and waits; "cancel" and silence stop the conversation. Where the
    /// question confirms an intent (`confirming` its summary), "yes cancel it" to "Cancel
    /// your ride?" is a yes, not a call to stop; "say that again" sends it again.
    private func listen(_ turn: Turn, confirming summary: String? = nil, repeated: Int = 0) async throws(Stop) -> String {
        switch await session.ask(turn, via: host, timeout: timeout) {
        case .silence: throw .silence
        case .cancelled: throw .cancelled
        case .said(let text):
            // "Say that again" asks for the question again: no answer, name or request.
            if answers.asksToSayAgain(text) {
                guard repeated < Self.maximumRepeats else {
                    throw .ended(Turn(sessionId: turn.sessionId, app: turn.app, intent: turn.intent, text: words.say("tooManyTries"), end: .failed))
                }
                return try await listen(turn, confirming: summary, repeated: repeated + 1)
            }
            if let summary, answers.agreesInItsWords(text, confirming: summary) { return answers.plainYes }
            if answers.isCancelAnswer(text) { throw .cancelled }
            // "yes, and tell Coco I'm coming": the yes answers; the request is set aside,
            // and the last turn says it was not done. A no with a request starts over with it.
            if turn.expecting == .yesNo, let (yes, answer, rest) = answers.yesNoThen(text), yes {
                switch await reading(rest) {
                case .capabilities:
                    setAside.add(rest)
                    return answer
                case .request(let request):
                    // The request asked about, said again, is only a yes; the same kind saying
                    // something new ("yes, and also add plates") is another.
                    if !Self.isSame(request, intent: turn.intent, app: turn.app) || (!request.parameters.isEmpty && !setAside.repeatsRequest(rest)) {
                        setAside.add(rest)
                    }
                    return answer
                default: break
                }
            }
            if await isNewRequest(text, answering: turn) { throw .newRequest(text) }
            return text
        }
    }

    /// Whether `request` only looks at what `parameter`'s values come from (a read-only
    /// intent of its `from`): "what lists do I have?" where a list is asked for.
    private func isLook(_ request: UnderstoodRequest, at parameter: ParameterDefinition) -> Bool {
        parameter.from?.shows(request.intent) == true && catalog.intent(request.intent)?.isReadOnly == true
    }

    /// Whether `text`, said to `turn`'s question, is a new request rather than an answer.
    /// A bare yes or no and one of the options asked for are answers, and so is anything
    /// said where free text is asked for (catalog `freeText`: what a message says, a task's
    /// title) unless it names another app. Otherwise it is a new request when it reads as
    /// one that names an app ("List-o-Mat: what's on my hardware list?"), or that asks for
    /// something else with what it needs ("get me a ride to the airport" where a list's
    /// name was asked for), or for what shows the values asked for ("show my messages"
    /// where messages were), and is not a name the app gave.
    private func isNewRequest(_ text: String, answering turn: Turn) async -> Bool {
        if answers.isOnlyYesOrNo(text) { return false }
        let asked = turn.intent.flatMap { catalog.intent($0) }.flatMap { intent in turn.parameter.flatMap { intent.parameter($0) } }
        let freeText = turn.expecting == .value && asked?.isFreeText == true
        if turn.expecting == .choice, answers.choice(text, options: turn.options ?? []) != nil { return false }
        let profiles = await host.world().profiles
        let reading = reader.read(text, apps: profiles)
        // "show my groceries list" where a list was asked for is a look at one (what shows
        // the values asked for, saying which), though "{list} list" would phrase a name too.
        if let asked, case .request(let request) = reading, isLook(request, at: asked), !request.parameters.isEmpty, let asking = turn.app,
            request.apps.contains(asking), !Self.isName(text, of: profiles.filter { $0.name == asking })
        {
            return true
        }
        // "on the chores list please" where a task's list was asked for is its answer.
        if let asked, !freeText, let intent = turn.intent, answers.isPhrasedValue(text, for: asked, intent: intent) { return false }
        guard case .request(let request) = reading else { return false }
        // The same request said again with only the value asked for ("message Coco on
        // MonkeyChat" where a recipient was), or another that answers it, is the answer.
        if let asked, Self.isSame(request, intent: turn.intent, app: turn.app), request.parameters.count == 1, request.parameters[asked.name] != nil { return false }
        if let asked, otherRequestsValue(request, for: asked, app: turn.app) != nil { return false }
        // Where free text is asked for, only a request naming another app is one.
        if let named = request.namedApp { return !freeText || named != turn.app }
        if freeText { return false }
        // Reading is generous ("book club" reads as a ride with nowhere to go): a request
        // that says nothing of what it needs is not taken for a change of mind, unless it
        // asks for what would show the values asked for ("show my messages" where
        // messages were asked for).
        guard let asking = turn.app, !request.apps.contains(asking) || request.intent != turn.intent,
            !request.parameters.isEmpty || asked?.from?.shows(request.intent) == true
        else { return false }
        return !Self.isName(text, of: profiles.filter { $0.name == asking })
    }

    /// `body`, which asks the user something. Where another request is said instead of the
    /// answer (the stop starts over with it): "how far away is it?" where a ride waits for its yes, for an unlock, for a value or for a yes
    /// to one ("Did you mean Costco?"). The request asked about (`intent` of `app`) is not done, and
    /// the last turn says so. After a no ("no, tell Coco …") it was turned down; one of the
    /// same kind ("get me one to Union Square instead") replaces it, keeping its `values`.
    /// Where a value was asked for, one of the same kind replaces it only when its items
    /// are those the first `said` (a list's items add up; one value said anew is said
    /// instead): "add call mom to errands" where "remind me to call mom" asked which list,
    /// not "add batteries to errands", which is another request.
    private func unlessReplaced<T>(
        intent: String?, app: String?, values: [String: JSONValue] = [:], said: [String: JSONValue]? = nil,
        _ body: () async throws(Stop) -> T
    ) async throws(Stop) -> T {
        do throws(Stop) { return try await body() } catch {
            await setAsideUnlessReplaced(error, intent: intent, app: app, values: values, said: said)
            throw error
        }
    }

    /// What `unlessReplaced` does once `body` stopped with `error`.
    private func setAsideUnlessReplaced(
        _ error: Stop, intent: String?, app: String?, values: [String: JSONValue] = [:], said: [String: JSONValue]? = nil
    ) async {
        guard case .newRequest(let text) = error, answers.afterNo(text) == nil else { return }
        if let request = await sameKind(text, intent: intent, app: app), said.map({ sameItems(request, as: $0) }) ?? true {
            if let intent, let app { setAside.replaced.withLock { $0 = (intent, app, values) } }
            return
        }
        // The same items said to another intent of the app, as its answer may advise ("add
        // flip flops to the trip plan note" where a note was named for a list): done instead.
        if let said, let app, case .request(let request) = await reading(text), request.apps.contains(app), saysAgain(said, in: request) { return }
        setAside.add(setAside.request.withLock { $0 })
    }

    /// Whether `request` gives again every item of `said`, one value or a list's.
    private func saysAgain(_ said: [String: JSONValue], in request: UnderstoodRequest) -> Bool {
        func items(_ value: JSONValue) -> [String] { (value.arrayValue ?? [value]).map { PeerNames.fold(words.text(of: $0) ?? "") } }
        let given = Set(request.parameters.values.flatMap(items))
        let before = said.values.flatMap(items)
        return !before.isEmpty && before.allSatisfy { !$0.isEmpty && given.contains($0) }
    }

    /// `text` read as a request for `intent` of `app` (or naming no app), if it is one.
    private func sameKind(_ text: String, intent: String?, app: String?) async -> UnderstoodRequest? {
        // "and get Kiki one too" asks for another, not instead.
        if answers.startsWithAnd(text) { return nil }
        guard case .request(let request) = await reading(text, answering: app, confirming: intent), Self.isSame(request, intent: intent, app: app)
        else { return nil }
        return request
    }

    /// Whether every list `request` and `said` both give has the same items in each (but for
    /// case and punctuation).
    private func sameItems(_ request: UnderstoodRequest, as said: [String: JSONValue]) -> Bool {
        func items(_ value: JSONValue) -> Set<String> { Set((value.arrayValue ?? [value]).map { PeerNames.fold(words.text(of: $0) ?? "") }) }
        let intent = catalog.intent(request.intent)
        return request.parameters.allSatisfy { name, value in
            intent?.parameter(name)?.isList != true || said[name].map { items($0) == items(value) } ?? true
        }
    }

    /// Whether `request` asks for `intent` of `app`, naming that app or none.
    private static func isSame(_ request: UnderstoodRequest, intent: String?, app: String?) -> Bool {
        request.intent == intent && (request.namedApp ?? app) == app
    }

    /// The value `request` gives `parameter` when it is one of the requests that answer it
    /// (catalog `answeredBy`), for `app`, with that one value: "a new list called Costco"
    /// where a task's list was asked for.
    private func otherRequestsValue(_ request: UnderstoodRequest, for parameter: ParameterDefinition, app: String?) -> JSONValue? {
        guard let app, request.apps.contains(app), request.namedApp.map({ $0 == app }) ?? true,
            request.parameters.count == 1, let (name, value) = request.parameters.first,
            parameter.answeredBy?.contains(IntentParameterName(intent: request.intent, parameter: name).description) == true
        else { return nil }
        return try? parameter.coerce(value)
    }

    /// Whether `text` is one of the names (user vocabulary) the apps of `profiles` gave.
    private static func isName(_ text: String, of profiles: [AppProfile]) -> Bool {
        let said = folded(text)
        guard !said.isEmpty else { return false }
        return profiles.contains { $0.userVocabulary.values.contains { $0.contains { folded($0) == said } } }
    }

    /// `text` to compare as a name: lowercased, without surrounding spaces or a sentence's
    /// closing mark ("Book Club." is Book Club; "C#" stays C#).
    private static func folded(_ text: String) -> String {
        var text = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        while let last = text.last, ".!?".contains(last) { text = text.dropLast() }
        return text.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether `text`, which answers nothing asked, reads as a request (or "What can you
    /// do?") to start over with: one that names an app, asks the asking app for something
    /// else, or says what it needs. A bare reading for another app ("book club" as a ride
    /// with nowhere to go) is not taken for a change of mind: the question is asked again.
    /// Said to `answering`'s question, it may be read by that app's phrases alone.
    private func isRequest(_ text: String, asking app: String?, answering: String?, confirming intent: String?) async -> Bool {
        switch await reading(text, answering: answering, confirming: intent) {
        case .capabilities: true
        case .request(let request):
            request.namedApp != nil || !request.parameters.isEmpty || app.map { request.apps.contains($0) } ?? true
        default: false
        }
    }

    /// `text` read as a request, with the apps registered now; said where `app` asked
    /// something, also by that app's phrases ("a van" where Zippy asked for a yes), `intent`
    /// (the one it confirms) first.
    private func reading(_ text: String, answering app: String? = nil, confirming intent: String? = nil) async -> Understood {
        reader.read(text, apps: await host.world().profiles, answering: app, confirming: intent)
    }

    // MARK: Words

    /// The most characters of an app's error shown to the user.
    static let errorShown = 160

    /// An app's error as the user sees it: one line (its line breaks are spaces, so it
    /// cannot pass a line off as the assistant's), printable, at most `errorShown`
    /// characters and four times as many scalars (a letter with a thousand accents on it is
    /// one character).
    static func shownError(_ said: String) -> String {
        let line = String(String.UnicodeScalarView(said.unicodeScalars.prefix(4 * errorShown + 1).map { scalar -> Unicode.Scalar in
            [0x0A, 0x0D, 0x0B, 0x0C, 0x85, 0x2028, 0x2029].contains(scalar.value) ? " " : scalar
        }))
        let cut = line.count > errorShown || said.unicodeScalars.count > 4 * errorShown
        return PeerNames.printable(cut ? String(line.prefix(errorShown)) + "…" : line)
    }

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
            // Not a failure to report as one: it may have been done. A client that gave the key
            // says it again with that key, and it is done at most once.
            let keyed = idempotencyKey != nil && words.has("outcomeUnknownKeyed")
            text = words.say(keyed ? "outcomeUnknownKeyed" : "outcomeUnknown", ["app": app])
        case .extensionError? where words.has("failedError"):
            // What the app said of it, its words made printable and cut short ("database or
            // disk is full"). Nothing was done when the handle was never sent; an error reply
            // to the handle should mean so too (wire.md, section 5a), but that is the app's
            // word, which the host does not repeat as its own.
            let said = outcome.message.hasPrefix("\(app) reported an error: ") ? String(outcome.message.dropFirst("\(app) reported an error: ".count)) : outcome.message
            let error = Self.shownError(said)
            let inHandle = outcome.idempotencyKey != nil && words.has("failedErrorInHandle")
            text = words.say(inHandle ? "failedErrorInHandle" : "failedError", ["app": app, "error": error])
        case .invalidParameter? where idempotencyKey.map({ outcome.message == LifecycleDriver.keyOfAnotherRequest($0) }) == true
            && words.has("keyOfAnotherRequest"):
            text = words.say("keyOfAnotherRequest", ["app": app])
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

    /// "What can you do?": each app with its example phrases, else the language's example
    /// for each of its intents (the intent's name where there is none).
    private func capabilities(_ world: DialogWorld, only: String?) -> String {
        let apps = world.apps.filter { only == nil || $0.registration.appName == only }
        guard !apps.isEmpty else { return words.say("capabilitiesNone") }
        var lines = [words.say("capabilities")]
        for app in apps.sorted(by: { $0.registration.appName < $1.registration.appName }) {
            let examples = (app.registration.vocabulary?.intentPhrases ?? []).flatMap(\.examples)
            let appName = app.registration.appName
            let shown = examples.isEmpty ? languageExamples(for: app) : examples
            lines.append(words.say("capabilitiesApp", ["app": appName, "examples": shown.map { "\u{201C}\($0)\u{201D}" }.joined(separator: ", ")]))
        }
        return lines.joined(separator: "\n")
    }

    /// The language's example for each of `app`'s intents that reads back as that intent to
    /// that app (an app called "Messages" makes "Show my unread Messages messages"), else
    /// the intent's name.
    private func languageExamples(for app: DialogWorld.App) -> [String] {
        app.registration.intentsSupported.map(Catalog.canonicalIntentName).map { intent in
            guard let example = words.example(of: intent, app: app.registration.appName),
                case .request(let request) = reader.read(example, apps: [app.profile]), request.intent == intent
            else { return intent }
            return example
        }
    }

    /// The values sentences draw on: the resolved parameters, then the response's fields.
    private func values(_ run: Run, _ response: IntentResponse?) -> [String: JSONValue] {
        var values = run.parameters
        for (key, value) in response?.response ?? [:] { values[key] = value }
        return values
    }

}
