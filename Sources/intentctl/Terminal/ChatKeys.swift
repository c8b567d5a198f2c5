import Foundation
import IntentProtocol

/// The idempotency keys of a chat's requests: each new request gets one, and a request whose
/// outcome is unknown keeps its key (in the state directory, as an `UnsettledRequest`), so
/// that said again, in this chat or the next, it is done at most once.
struct ChatKeys {
    private let state: StateDirectory
    /// The request the open conversation started with, and its key.
    private var started: UnsettledRequest?
    private var unsettled: UnsettledRequest? {
        didSet { if unsettled != oldValue { UnsettledRequest.save(unsettled, in: state) } }
    }

    init(state: StateDirectory) {
        self.state = state
        unsettled = UnsettledRequest.load(from: state)
    }

    /// The key a new request saying `text` to `endpoint` goes with: the unsettled request's
    /// if it says that again, else a new one.
    mutating func start(_ text: String, to endpoint: String) -> String {
        let key = unsettled?.key(for: text, to: endpoint) ?? RequestAnnotation.makeKey()
        started = UnsettledRequest(text: text, key: key, endpoint: endpoint, time: Date().timeIntervalSince1970)
        return key
    }

    /// The answer to the started request was lost on the way: its key is kept until its
    /// outcome is known. The request, to say again.
    mutating func lost() -> UnsettledRequest? {
        unsettled = started
        return started
    }

    /// The started request's outcome came with `code`: unknown, it keeps its key; any other
    /// settles it (a conversation that ended with no outcome, called off, settles nothing).
    mutating func outcome(_ code: String) {
        if code == ErrorCode.outcomeUnknown.rawValue {
            unsettled = started
        } else if unsettled?.key == started?.key {
            unsettled = nil
        }
    }
}
