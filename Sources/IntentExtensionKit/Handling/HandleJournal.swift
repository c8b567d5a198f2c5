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
    private struct Done {
        let hash: Int
        let key: String
        let intent: String
        let reply: [UInt8]
        let time: Date
    }

    /// A ring of the newest keys, found by their hash: the oldest is overwritten in place,
    /// so keeping a key costs no removal from a table of strings.
    private struct Table {
        var ring: [Done?] = Array(repeating: nil, count: MemoryJournal.capacity)
        var slots: [Int: Int] = [:]
        var next = 0
        /// The bytes of the replies kept.
        var bytes = 0
        /// Keys whose handle runs now.
        var running: Set<String> = []

        /// The entry kept for `key`, if it is still young enough.
        func recorded(_ key: String) -> Done? {
            guard let done = slots[key.hashValue].flatMap({ ring[$0] }), done.key == key,
                Date().timeIntervalSince(done.time) < MemoryJournal.maxAge
            else { return nil }
            return done
        }

        /// Empties `slot`.
        mutating func forget(_ slot: Int) {
            guard let old = ring[slot] else { return }
            if slots[old.hash] == slot { slots[old.hash] = nil }
            bytes -= old.reply.count
            ring[slot] = nil
        }
    }

    private let table = Mutex(Table())
    /// How many keys are kept.
    public static let capacity = 10_000
    /// How many bytes of replies are kept at most: the oldest go first past it.
    public static let maxBytes = 64 << 20
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
        try table.withLock { $0.recorded(key) }.map { try Self.reply($0, for: key, intent: intent) }
    }

    /// What `begin` found for a key.
    enum Begun {
        /// It was done: its reply.
        case done([UInt8])
        /// A run of it goes on now.
        case running
        /// It was neither: it is marked running, for the caller to run.
        case started
    }

    /// In one step: the reply recorded for `key`; else whether a run of it goes on; else
    /// marks it running (`keep(_:for:intent:finishing:)` or `finish` end that).
    func begin(_ key: String, intent: String) throws -> Begun {
        let (done, started) = table.withLock { t in
            if let done = t.recorded(key) { return (Optional(done), false) }
            return (nil, t.running.insert(key).inserted)
        }
        if let done { return .done(try Self.reply(done, for: key, intent: intent)) }
        return started ? .started : .running
    }

    /// `done`'s reply, if it was for `intent`.
    private static func reply(_ done: Done, for key: String, intent: String) throws -> [UInt8] {
        guard done.intent == intent else { throw IdempotencyKeyReused(key: key) }
        return done.reply
    }

    /// `record(_:for:intent:)` without leaving the caller's thread; `finishing` also ends
    /// the run `begin` started, in the same step.
    func keep(_ reply: [UInt8], for key: String, intent: String, finishing: Bool = false) {
        let hash = key.hashValue
        let done = Done(hash: hash, key: key, intent: intent, reply: reply, time: Date())
        table.withLock { t in
            if finishing { t.running.remove(key) }
            if let slot = t.slots[hash], t.ring[slot]?.key == key { return }
            let slot = t.next
            t.forget(slot)
            t.ring[slot] = done
            t.slots[hash] = slot
            t.bytes += reply.count
            t.next = (slot + 1) % Self.capacity
            // Replies may be large: past the bound in bytes, the oldest go too.
            var oldest = t.next
            while t.bytes > Self.maxBytes, oldest != slot {
                t.forget(oldest)
                oldest = (oldest + 1) % Self.capacity
            }
        }
    }

    /// Marks `key`'s handle as no longer running.
    func finish(_ key: String) { table.withLock { _ = $0.running.remove(key) } }
}
