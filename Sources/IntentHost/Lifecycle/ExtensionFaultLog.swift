import IntentProtocol
import Logging
import Synchronization

/// Says in the host's log, as a warning, why an extension's answer ended a lifecycle badly
/// (a reply the host cannot read, an error, no answer in time): what the user only hears as
/// "couldn't do that" is there for the extension's author. At most `perApp` lines a second
/// for one app and `total` for all, so that a peer failing every request cannot flood the
/// log; lines left out are counted in the next one.
final class ExtensionFaultLog: Sendable {
    static let codes: Set<String> = [
        ErrorCode.invalidReply.rawValue, ErrorCode.extensionError.rawValue, ErrorCode.extensionTimeout.rawValue,
        ErrorCode.outcomeUnknown.rawValue,
    ]

    private let log = Logger(label: HostLog.label)
    private let state: Mutex<(budget: PerSecondBudget<String>, left: Int)>

    init(total: Int = 20, perApp: Int = 5) {
        state = Mutex((PerSecondBudget(total: total, perKey: perApp), 0))
    }

    /// Notes how a lifecycle ended; logs it if an extension's answer is why.
    func note(_ outcome: Outcome) {
        guard outcome.outcome == .failure, Self.codes.contains(outcome.code) else { return }
        let left: Int? = state.withLock { state in
            guard state.budget.take(outcome.app, now: .now) else {
                state.left += 1
                return nil
            }
            defer { state.left = 0 }
            return state.left
        }
        guard let left else { return }
        let more = left > 0 ? " (and \(left) more such lines left out since the last)" : ""
        log.warning(
            "\(PeerNames.loggable(outcome.app)) failed \(outcome.intent) (\(outcome.code)): \(PeerNames.loggable(outcome.message))\(more)",
            metadata: ["app": "\(PeerNames.loggable(outcome.app))", "intent": "\(outcome.intent)", "session": "\(outcome.sessionId)"])
    }
}
