import Foundation

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
public actor MemoryJournal: HandleJournal {
    private var replies: [String: (intent: String, reply: [UInt8], time: Date)] = [:]
    private var order: [String] = []
    private var head = 0
    /// How many keys are kept.
    public static let capacity = 10_000
    /// How long a key is kept.
    public static let maxAge: TimeInterval = 86_400

    /// An empty journal.
    public init() {}

    public func reply(for key: String, intent: String) throws -> [UInt8]? {
        guard let done = replies[key], Date().timeIntervalSince(done.time) < Self.maxAge else { return nil }
        guard done.intent == intent else { throw IdempotencyKeyReused(key: key) }
        return done.reply
    }

    public func record(_ reply: [UInt8], for key: String, intent: String) {
        guard replies[key] == nil else { return }
        replies[key] = (intent, reply, Date())
        order.append(key)
        while order.count - head > Self.capacity {
            replies[order[head]] = nil
            head += 1
        }
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
