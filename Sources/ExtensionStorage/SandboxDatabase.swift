import Foundation
import GRDB
import IntentExtensionKit
import Synchronization

/// An extension's SQLite database in its sandbox: write-ahead log, a busy timeout so
/// instances sharing the sandbox wait for each other's writes, and the schema created once
/// in a transaction that holds the write lock, so instances starting together do not race.
/// It also holds the journal of completed handles (`SandboxJournal`).
/// A database that fails SQLite's `quick_check` is not used: opening it throws `DamagedStore`.
///
/// Reads run on a pool of connections and never wait for writes. Writes go through a
/// `GroupCommitWriter`: concurrent writes share one commit, and each returns once that
/// commit is on disk (`synchronous = FULL`; `INTENTD_STORE_SYNCHRONOUS=normal` trades that
/// for speed, see `synchronousMode`).
public final class SandboxDatabase: Sendable {
    /// The variable that chooses SQLite's `synchronous` setting for writes: `full` (the
    /// default: a write that returned survives a power cut) or `normal` (it survives the
    /// process's crash, but the last writes may be lost in a power cut or kernel crash).
    public static let synchronousVariable = "INTENTD_STORE_SYNCHRONOUS"

    /// The connections; read through `read`, write through `write` or `journaledWrite`.
    public let pool: DatabasePool
    /// Commits the writes, in groups.
    public let writer: GroupCommitWriter

    private init(pool: DatabasePool) {
        self.pool = pool
        writer = GroupCommitWriter(pool)
    }

    /// Reads from a snapshot of the committed data, on a reader connection's own thread.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await pool.read(value)
    }

    /// Reads on the calling thread (GRDB's blocking read), for a lookup by key that takes
    /// microseconds: sending it to a reader's thread and back cost more CPU than the lookup
    /// (about 0.2 ms per lifecycle in MonkeyChat, measured). Not for reads that may be long:
    /// the caller may be the thread that answers the host (`read` is for those).
    public func lookup<T>(_ value: (Database) throws -> T) throws -> T {
        try pool.read(value)
    }

    /// Writes in its own savepoint of the next group commit; returns once that is on disk.
    public func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.write(updates)
    }

    /// The `synchronous` setting `environment` asks for: FULL unless `synchronousVariable`
    /// says `normal`; any other value is refused rather than guessed.
    public static func synchronousMode(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        switch environment[synchronousVariable]?.lowercased() {
        case nil, "full": "FULL"
        case "normal": "NORMAL"
        case let other?:
            throw BadSetting(description: "\(synchronousVariable) must be full or normal, not \(other.prefix(20).debugDescription)")
        }
    }

    /// A setting in the environment that the store does not take.
    public struct BadSetting: Error, CustomStringConvertible {
        /// What is wrong, and what the setting takes.
        public let description: String
    }

    /// Opens `name` in `directory`, calling `createSchema` if the database is new; throws
    /// `DamagedStore` if it is not a database or fails its integrity check.
    public static func open(
        _ name: String, in directory: URL, environment: [String: String] = ProcessInfo.processInfo.environment,
        createSchema: @escaping @Sendable (Database) throws -> Void
    ) throws -> SandboxDatabase {
        let synchronous = try synchronousMode(environment)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        _ = watchForCorruption
        let path = directory.appendingPathComponent(name).path
        let database: DatabasePool
        do {
            database = try DatabasePool(path: path, configuration: configuration)
            let problems = try database.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(20)") }
            guard problems == ["ok"] else {
                throw DamagedStore("the store \(path) fails its integrity check: \(problems.prefix(3).joined(separator: "; "))")
            }
        } catch let error as DatabaseError where [ResultCode.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode) {
            throw DamagedStore("the store \(path) is damaged: \(error.message ?? "\(error)")")
        }
        checked.store(true, ordering: .relaxed)
        try database.writeWithoutTransaction { db in
            // GRDB sets NORMAL with the write-ahead log; only the writer connection commits.
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            try db.inTransaction(.immediate) {
                try SandboxJournal.createTable(db)
                guard try Int.fetchOne(db, sql: "PRAGMA user_version") == 0 else { return .commit }
                try createSchema(db)
                try db.execute(sql: "PRAGMA user_version = 1")
                return .commit
            }
        }
        return SandboxDatabase(pool: database)
    }

    /// Set once a store passed its check: from then on, SQLite reporting corruption ends the
    /// process with status 74 (the host shows it unhealthy) rather than let it acknowledge
    /// anything more.
    private static let checked = Atomic<Bool>(false)
    private static let watchForCorruption: Void = {
        Database.logError = { code, message in
            guard checked.load(ordering: .relaxed), [ResultCode.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(code.primaryResultCode) else { return }
            FileHandle.standardError.write(Data("fatal: the store is damaged (SQLite: \(message)); stopping before acknowledging anything more\n".utf8))
            _exit(DamagedStore.exitStatus)
        }
    }()

    /// Checkpoints the write-ahead log into the database file and closes it, so the file
    /// alone holds every acknowledged write (a copy of it loses nothing). For a clean stop:
    /// writes still queued are committed first.
    public func close() {
        do {
            _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            try pool.close()
        } catch {
            FileHandle.standardError.write(Data("warning: closing \(pool.path): \(error)\n".utf8))
        }
    }
}
