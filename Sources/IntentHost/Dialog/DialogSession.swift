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
        /// The question waiting, and when it was first asked.
        var asked: (turn: Turn, at: ContinuousClock.Instant)?
    }

    /// The longest a question waits in all, however long the user goes on typing.
    static let maximumWait = Duration.seconds(600)

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
                s.asked = (turn, .now)
                defer { s.requester = nil }
                return (s.requester, s.question)
            }
            if let requester { host.deliver(turn, to: requester) }
            expire(question, wait: 0, after: timeout)
        }
    }

    /// Keeps the question open `timeout` more from now, while the user types the answer
    /// (`Utterance.typing`), up to `maximumWait` since it was asked: the question's turn, with
    /// how long it now waits; nil when no question waits.
    func keepWaiting(timeout: Duration) -> Turn? {
        let kept = state.withLock { s -> (question: Int, wait: Int, turn: Turn, within: Duration)? in
            guard s.listener != nil, let asked = s.asked else { return nil }
            let within = min(timeout, Self.maximumWait - asked.at.duration(to: .now))
            guard within > .zero else { return nil }
            s.wait += 1
            var turn = asked.turn
            turn.answerWithinSeconds = Self.seconds(within)
            return (s.question, s.wait, turn, within)
        }
        guard let kept else { return nil }
        expire(kept.question, wait: kept.wait, after: kept.within)
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
