import Synchronization
import ZeroMQ

/// The deadlines of the requests an extension is working on, so that the connection
/// thread can cancel each one's task when its deadline passes: one table and one lock
/// for all of them, instead of a timer per request.
final class DeadlineWatch: Sendable {
    private let deadlines = Mutex<[RequestID: Int64]>([:])

    /// Notes that request `id` must be done by `deadline` (ms since 1970 UTC).
    func expect(_ id: RequestID, by deadline: Int64) {
        deadlines.withLock { $0[id] = deadline }
    }

    /// Forgets request `id`: it was answered.
    func done(_ id: RequestID) {
        deadlines.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// Takes the requests whose deadline has passed.
    func expired(now: Int64) -> [RequestID] {
        deadlines.withLock { table in
            let late = table.filter { $0.value <= now }.map(\.key)
            for id in late { table[id] = nil }
            return late
        }
    }
}
