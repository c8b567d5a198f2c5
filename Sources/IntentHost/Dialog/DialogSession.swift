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
    }

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
            let (requester, question) = state.withLock { s in
                s.listener = continuation
                s.question += 1
                defer { s.requester = nil }
                return (s.requester, s.question)
            }
            if let requester {
                var turn = turn
                turn.answerWithinSeconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
                host.deliver(turn, to: requester)
            }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.expire(question)
            }
        }
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

    private func expire(_ question: Int) {
        let listener = state.withLock { s -> CheckedContinuation<Heard, Never>? in
            guard s.question == question, let listener = s.listener else { return nil }
            s.listener = nil
            return listener
        }
        listener?.resume(returning: .silence)
    }
}
