import Foundation
import GRDB

/// Opens an extension's SQLite database in its sandbox: write-ahead log, a busy timeout so
/// instances sharing the sandbox wait for each other's writes, and the schema created once
/// in a transaction that holds the write lock, so instances starting together do not race.
/// It also holds the journal of completed handles (`SandboxJournal`).
public enum SandboxDatabase {
    /// Opens `name` in `directory`, calling `createSchema` if the database is new.
    public static func open(
        _ name: String, in directory: URL, createSchema: @escaping @Sendable (Database) throws -> Void
    ) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let database = try DatabasePool(path: directory.appendingPathComponent(name).path, configuration: configuration)
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
}
