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
/// back instead of writing again. Keys older than a day are pruned at every record; keys
/// beyond the newest 10 000, and the oldest past 64 MiB of replies, at every 100th record
/// of an instance (`pruneInterval`).
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
    /// How many records an instance makes between two prunes by count. Such a prune walks
    /// the newest `capacity` keys, too slow for every record; in between the table may
    /// hold up to this many more keys per instance.
    public static let pruneInterval = 100

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
            """)
    }

    /// The row (key, step), checked to belong to `intent`.
    static func recorded(_ db: Database, _ key: String, step: Int, intent: String) throws -> [UInt8]? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT intent, result FROM intentd_handled WHERE key = ? AND step = ?", arguments: [key, step])
        else { return nil }
        guard (row["intent"] as String?) == intent else { throw IdempotencyKeyReused(key: key) }
        return (row["result"] as Data?).map { Array($0) }
    }

    static func insert(_ db: Database, _ key: String, step: Int, intent: String, result: [UInt8]) throws {
        try db.execute(
            sql: "INSERT OR IGNORE INTO intentd_handled (key, step, intent, result, created) VALUES (?, ?, ?, ?, ?)",
            arguments: [key, step, intent, Data(result), Date().timeIntervalSince1970])
    }

    public func reply(for key: String, intent: String) async throws -> [UInt8]? {
        try await database.read { db in try Self.recorded(db, key, step: 0, intent: intent) }
    }

    public func record(_ reply: [UInt8], for key: String, intent: String) async throws {
        let pruneByCount = database.journalRecords.wrappingAdd(1, ordering: .relaxed).oldValue % Self.pruneInterval == 0
        try await database.write { [capacity, maxBytes] db in
            try Self.insert(db, key, step: 0, intent: intent, result: reply)
            // Bound the table: by age (a short walk of the index's oldest end), and now and
            // then by count of keys.
            try db.execute(
                sql: "DELETE FROM intentd_handled WHERE created < ?", arguments: [Date().timeIntervalSince1970 - Self.maxAge])
            guard pruneByCount else { return }
            try db.execute(sql: """
                DELETE FROM intentd_handled WHERE key IN (
                    SELECT key FROM intentd_handled WHERE step = 0 ORDER BY created DESC LIMIT -1 OFFSET ?)
                """, arguments: [capacity])
            // And by size: the newest keys whose replies (and steps) come to `maxBytes`.
            try db.execute(sql: """
                DELETE FROM intentd_handled WHERE key IN (
                    SELECT key FROM (
                        SELECT key, SUM(size) OVER (ORDER BY newest DESC) AS running FROM (
                            SELECT key, SUM(length(result)) AS size, MAX(created) AS newest FROM intentd_handled GROUP BY key))
                    WHERE running > ?)
                """, arguments: [maxBytes])
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
