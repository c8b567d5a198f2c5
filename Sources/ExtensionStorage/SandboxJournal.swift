import Foundation
import GRDB
import IntentExtensionKit

/// Completed handles by idempotency key, in the app's own SQLite database (the table
/// `intentd_handled`), so that a retried handle gets its first reply and is not done
/// twice, across restarts and across instances sharing the sandbox.
///
/// Two kinds of rows share the table, keyed by (key, step): step 0 is the reply the SDK
/// sent; steps 1, 2, … are the results of the handle's writes made with `journaledWrite`,
/// each committed in the same savepoint of the same group commit as the write itself
/// (`GroupCommitWriter`). A retry of a handle whose
/// process died between its write and its reply finds the write done and gets its result
/// back instead of writing again. At every record, keys older than a day are pruned, and the
/// oldest keys with a reply (never the one just recorded) while more than 10 000 are kept or
/// all results come to more than 64 MiB; writes of a handle not answered yet stay a day.
/// The table `intentd_handled_totals` counts keys and bytes (kept by triggers), so that a
/// prune reads two numbers and the oldest rows, never the whole journal. Its statements are
/// prepared once per connection (`cachedStatement`): preparing them cost more than running them.
public struct SandboxJournal: HandleJournal {
    let database: SandboxDatabase
    let capacity: Int
    let maxBytes: Int
    /// How many keys are kept.
    public static let capacity = 10_000
    /// How many bytes of replies are kept.
    public static let maxBytes = 64 << 20
    /// How long a key is kept, in seconds.
    public static let maxAge: Double = 86_400

    /// The journal in `database` (opened with `SandboxDatabase.open`, which makes the
    /// table), keeping `capacity` keys.
    public init(_ database: SandboxDatabase, capacity: Int = Self.capacity, maxBytes: Int = Self.maxBytes) {
        self.database = database
        self.capacity = capacity
        self.maxBytes = maxBytes
    }

    static func createTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS intentd_handled (
                key TEXT NOT NULL, step INTEGER NOT NULL, intent TEXT NOT NULL, result BLOB NOT NULL,
                created REAL NOT NULL, PRIMARY KEY (key, step));
            CREATE INDEX IF NOT EXISTS intentd_handled_created ON intentd_handled (created);
            CREATE INDEX IF NOT EXISTS intentd_handled_replies ON intentd_handled (created) WHERE step = 0;
            CREATE TABLE IF NOT EXISTS intentd_handled_totals (
                id INTEGER PRIMARY KEY CHECK (id = 1), keys INTEGER NOT NULL, bytes INTEGER NOT NULL);
            INSERT OR IGNORE INTO intentd_handled_totals SELECT 1,
                (SELECT COUNT(*) FROM intentd_handled WHERE step = 0),
                (SELECT IFNULL(SUM(length(result)), 0) FROM intentd_handled);
            CREATE TRIGGER IF NOT EXISTS intentd_handled_added AFTER INSERT ON intentd_handled BEGIN
                UPDATE intentd_handled_totals SET keys = keys + (NEW.step = 0), bytes = bytes + length(NEW.result);
            END;
            CREATE TRIGGER IF NOT EXISTS intentd_handled_removed AFTER DELETE ON intentd_handled BEGIN
                UPDATE intentd_handled_totals SET keys = keys - (OLD.step = 0), bytes = bytes - length(OLD.result);
            END;
            """)
    }

    /// Deletes the oldest keys with a reply (every step of each) but `keeping` while more than
    /// `capacity` keys are kept or their results come to more than `maxBytes`. A key without
    /// its reply yet is a handle that may still be running or be retried: its writes stay (for
    /// a day, and count toward `maxBytes`), and so does the key just recorded.
    static func prune(_ db: Database, capacity: Int, maxBytes: Int, keeping: String) throws {
        // How many of the oldest replied keys to delete: those over `capacity`, else one (for bytes).
        let excess = try db.cachedStatement(sql: "SELECT MAX(1, keys - ?) FROM intentd_handled_totals WHERE keys > ? OR bytes > ?")
        let delete = try db.cachedStatement(
            sql: "DELETE FROM intentd_handled WHERE key IN (SELECT key FROM intentd_handled WHERE step = 0 AND key != ? ORDER BY created LIMIT ?)")
        while let oldest = try Int.fetchOne(excess, arguments: [capacity, capacity, maxBytes]) {
            try delete.execute(arguments: [keeping, oldest])
            guard db.changesCount > 0 else { return }
        }
    }

    /// The row (key, step), checked to belong to `intent`.
    static func recorded(_ db: Database, _ key: String, step: Int, intent: String) throws -> [UInt8]? {
        let select = try db.cachedStatement(sql: "SELECT intent, result FROM intentd_handled WHERE key = ? AND step = ?")
        guard let row = try Row.fetchOne(select, arguments: [key, step]) else { return nil }
        guard (row["intent"] as String?) == intent else { throw IdempotencyKeyReused(key: key) }
        return (row["result"] as Data?).map { Array($0) }
    }

    static func insert(_ db: Database, _ key: String, step: Int, intent: String, result: [UInt8]) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO intentd_handled (key, step, intent, result, created) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [key, step, intent, Data(result), Date().timeIntervalSince1970])
    }

    public func reply(for key: String, intent: String) async throws -> [UInt8]? {
        try database.lookup { db in try Self.recorded(db, key, step: 0, intent: intent) }
    }

    public func record(_ reply: [UInt8], for key: String, intent: String) async throws {
        try await database.write { [capacity, maxBytes] db in
            try Self.insert(db, key, step: 0, intent: intent, result: reply)
            try db.cachedStatement(sql: "DELETE FROM intentd_handled WHERE created < ?")
                .execute(arguments: [Date().timeIntervalSince1970 - Self.maxAge])
            try Self.prune(db, capacity: capacity, maxBytes: maxBytes, keeping: key)
        }
    }
}

extension SandboxDatabase {
    /// Writes (in its own savepoint of the next group commit, like `write`), recorded under
    /// the current handle's idempotency key (`HandleScope.current`) in that same savepoint:
    /// run again for the same key (a retry), it does not write again but returns the first
    /// run's result. A write whose handle's deadline passed before it could commit is rolled
    /// back and throws `HandleDeadlinePassed`. Outside a handle with a key it is a plain `write`.
    public func journaledWrite<T: Codable & Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard let scope = HandleScope.current else { return try await write(updates) }
        let step = scope.nextStep()
        return try await write { db in
            if let done = try SandboxJournal.recorded(db, scope.key, step: step, intent: scope.intent) {
                return try JSONDecoder().decode(Recorded<T>.self, from: Data(done)).value
            }
            let value = try updates(db)
            guard !scope.isPastDeadline else { throw HandleDeadlinePassed() }
            try SandboxJournal.insert(
                db, scope.key, step: step, intent: scope.intent, result: Array(try JSONEncoder().encode(Recorded(value: value))))
            return value
        }
    }

    /// `journaledWrite` for writes that return nothing.
    public func journaledWrite(_ updates: @escaping @Sendable (Database) throws -> Void) async throws {
        _ = try await journaledWrite { db -> Bool in
            try updates(db)
            return true
        }
    }
}

/// A write's result as recorded (wrapped, so that plain values encode as JSON objects).
private struct Recorded<T: Codable>: Codable {
    let value: T
}
