import Foundation
import GRDB
import Synchronization

/// Commits concurrent writes together (group commit), so that they share one sync of the
/// write-ahead log instead of paying one each.
///
/// Writes queue (at most `capacity`); one drain on the database's writer connection takes
/// what is queued (at most `groupLimit`), runs each write in a savepoint of its own within
/// one transaction, commits once and only then resumes each caller with its own result.
/// Writes that arrive during the commit wait for the next group. A write that throws rolls
/// back only itself and gets its own error. If the transaction cannot begin or commit,
/// SQLite abandons it, or a write's savepoint cannot be rolled back or released, every
/// write of the group gets that error and none of it is stored.
/// With `synchronous = FULL` (as `SandboxDatabase` opens it) a commit has reached the disk
/// when it returns, so no write is answered before it is durable.
///
/// A write must not begin, commit or roll back transactions itself.
public final class GroupCommitWriter: Sendable {
    /// How many writes may wait by default; more are refused with `WriteQueueFull`.
    public static let defaultCapacity = 1_024
    /// How many writes one commit takes at most by default.
    public static let defaultGroupLimit = 256

    private let pool: DatabasePool
    private let capacity: Int
    private let groupLimit: Int
    private let state = Mutex(State())

    private struct State {
        var queue: [Pending] = []
        var draining = false
    }

    /// One queued write: `run` performs it in its savepoint and returns its error, if it
    /// failed, and how to answer its caller once the group's commit has succeeded (nil) or
    /// failed (the error); `fail` answers a caller whose write never ran.
    private struct Pending: Sendable {
        let run: @Sendable (Database) -> (error: (any Error)?, answer: Answer)
        let fail: @Sendable (any Error) -> Void
    }
    private typealias Answer = @Sendable ((any Error)?) -> Void

    /// A writer for `pool`, whose writer connection it uses for every group.
    public init(_ pool: DatabasePool, capacity: Int = defaultCapacity, groupLimit: Int = defaultGroupLimit) {
        self.pool = pool
        self.capacity = max(1, capacity)
        self.groupLimit = max(1, groupLimit)
    }

    /// How many writes wait for a group.
    public var queued: Int { state.withLock { $0.queue.count } }

    /// Runs `updates` in its own savepoint of the next group's transaction and returns its
    /// result once that transaction is committed. Throws what `updates` threw (nothing of it
    /// is stored), the commit's error (nothing of the group is stored), or `WriteQueueFull`
    /// (it was not queued). A cancelled caller still waits for the truth.
    public func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let pending = Pending(
                run: { db in
                    let outcome = Self.inSavepoint(db, updates)
                    let error: (any Error)? = if case .failure(let error) = outcome { error } else { nil }
                    return (error, { groupError in continuation.resume(with: groupError.map { .failure($0) } ?? outcome) })
                },
                fail: { continuation.resume(throwing: $0) })
            enqueue(pending)
        }
    }

    private func enqueue(_ pending: Pending) {
        let start = state.withLock { state -> Bool? in
            guard state.queue.count < capacity else { return nil }
            state.queue.append(pending)
            defer { state.draining = true }
            return !state.draining
        }
        switch start {
        case nil: pending.fail(WriteQueueFull(capacity: capacity))
        case true?: pool.asyncWriteWithoutTransaction { db in self.drain(db) }
        case false?: break
        }
    }

    /// Commits groups until the queue is empty; runs on the writer connection.
    private func drain(_ db: Database) {
        while let group = nextGroup() { commit(group, db) }
    }

    private func nextGroup() -> [Pending]? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.draining = false
                return nil
            }
            let group = Array(state.queue.prefix(groupLimit))
            state.queue.removeFirst(group.count)
            return group
        }
    }

    private func commit(_ group: [Pending], _ db: Database) {
        var answers: [Answer] = []
        answers.reserveCapacity(group.count)
        do {
            try db.inTransaction(.immediate) {
                for pending in group {
                    let (error, answer) = pending.run(db)
                    answers.append(answer)
                    // SQLite ends the whole transaction on some errors (disk full, I/O), and a
                    // savepoint left open would commit a failed write: then the group is
                    // lost, and every write in it is told so.
                    if let lost = error as? SavepointLost { throw lost.error }
                    if let error, !db.isInsideTransaction { throw error }
                }
                return .commit
            }
        } catch {
            for answer in answers { answer(error) }
            for pending in group.dropFirst(answers.count) { pending.fail(error) }
            return
        }
        for answer in answers { answer(nil) }
    }

    /// Runs `updates` in a savepoint, rolled back if it throws. The savepoint's statements
    /// are prepared once (`cachedStatement`), not at every write. If the savepoint cannot be
    /// rolled back or released, the failure is `SavepointLost`: the group must not commit.
    private static func inSavepoint<T>(_ db: Database, _ updates: (Database) throws -> T) -> Result<T, any Error> {
        do {
            try db.cachedStatement(sql: "SAVEPOINT write").execute()
        } catch {
            return .failure(error)
        }
        let outcome = Result { try updates(db) }
        do {
            if case .failure = outcome, db.isInsideTransaction {
                try db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT write").execute()
            }
            if db.isInsideTransaction { try db.cachedStatement(sql: "RELEASE SAVEPOINT write").execute() }
        } catch {
            return .failure(SavepointLost(error: error))
        }
        return outcome
    }

    /// A write's savepoint that could not be rolled back or released: what it did may still
    /// be in the transaction, so the whole group is rolled back.
    private struct SavepointLost: Error {
        let error: any Error
    }
}

/// A write refused because too many were already waiting; nothing of it was done.
public struct WriteQueueFull: Error, CustomStringConvertible {
    /// How many writes may wait.
    public let capacity: Int
    public var description: String { "the store is busy: \(capacity) writes are already waiting; nothing was written" }
}
