import Foundation
import IntentProtocol
import Synchronization
import Understanding
import ZeroMQ

/// Keeps the conversations: starts one for each new utterance, hands answers to the one
/// they name, and remembers how recent ones ended. Thread-safe; the broker calls `hear`.
final class DialogEngine: Sendable {
    private let languages: [String: LanguagePack]
    private let defaultLanguage: String
    private let catalog: Catalog
    private let host: any DialogHost
    private let driver: LifecycleDriver
    private let timeout: Duration
    private let limits: ConversationLimits
    private let sessions = Mutex(OpenSessions())
    private let ended = Mutex<EndedSessions>(EndedSessions())
    private let shown: Mutex<ShownResults>

    /// What became of a SAY.
    enum Heard {
        /// A conversation took it; its next turn will answer.
        case taken
        /// Answer at once with this turn.
        case answer(Turn)
        /// Answer at once with this error.
        case error(ErrorCode, String)
    }

    init(
        languages: [String: LanguagePack], defaultLanguage: String, catalog: Catalog, host: any DialogHost,
        driver: LifecycleDriver, timeout: Duration, limits: ConversationLimits = AdmissionLimits.defaults.conversations
    ) {
        self.languages = languages
        self.defaultLanguage = defaultLanguage
        self.catalog = catalog
        self.host = host
        self.driver = driver
        self.timeout = timeout
        self.limits = limits
        shown = Mutex(ShownResults(catalog: catalog))
    }

    /// Whether the conversation `id` is still going.
    func isActive(_ id: String) -> Bool { sessions.withLock { $0.byID[id] != nil } }

    /// Takes one utterance from a client, which proved `key` (CURVE), if any.
    func hear(_ utterance: Utterance, from requester: ClientAddress, key: String? = nil) -> Heard {
        let client = ShownResults.Client(routingID: requester.routingID, key: key)
        if let id = utterance.sessionId {
            // A conversation is answered from the connection that started it; to any other
            // it does not exist. One that ended is kept as ended before it is closed.
            if let turn = ended.withLock({ $0.turn(id, for: requester.routingID) }) { return .answer(turn) }
            if let session = sessions.withLock({ $0.byID[id] }), session.client == requester.routingID {
                // The user is typing the answer: the question waits again from now.
                if utterance.typing == true, utterance.cancel != true {
                    guard let question = session.keepWaiting(timeout: timeout) else {
                        return .error(.sessionBusy, "the conversation \(id) is not waiting for an answer")
                    }
                    return .answer(question)
                }
                return session.hear(utterance.cancel == true ? .cancelled : .said(utterance.text), from: requester)
                    ? .taken : .error(.sessionBusy, "the conversation \(id) is still working on the last answer")
            }
            return .error(.unknownSession, "there is no conversation \(id) on this connection; start a new one without a session id")
        }
        if utterance.cancel == true { return .error(.malformed, "cancel needs the sessionId of the conversation to call off") }
        if utterance.typing == true { return .error(.malformed, "typing needs the sessionId of the conversation being answered") }
        let language = utterance.language ?? defaultLanguage
        guard let pack = languages[language] else {
            return .error(.unknownLanguage, "there is no language file for \"\(language)\"; known: \(languages.keys.sorted().joined(separator: ", "))")
        }
        if let key = utterance.idempotencyKey, let problem = RequestAnnotation.problem(withKey: key) {
            return .error(.malformed, problem)
        }
        let session = DialogSession(id: UUID().uuidString, requester: requester)
        if let refusal = sessions.withLock({ $0.open(session, for: requester.routingID, within: limits) }) {
            return .error(.overloaded, refusal)
        }
        let (shownBefore, lastAnswer, asked) = shown.withLock { ($0.shown(to: client), $0.answer(to: client), $0.asked(by: client)) }
        let conversation = Conversation(
            session: session, pack: pack, catalog: catalog, host: host, driver: driver, timeout: timeout,
            idempotencyKey: utterance.idempotencyKey, firstWords: utterance.text, shown: shownBefore, lastAnswer: lastAnswer, asked: asked)
        // Off the broker thread: reading text costs more than routing a stage.
        Task { [self] in
            // One trace for the conversation: every stage it sends carries it, and so does its
            // outcome, for `intentctl logs --trace`.
            let trace = TraceParent.make()
            let ending = await LifecycleTrace.$current.withValue(trace) { await conversation.run(utterance.text) }
            var last = ending.last
            last.outcome?.traceparent = trace
            shown.withLock {
                if let outcome = last.outcome { $0.record(outcome, for: client, now: .now) }
                $0.record(asked: ending.done, mentioned: ending.mentioned, app: last.app, intent: last.intent, for: client, now: .now)
                if let answer = ending.answer { $0.record(answer: answer, app: last.app, intent: last.intent, for: client, now: .now) }
            }
            // A late answer to a timed-out session hears why; others hear that it ended. Kept
            // before the session closes, so no answer in between finds neither.
            let late = last.end == .timedOut ? last : Turn(
                sessionId: session.id, app: last.app, intent: last.intent, text: Phrasebook(pack: pack).say("ended"), end: last.end)
            ended.withLock { $0.add(late, for: requester.routingID) }
            sessions.withLock { $0.close(session.id, for: requester.routingID) }
            session.finish(last, via: host)
        }
        return .taken
    }
}

/// The last few thousand ended conversations, so a late answer learns how its ended.
struct EndedSessions {
    private var turns: [String: (turn: Turn, client: RoutingID)] = [:]
    private var order: [String] = []
    static let kept = 2_000

    /// How `id` ended, for the connection that started it.
    func turn(_ id: String, for client: RoutingID) -> Turn? { turns[id].flatMap { $0.client == client ? $0.turn : nil } }

    mutating func add(_ turn: Turn, for client: RoutingID) {
        turns[turn.sessionId] = (turn, client)
        order.append(turn.sessionId)
        if order.count > Self.kept {
            turns[order.removeFirst()] = nil
        }
    }
}
