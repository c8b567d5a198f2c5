import LoadTest

/// A transport with a virtual clock and a one-at-a-time server, so runs are exact and
/// repeatable: no real time passes, nothing depends on the machine.
struct SimulatedTransport: BenchTransport {
    /// The virtual time, in nanoseconds.
    var clock: UInt64 = 1_000_000_000
    /// How long the server takes per request.
    var service: UInt64 = 1_000_000
    /// While the clock is in this range, the server answers nothing and senders block.
    var pause: Range<UInt64>?
    /// Mix entries whose requests fail with this error kind.
    var failing: [Int: String] = [:]
    /// Every n-th request is never answered.
    var dropEvery: Int?
    /// From this time on the connection is lost: nothing more is answered.
    var loseAt: UInt64?

    private var serverFreeAt: UInt64 = 0
    private var pending: [(at: UInt64, completion: Completion)] = []
    private var count = 0

    func now() -> UInt64 { clock }

    mutating func send(id: UInt64, entry: Int) throws {
        // A sender blocked by a stalled server (a full queue) cannot send until it resumes.
        if let pause, pause.contains(clock) { clock = pause.upperBound }
        count += 1
        if let dropEvery, count % dropEvery == 0 { return }
        var start = max(clock, serverFreeAt)
        if let pause, pause.contains(start) { start = pause.upperBound }
        serverFreeAt = start + service
        pending.append((serverFreeAt, Completion(id: id, error: failing[entry])))
    }

    func connectionLost() throws -> Bool { loseAt.map { clock >= $0 } ?? false }

    mutating func receive(timeout: UInt64, into completions: inout [Completion]) throws {
        let limit = clock + timeout
        let next = pending.map(\.at).min() ?? limit
        clock = max(clock, min(limit, next))
        completions += pending.filter { $0.at <= clock }.map(\.completion)
        pending.removeAll { $0.at <= clock }
    }
}
