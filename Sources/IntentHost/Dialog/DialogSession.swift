import IntentProtocol
import Synchronization
import ZeroMQ

/// One conversation's meeting point between the conversation task, which asks and
/// waits, and the client's SAY requests, which answer and wait for the next turn.
final class DialogSession: Sendable {
    /// The session id clients answer with.
    let id: String
    /// The connection that started it: the only one whose answers it takes. Its id goes to
    /// extensions in every stage, and may reach other clients; an id alone proves nothing.
    let client: RoutingID
    private let state = Mutex(State())

    private struct State {
        /// The conversation, waiting for the user.
        var listener: CheckedContinuation<Heard, Never>?
        /// The client request waiting for the next turn.
        var requester: ClientAddress?
        /// Counts questions, so a timer for an earlier one cannot end a later one.
        var question = 0
        /// Counts the waits of this question, so a timer the user's typing replaced does not end it.
        var wait = 0
        /// The question waiting, when it was first asked, and until when it waits.
        var asked: (turn: Turn, at: ContinuousClock.Instant, until: ContinuousClock.Instant)?
    }

    /// The longest a question waits in all, however long the user goes on typing (at least
    /// the session timeout).
    static let maximumWait = Duration.seconds(600)
    /// A question waits longer at most this often, however often a client says the user types.
    static let keptAtMostEvery = Duration.seconds(1)

    /// What the conversation hears back.
    enum Heard: Sendable {
        case said(String)
        case silence
        /// The client called the conversation off (`Utterance.cancel`).
        case cancelled
    }

    init(id: String, requester: ClientAddress) {
        self.id = id
        client = requester.routingID
        state.withLock { $0.requester = requester }
    }

    /// Sends `turn` to the waiting client and waits for the answer, or for `timeout` of
    /// silence.
    func ask(_ turn: Turn, via host: any DialogHost, timeout: Duration) async -> Heard {
        await withCheckedContinuation { continuation in
            var turn = turn
            turn.answerWithinSeconds = Self.seconds(timeout)
            let (requester, question) = state.withLock { s in
                s.listener = continuation
                s.question += 1
                s.wait = 0
                s.asked = (turn, .now, .now + timeout)
                defer { s.requester = nil }
                return (s.requester, s.question)
            }
            if let requester { host.deliver(turn, to: requester) }
            expire(question, wait: 0, after: timeout)
        }
    }

    /// Keeps the question open `timeout` more from now, while the user types the answer
    /// (`Utterance.typing`), up to `maximumWait` (or `timeout`, if longer) since it was asked,
    /// and at most once every `keptAtMostEvery`: the question's turn, with how long it now
    /// waits; nil when no question waits. A wait is never made shorter.
    func keepWaiting(timeout: Duration) -> Turn? {
        let now = ContinuousClock.now
        let kept = state.withLock { s -> (turn: Turn, timer: (question: Int, wait: Int, after: Duration)?)? in
            guard s.listener != nil, var asked = s.asked else { return nil }
            let until = min(now + timeout, asked.at + max(Self.maximumWait, timeout))
            var timer: (Int, Int, Duration)?
            if until - asked.until >= Self.keptAtMostEvery {
                s.wait += 1
                asked.until = until
                s.asked = asked
                timer = (s.question, s.wait, now.duration(to: until))
            }
            var turn = asked.turn
            turn.answerWithinSeconds = Self.seconds(now.duration(to: asked.until))
            return (turn, timer)
        }
        guard let kept else { return nil }
        if let timer = kept.timer { expire(timer.question, wait: timer.wait, after: timer.after) }
        return kept.turn
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Hands the user's answer to the waiting conversation; false if it is not waiting
    /// (still working on the previous answer).
    func hear(_ heard: Heard, from requester: ClientAddress) -> Bool {
        let listener = state.withLock { s -> CheckedContinuation<Heard, Never>? in
            guard let listener = s.listener else { return nil }
            s.listener = nil
            s.requester = requester
            return listener
        }
        listener?.resume(returning: heard)
        return listener != nil
    }

    /// Sends the last turn to the waiting client, if one is waiting.
    func finish(_ turn: Turn, via host: any DialogHost) {
        if let requester = state.withLock({ s in defer { s.requester = nil }; return s.requester }) {
            host.deliver(turn, to: requester)
        }
    }

    /// Ends the wait `wait` of question `question` with silence after `timeout`, unless it
    /// was answered, or waited again, by then.
    private func expire(_ question: Int, wait: Int, after timeout: Duration) {
        Task { [weak self] in
            try? await Task.sleep(for: timeout)
            let listener = self?.state.withLock { s -> CheckedContinuation<Heard, Never>? in
                guard s.question == question, s.wait == wait, let listener = s.listener else { return nil }
                s.listener = nil
                return listener
            }
            listener?.resume(returning: .silence)
        }
    }
}
