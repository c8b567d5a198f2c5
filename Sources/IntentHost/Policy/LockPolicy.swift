import Foundation
import IntentProtocol

/// The device lock state, kept in `STATE/lock` so it survives a host restart, and the
/// rule that an intent restricted while locked never reaches its extension then.
struct LockPolicy {
    private(set) var locked: Bool
    private let file: URL?

    /// Reads the saved state, or starts with `initial` when there is none.
    init(file: URL?, initial: Bool) {
        self.file = file
        if let file, let text = try? String(contentsOf: file, encoding: .utf8) {
            locked = text.trimmingCharacters(in: .whitespacesAndNewlines) == "locked"
        } else {
            locked = initial
        }
    }

    /// Locks or unlocks, and saves the state.
    mutating func set(locked: Bool) {
        self.locked = locked
        if let file { try? Data((locked ? "locked\n" : "unlocked\n").utf8).write(to: file, options: .atomic) }
    }

    /// Whether `intent` may go to `registration`'s extension now.
    func allows(_ intent: String, for registration: Registration) -> Bool {
        !(locked && registration.intentsRestrictedWhileLocked.contains(intent))
    }
}
