import IntentProtocol
import Logging
import Synchronization

/// Says in the host's log, as a warning, why an extension's answer ended a lifecycle badly
/// (a reply the host cannot read, an error, no answer in time): what the user only hears as
/// "couldn't do that" is there for the extension's author. At most `perApp` lines a second
/// for one app and `total` for all, so that a peer failing every request cannot flood the
/// log; the lines left out of an app's are counted in its next one.
final class ExtensionFaultLog: Sendable {
    /// The most of an outcome's message a line keeps.
    static let messageLength = 400
    /// Apps whose left-out lines are counted at once (more are counted with none).
    static let countedApps = 256

    static let codes: Set<String> = [
        ErrorCode.invalidReply.rawValue, ErrorCode.extensionError.rawValue, ErrorCode.extensionTimeout.rawValue,
        ErrorCode.outcomeUnknown.rawValue,
    ]

    private let log = Logger(label: HostLog.label)
    private let state: Mutex<(budget: PerSecondBudget<String>, left: [String: Int])>

    init(total: Int = 20, perApp: Int = 5) {
        state = Mutex((PerSecondBudget(total: total, perKey: perApp), [:]))
    }

    /// Notes how a lifecycle ended; logs it if an extension's answer is why.
    func note(_ outcome: Outcome) {
        guard outcome.outcome == .failure, Self.codes.contains(outcome.code) else { return }
        let app = outcome.app
        let left: Int? = state.withLock { state in
            guard state.budget.take(app, now: .now) else {
                if state.left[app] != nil || state.left.count < Self.countedApps { state.left[app, default: 0] += 1 }
                return nil
            }
            return state.left.removeValue(forKey: app) ?? 0
        }
        guard let left else { return }
        let more = left > 0 ? " (and \(left) more of \(PeerNames.loggable(app))'s left out since its last)" : ""
        let message = PeerNames.printable(String(outcome.message.prefix(Self.messageLength)))
        log.warning(
            "\(PeerNames.loggable(app)) failed \(outcome.intent) (\(outcome.code)): \(message)\(more)",
            metadata: ["app": "\(PeerNames.loggable(app))", "intent": "\(outcome.intent)", "session": "\(outcome.sessionId)"])
    }
}
