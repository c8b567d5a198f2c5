import Foundation
import Testing
@testable import IntentHost
import IntentProtocol

@Suite("The lock's saved state")
struct LockPolicyTests {
    func file(_ text: String?) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
        if let text { try Data(text.utf8).write(to: url) }
        return url
    }

    @Test("A lock file that says neither locked nor unlocked starts the device locked", arguments: ["", "unlock", "garbage\n", "\u{0}\u{1}"])
    func garbledFileFailsClosed(text: String) throws {
        let url = try file(text)
        defer { try? FileManager.default.removeItem(at: url) }
        let policy = LockPolicy(file: url, initial: false)
        #expect(policy.locked)
        #expect(policy.doubt != nil)
    }

    @Test("What was saved is what the next start finds, and no file means the initial state")
    func savedStateSurvives() throws {
        let url = try file(nil)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(LockPolicy(file: url, initial: false).locked == false)
        #expect(LockPolicy(file: url, initial: true).locked == true)
        var policy = LockPolicy(file: url, initial: false)
        try policy.set(locked: true)
        #expect(LockPolicy(file: url, initial: false).locked)
        try policy.set(locked: false)
        #expect(LockPolicy(file: url, initial: true).locked == false)
        #expect(LockPolicy(file: url, initial: true).doubt == nil)
    }

    @Test("A lock that cannot be saved is not applied")
    func unsavedLockIsNotApplied() throws {
        let url = URL(fileURLWithPath: "/proc/intentd-no-such-dir/lock")
        var policy = LockPolicy(file: url, initial: false)
        #expect(throws: PolicyStateError.self) { try policy.set(locked: true) }
        #expect(policy.locked == false)
    }
}
