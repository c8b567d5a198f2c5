import Foundation
import Synchronization

/// Where an extension keeps the handles it completed, by idempotency key, with the reply
/// it sent: a handle sent again with the same key gets that reply and is not done again.
///
/// `ExtensionStorage.SandboxJournal` keeps them in the app's SQLite database, in the same
/// transactions as its writes; without one the SDK keeps them in memory (`MemoryJournal`).
public protocol HandleJournal: Sendable {
    /// The reply recorded for `key`; throws `IdempotencyKeyReused` if `key` was used for
    /// another intent.
    func reply(for key: String, intent: String) async throws -> [UInt8]?

    /// Records the reply to the handle `key`; the first record of a key wins.
    func record(_ reply: [UInt8], for key: String, intent: String) async throws
}

/// Keeps completed handles in memory, for a process's life: the most recent 10 000, none
/// older than a day. Retries that reach a restarted process are not recognised; extensions
/// with data on disk should use `ExtensionStorage.SandboxJournal`.
public final class MemoryJournal: HandleJournal {
    private struct Table {
        var replies: [String: (intent: String, reply: [UInt8], time: Date)] = [:]
        var order: [String] = []
        var head = 0
    }

    private let table = Mutex(Table())
    /// How many keys are kept.
    public static let capacity = 10_000
    /// How long a key is kept.
    public static let maxAge: TimeInterval = 86_400

    /// An empty journal.
    public init() {}

    public func reply(for key: String, intent: String) async throws -> [UInt8]? {
        try recorded(key, intent: intent)
    }

    public func record(_ reply: [UInt8], for key: String, intent: String) async {
        keep(reply, for: key, intent: intent)
    }

    /// `reply(for:intent:)` without leaving the caller's thread.
    func recorded(_ key: String, intent: String) throws -> [UInt8]? {
        let done = table.withLock { $0.replies[key] }
        guard let done, Date().timeIntervalSince(done.time) < Self.maxAge else { return nil }
        guard done.intent == intent else { throw IdempotencyKeyReused(key: key) }
        return done.reply
    }

    /// `record(_:for:intent:)` without leaving the caller's thread.
    func keep(_ reply: [UInt8], for key: String, intent: String) {
        table.withLock { t in
            guard t.replies[key] == nil else { return }
            t.replies[key] = (intent, reply, Date())
            t.order.append(key)
            while t.order.count - t.head > Self.capacity {
                t.replies[t.order[t.head]] = nil
                t.head += 1
            }
            if t.head > 1024, t.head * 2 > t.order.count {
                t.order.removeFirst(t.head)
                t.head = 0
            }
        }
    }
}
