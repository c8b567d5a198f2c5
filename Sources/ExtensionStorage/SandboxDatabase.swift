import Foundation
import GRDB
import IntentExtensionKit
import Synchronization

/// Opens an extension's SQLite database in its sandbox: write-ahead log, a busy timeout so
/// instances sharing the sandbox wait for each other's writes, and the schema created once
/// in a transaction that holds the write lock, so instances starting together do not race.
/// It also holds the journal of completed handles (`SandboxJournal`).
/// A database that fails SQLite's `quick_check` is not used: opening it throws `DamagedStore`.
public enum SandboxDatabase {
    /// Opens `name` in `directory`, calling `createSchema` if the database is new; throws
    /// `DamagedStore` if it is not a database or fails its integrity check.
    public static func open(
        _ name: String, in directory: URL, createSchema: @escaping @Sendable (Database) throws -> Void
    ) throws -> DatabasePool {
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
            try db.inTransaction(.immediate) {
                try SandboxJournal.createTable(db)
                guard try Int.fetchOne(db, sql: "PRAGMA user_version") == 0 else { return .commit }
                try createSchema(db)
                try db.execute(sql: "PRAGMA user_version = 1")
                return .commit
            }
        }
        return database
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
    /// alone holds every acknowledged write (a copy of it loses nothing). For a clean stop.
    public static func close(_ database: DatabasePool) {
        do {
            try database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            try database.close()
        } catch {
            FileHandle.standardError.write(Data("warning: closing \(database.path): \(error)\n".utf8))
        }
    }
}
