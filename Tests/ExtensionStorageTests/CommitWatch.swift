import GRDB
import Synchronization

/// Watches the commits of a database's writer connection: counts them, and makes them fail
/// (SQLite's commit hook turns the commit into a rollback) while `failing` is set.
final class CommitWatch: TransactionObserver, Sendable {
    private let count = Atomic<Int>(0)
    private let failing = Atomic<Bool>(false)

    /// How many transactions committed.
    var commits: Int { count.load(ordering: .sequentiallyConsistent) }

    /// Makes every commit fail (true) or succeed (false) from now on.
    func failCommits(_ fail: Bool) { failing.store(fail, ordering: .sequentiallyConsistent) }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseWillCommit() throws {
        if failing.load(ordering: .sequentiallyConsistent) { throw InjectedCommitFailure() }
    }
    func databaseDidCommit(_ db: Database) { count.add(1, ordering: .sequentiallyConsistent) }
    func databaseDidRollback(_ db: Database) {}
}

/// The failure `CommitWatch` injects.
struct InjectedCommitFailure: Error {}
