import Foundation
import IntentProtocol

/// The device lock state, kept in `STATE/lock` so it survives a host restart, and the
/// rule that an intent restricted while locked never reaches its extension then.
///
/// The state is on disk before it is acknowledged, and in doubt the device is locked: a
/// lock file that cannot be read, or says anything but "locked" or "unlocked", locks it.
struct LockPolicy {
    private(set) var locked: Bool
    /// Why the device starts locked against what was saved, if it does.
    let doubt: String?
    private let file: URL?

    /// Reads the saved state, or starts with `initial` when none was saved.
    init(file: URL?, initial: Bool) {
        self.file = file
        guard let file, FileManager.default.fileExists(atPath: file.path) else {
            (locked, doubt) = (initial, nil)
            return
        }
        switch (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "locked"?: (locked, doubt) = (true, nil)
        case "unlocked"?: (locked, doubt) = (false, nil)
        case nil: (locked, doubt) = (true, "the lock file \(file.path) cannot be read; starting locked")
        case let text?: (locked, doubt) = (true, "the lock file \(file.path) says \(text.prefix(40).debugDescription), not locked or unlocked; starting locked")
        }
    }

    /// Saves the new state, then applies it; if it cannot be saved, nothing changes.
    mutating func set(locked: Bool) throws(PolicyStateError) {
        if let file { try DurableFile.write(Array((locked ? "locked\n" : "unlocked\n").utf8), to: file) }
        self.locked = locked
    }

    /// Whether `intent` may go to `registration`'s extension now.
    func allows(_ intent: String, for registration: Registration) -> Bool {
        !(locked && registration.intentsRestrictedWhileLocked.contains(intent))
    }
}
