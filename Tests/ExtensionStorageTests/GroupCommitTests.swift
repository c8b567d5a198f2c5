import ExtensionStorage
import Foundation
import GRDB
import IntentExtensionKit
import Testing

/// Group commit on a real SQLite database in a temporary directory: writes queued together
/// share one commit, each gets its own result or error, none is answered before its commit,
/// a failed commit answers every write of its group with the error, and the journal of
/// completed handles still replays a retried handle.
@Suite("Group commit")
struct GroupCommitTests {
    /// A store with one table, `thing (title PRIMARY KEY)`, its commits watched.
    final class Store: Sendable {
        let directory: URL
        let database: SandboxDatabase
        let watch = CommitWatch()

        init(environment: [String: String] = [:]) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("group-commit-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            database = try SandboxDatabase.open("test.sqlite", in: directory, environment: environment) { db in
                try db.create(table: "thing") { t in t.primaryKey("title", .text) }
            }
            database.pool.add(transactionObserver: watch, extent: .observerLifetime)
        }

        deinit {
            database.close()
            try? FileManager.default.removeItem(at: directory)
        }

        func titles() throws -> Set<String> {
            try database.pool.read { db in Set(try String.fetchAll(db, sql: "SELECT title FROM thing")) }
        }
    }

    static func insert(_ db: Database, _ title: String) throws {
        try db.execute(sql: "INSERT INTO thing (title) VALUES (?)", arguments: [title])
    }

    /// What `body` returned or threw.
    static func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    /// Waits for `condition`, which the test makes true: gives up after 6,000 looks 5 ms
    /// apart (a bound, not a measurement). It counts looks rather than time, so a test
    /// that got no thread for a while on a busy machine is not failed for it.
    func eventually(_ what: Comment, _ condition: () -> Bool) async throws {
        var looks = 0
        while !condition() {
            looks += 1
            try #require(looks < 6_000, what)
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Holds the writer with one write at `gate`, so that what `enqueue` sends queues up;
    /// opens the gate once `count` writes wait, and returns the held write's result.
    func holdingTheWriter(_ store: Store, queue count: Int, _ enqueue: () -> Void) async throws -> Result<String, any Error> {
        let gate = WriterGate()
        // Opened on every path: a held writer would block the store's close for good.
        defer { gate.open() }
        let held = Task {
            try await store.database.write { db in
                gate.wait()
                try Self.insert(db, "held")
                return "held"
            }
        }
        try await eventually("the first write holds the writer") { gate.isHolding }
        enqueue()
        try await eventually("\(count) writes queue") { store.database.writer.queued == count }
        gate.open()
        return await held.result
    }

    /// Sends `count` writes while the writer is held, so that they commit in one group:
    /// write `i` runs `write(i, db)` and returns `i`. What each gave, by `i`.
    func writesInOneGroup(
        _ store: Store, count: Int, _ write: @escaping @Sendable (Int, Database) throws -> Void
    ) async throws -> [Int: Result<Int, any Error>] {
        try await withThrowingTaskGroup(of: (Int, Result<Int, any Error>).self) { group in
            _ = try await holdingTheWriter(store, queue: count) {
                for i in 0..<count {
                    group.addTask {
                        (i, await Self.outcome { try await store.database.write { db in try write(i, db); return i } })
                    }
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }

    @Test("Writes queued while a group commits go in the next group together, each gets its own result, and none returns before its commit")
    func queuedWritesShareOneCommit() async throws {
        let store = try Store()
        let before = store.watch.commits
        let results = try await withThrowingTaskGroup(of: (sent: Int, got: Int, commitsDuring: Int, commitsAfter: Int).self) { group in
            let held = try await holdingTheWriter(store, queue: 50) {
                for i in 0..<50 {
                    group.addTask {
                        let (got, during) = try await store.database.write { db in
                            try Self.insert(db, "w\(i)")
                            return (i, store.watch.commits)
                        }
                        return (i, got, during, store.watch.commits)
                    }
                }
            }
            #expect(try held.get() == "held")
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 50)
        for result in results {
            #expect(result.got == result.sent, "write \(result.sent) got another write's result")
            #expect(result.commitsAfter > result.commitsDuring, "write \(result.sent) returned before the commit that holds it")
        }
        #expect(store.watch.commits - before == 2, "the held write's commit, then one for the 50 queued behind it")
        #expect(try store.titles() == Set(["held"] + (0..<50).map { "w\($0)" }))
    }

    struct RefusedByTheApp: Error, Equatable { let index: Int }

    @Test("A write that fails in a group rolls back only itself and gets its own error; the others of the group commit")
    func failingWriteAffectsOnlyItself() async throws {
        let store = try Store()
        try await store.database.write { db in try Self.insert(db, "existing") }
        let before = store.watch.commits
        let outcomes = try await writesInOneGroup(store, count: 10) { i, db in
            try Self.insert(db, "w\(i)")
            if i == 3 { throw RefusedByTheApp(index: i) }  // after its insert, which must go
            if i == 6 { try Self.insert(db, "existing") }  // a constraint SQLite refuses
        }
        for (i, outcome) in outcomes {
            switch (i, outcome) {
            case (3, .failure(let error)): #expect(error as? RefusedByTheApp == RefusedByTheApp(index: 3))
            case (6, .failure(let error)): #expect((error as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT, "\(error)")
            case (_, .success(let got)): #expect(got == i && i != 3 && i != 6)
            case (_, .failure(let error)): Issue.record("write \(i) failed with another's error: \(error)")
            }
        }
        #expect(store.watch.commits - before == 2, "the held write's group, then the ten in one")
        #expect(try store.titles() == Set(["existing", "held"] + [0, 1, 2, 4, 5, 7, 8, 9].map { "w\($0)" }))
    }

    @Test("When a group's commit fails, every write of the group gets the error and none of it is stored; the next group commits")
    func failedCommitAcknowledgesNothing() async throws {
        let store = try Store()
        store.watch.failCommits(true)
        let outcomes = try await withThrowingTaskGroup(of: Result<Int, any Error>.self) { group in
            let held = try await holdingTheWriter(store, queue: 20) {
                for i in 0..<20 {
                    group.addTask { await Self.outcome { try await store.database.write { db in try Self.insert(db, "w\(i)"); return i } } }
                }
            }
            return try await group.reduce(into: [held.map { _ in -1 }]) { $0.append($1) }
        }
        #expect(outcomes.count == 21)
        for outcome in outcomes {
            guard case .failure = outcome else {
                Issue.record("a write was acknowledged though its commit failed: \(outcome)")
                continue
            }
        }
        #expect(try store.titles().isEmpty, "nothing of a failed commit is stored")

        store.watch.failCommits(false)
        #expect(try await store.database.write { db in try Self.insert(db, "after"); return 1 } == 1)
        #expect(try store.titles() == ["after"])
    }

    @Test("A write beyond the queue's capacity is refused at once and never done; the queued ones commit")
    func fullQueueRefuses() async throws {
        let store = try Store()
        let writer = GroupCommitWriter(store.database.pool, capacity: 4)
        let (outcomes, refused) = try await withThrowingTaskGroup(of: Result<Int, any Error>.self) { group in
            let gate = WriterGate()
            defer { gate.open() }
            let held = Task { try await writer.write { db in gate.wait(); return 0 } }
            try await eventually("the first write holds the writer") { gate.isHolding }
            for i in 1...4 { group.addTask { await Self.outcome { try await writer.write { db in try Self.insert(db, "w\(i)"); return i } } } }
            try await eventually("four writes queue") { writer.queued == 4 }
            let refused = await Self.outcome { try await writer.write { db in try Self.insert(db, "w5"); return 5 } }
            gate.open()
            _ = try await held.value
            return (try await group.reduce(into: []) { $0.append($1) }, refused)
        }
        #expect(outcomes.allSatisfy { (try? $0.get()) != nil })
        guard case .failure(let error) = refused else { Issue.record("a fifth write was queued"); return }
        #expect(error is WriteQueueFull, "\(error)")
        #expect(try store.titles() == ["w1", "w2", "w3", "w4"])
    }

    @Test("A retried handle gets its first run's result from the journal and writes nothing again, even when both runs are in one group")
    func retriedHandleReplaysItsFirstResult() async throws {
        let store = try Store()
        @Sendable func handle(_ key: String) async throws -> String {
            try await HandleScope.$current.withValue(HandleScope(key: key, intent: "AddThing", deadline: nil)) {
                try await store.database.journaledWrite { db in
                    let title = UUID().uuidString
                    try Self.insert(db, title)
                    return title
                }
            }
        }
        let runs = try await withThrowingTaskGroup(of: (String, String).self) { group in
            _ = try await holdingTheWriter(store, queue: 40) {
                for i in 0..<20 {
                    for _ in 0..<2 { group.addTask { ("key-\(i)", try await handle("key-\(i)")) } }
                }
            }
            return try await group.reduce(into: [String: [String]]()) { $0[$1.0, default: []].append($1.1) }
        }
        for (key, titles) in runs {
            let again = try await handle(key)
            #expect(Set(titles + [again]).count == 1, "\(key) got \(titles + [again])")
        }
        #expect(try store.titles().count == 21, "each key wrote once, besides the held write")
    }

    @Test("A journaled write whose handle's deadline has passed is rolled back and says so; the rest of its group commits")
    func pastDeadlineRollsBackOnlyItself() async throws {
        let store = try Store()
        let late = HandleScope(key: "late", intent: "AddThing", deadline: HandleScope.nowMilliseconds() - 1)
        let onTime = HandleScope(key: "on time", intent: "AddThing", deadline: nil)
        async let lateOutcome = Self.outcome {
            try await HandleScope.$current.withValue(late) { try await store.database.journaledWrite { db in try Self.insert(db, "late") } }
        }
        async let onTimeOutcome = Self.outcome {
            try await HandleScope.$current.withValue(onTime) { try await store.database.journaledWrite { db in try Self.insert(db, "on time") } }
        }
        let (lateResult, onTimeResult) = await (lateOutcome, onTimeOutcome)
        guard case .failure(let error) = lateResult else { Issue.record("a write past its deadline committed"); return }
        #expect(error is HandleDeadlinePassed, "\(error)")
        #expect((try? onTimeResult.get()) != nil)
        #expect(try store.titles() == ["on time"])
    }

    /// The journal's keys and bytes, counted from its rows.
    static func counted(_ store: Store) async throws -> (keys: Int, bytes: Int) {
        try await store.database.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM intentd_handled WHERE step = 0") ?? -1,
             try Int.fetchOne(db, sql: "SELECT IFNULL(SUM(length(result)), 0) FROM intentd_handled") ?? -1)
        }
    }

    /// The journal's keys and bytes as its totals table keeps them.
    static func totals(_ store: Store) async throws -> (keys: Int, bytes: Int) {
        try await store.database.read { db in
            (try Int.fetchOne(db, sql: "SELECT keys FROM intentd_handled_totals") ?? -1,
             try Int.fetchOne(db, sql: "SELECT bytes FROM intentd_handled_totals") ?? -1)
        }
    }

    @Test("The journal keeps exactly its capacity of newest keys, with every step of each, and recorded replies come back")
    func journalIsBounded() async throws {
        let store = try Store()
        let journal = SandboxJournal(store.database, capacity: 20)
        // A handle that wrote and has not replied yet: it may be retried, so its write stays.
        let running = HandleScope(key: "running", intent: "AddThing", deadline: nil)
        try await HandleScope.$current.withValue(running) { try await store.database.journaledWrite { db in try Self.insert(db, "running") } }
        for i in 0..<250 {
            // Every third key made a write of its own first (step 1), as a journaled handle does.
            if i % 3 == 0 {
                let scope = HandleScope(key: "key-\(i)", intent: "AddThing", deadline: nil)
                try await HandleScope.$current.withValue(scope) { try await store.database.journaledWrite { db in try Self.insert(db, "t\(i)") } }
            }
            try await journal.record(Array("reply \(i)".utf8), for: "key-\(i)", intent: "AddThing")
        }
        let keys = try await store.database.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT key FROM intentd_handled") }
        #expect(Set(keys) == Set((230..<250).map { "key-\($0)" } + ["running"]), "\(keys.count) keys kept")
        #expect(try await journal.reply(for: "key-249", intent: "AddThing") == Array("reply 249".utf8))
        #expect(try await journal.reply(for: "key-0", intent: "AddThing") == nil, "the oldest key was pruned")
        let (counted, kept) = (try await Self.counted(store), try await Self.totals(store))
        #expect(counted == kept, "the totals table counts what the journal holds")
    }

    @Test("The journal keeps at most its bytes of replies, the newest")
    func journalIsBoundedInBytes() async throws {
        let store = try Store()
        let journal = SandboxJournal(store.database, maxBytes: 100_000)
        let large = [UInt8](repeating: 0x61, count: 10_000)
        for i in 0..<30 { try await journal.record(large, for: "key-\(i)", intent: "AddThing") }
        let (keys, bytes) = try await Self.counted(store)
        #expect(keys == 10 && bytes == 100_000, "\(keys) keys, \(bytes) bytes kept")
        #expect(try await journal.reply(for: "key-29", intent: "AddThing") == large)
        #expect(try await journal.reply(for: "key-19", intent: "AddThing") == nil)
        #expect(try await Self.totals(store) == (keys, bytes))
    }

    @Test("A reply just recorded and its writes are kept even when unanswered handles' writes alone pass the bound in bytes")
    func journalKeepsTheKeyItRecords() async throws {
        let store = try Store()
        let journal = SandboxJournal(store.database, maxBytes: 100_000)
        // Three handles that wrote 40 KB each and never replied (they may still be retried).
        for i in 0..<3 {
            let scope = HandleScope(key: "unanswered-\(i)", intent: "AddThing", deadline: nil)
            _ = try await HandleScope.$current.withValue(scope) {
                try await store.database.journaledWrite { db -> String in
                    try Self.insert(db, "u\(i)")
                    return String(repeating: "x", count: 40_000)
                }
            }
        }
        let send = HandleScope(key: "send-1", intent: "AddThing", deadline: nil)
        try await HandleScope.$current.withValue(send) { try await store.database.journaledWrite { db in try Self.insert(db, "sent") } }
        try await journal.record(Array("sent".utf8), for: "send-1", intent: "AddThing")
        #expect(try await journal.reply(for: "send-1", intent: "AddThing") == Array("sent".utf8))
        let steps = try await store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM intentd_handled WHERE key = 'send-1'") }
        #expect(steps == 2, "the reply and its write's result are kept")
        let unanswered = try await store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM intentd_handled WHERE key LIKE 'unanswered-%'") }
        #expect(unanswered == 3)
    }

    @Test("A write that ends its own savepoint fails its whole group: nothing of the group is stored")
    func lostSavepointFailsTheGroup() async throws {
        let store = try Store()
        let outcomes = try await writesInOneGroup(store, count: 3) { i, db in
            try Self.insert(db, "w\(i)")
            // Against the contract: its insert would stay in the transaction.
            if i == 1 { try db.execute(sql: "RELEASE SAVEPOINT write") }
        }
        for (i, outcome) in outcomes {
            if case .success = outcome { Issue.record("write \(i) was answered as stored") }
        }
        #expect(try store.titles().isDisjoint(with: ["w0", "w1", "w2"]))
    }

    @Test("A journal made before its totals were kept is counted when the store opens, and pruned from then on")
    func journalWithoutTotalsIsCounted() async throws {
        let store = try Store()
        let journal = SandboxJournal(store.database, capacity: 5)
        for i in 0..<5 { try await journal.record(Array("reply \(i)".utf8), for: "key-\(i)", intent: "AddThing") }
        // As an older version left it: the rows, no totals and no triggers.
        try await store.database.write { db in
            try db.execute(sql: """
                DROP TRIGGER intentd_handled_added; DROP TRIGGER intentd_handled_removed; DROP TABLE intentd_handled_totals;
                INSERT INTO intentd_handled (key, step, intent, result, created) VALUES ('old', 0, 'AddThing', x'0102', 0.5);
                """)
        }
        let reopened = try SandboxDatabase.open("test.sqlite", in: store.directory) { _ in }
        defer { reopened.close() }
        let totals = try await reopened.read { db in
            (try Int.fetchOne(db, sql: "SELECT keys FROM intentd_handled_totals"), try Int.fetchOne(db, sql: "SELECT bytes FROM intentd_handled_totals"))
        }
        #expect(totals.0 == 6 && totals.1 == 5 * 7 + 2, "\(String(describing: totals))")
        try await SandboxJournal(reopened, capacity: 5).record(Array("new".utf8), for: "key-new", intent: "AddThing")
        let keys = try await reopened.read { db in try String.fetchAll(db, sql: "SELECT key FROM intentd_handled WHERE step = 0 ORDER BY key") }
        // The old key went for its age, key-0 for the capacity.
        #expect(keys == ["key-1", "key-2", "key-3", "key-4", "key-new"], "\(keys)")
    }

    @Test("Writes commit with synchronous FULL unless INTENTD_STORE_SYNCHRONOUS says normal; another value is refused")
    func synchronousIsFullByDefault() throws {
        func synchronous(_ store: Store) throws -> Int? {
            try store.database.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        }
        #expect(try synchronous(Store()) == 2, "FULL")
        #expect(try synchronous(Store(environment: ["INTENTD_STORE_SYNCHRONOUS": "full"])) == 2)
        #expect(try synchronous(Store(environment: ["INTENTD_STORE_SYNCHRONOUS": "normal"])) == 1, "NORMAL")
        #expect(throws: SandboxDatabase.BadSetting.self) { try Store(environment: ["INTENTD_STORE_SYNCHRONOUS": "off"]) }
    }
}
