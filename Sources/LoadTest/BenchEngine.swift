import Histogram

/// One answer to a request: its id, and the kind of error if it failed.
public struct Completion: Sendable, Equatable {
    /// The request id.
    public var id: UInt64
    /// `nil` for success; otherwise an error kind such as `requiresUnlock` or `timeout`.
    public var error: String?

    /// Creates a completion.
    public init(id: UInt64, error: String? = nil) {
        self.id = id
        self.error = error
    }
}

/// Where a load test's requests go: the real host over ZeroMQ, or a simulation in tests.
public protocol BenchTransport {
    /// Monotonic time in nanoseconds.
    func now() -> UInt64
    /// Sends request `id` of the plan's mix entry `entry`.
    mutating func send(id: UInt64, entry: Int) throws
    /// Waits up to `timeout` nanoseconds for answers and appends them to `completions`.
    mutating func receive(timeout: UInt64, into completions: inout [Completion]) throws
    /// Whether the connection to the host was lost since last asked (it stopped, crashed or
    /// restarted): the answers outstanding will not come.
    mutating func connectionLost() throws -> Bool
}

extension BenchTransport {
    /// A transport that cannot lose its host.
    public mutating func connectionLost() throws -> Bool { false }
}

/// How far a run has got, for the progress line.
public struct BenchProgress: Sendable {
    /// Nanoseconds since the measured run began.
    public var elapsed: UInt64
    /// Requests answered so far.
    public var completed: Int
    /// Of those, failures.
    public var errors: Int
    /// Of those, refused at once as `overloaded` (not among `errors`).
    public var overloaded: Int
}

/// Runs a plan against a transport: closed loop or open loop, bounded by a count or a
/// duration, with a warm-up first. Latencies go into an HDR histogram in microseconds.
public struct BenchEngine<Transport: BenchTransport> {
    /// The transport, available again after the run.
    public var transport: Transport
    private let plan: BenchPlan
    private var nextID: UInt64 = 1
    /// Asked about ten times a second: whether the user asked the run to stop (Ctrl-C).
    public var interrupted: () -> Bool = { false }

    /// The error kind of a request the host shed at once, counted apart from errors.
    static var overloaded: String { "overloaded" }

    /// Prepares a run of `plan` over `transport`.
    public init(plan: BenchPlan, transport: Transport) {
        self.plan = plan
        self.transport = transport
    }

    /// Warms up, then runs the plan; `progress` is called about twice a second.
    public mutating func run(progress: ((BenchProgress) -> Void)? = nil) throws -> BenchResult {
        try warmUp()
        return try measure(progress: progress)
    }

    /// Sends the plan's warm-up requests, closed loop, and forgets their figures; throws
    /// `BenchError` if the run stopped (interrupted, the host lost) before they were done.
    public mutating func warmUp() throws {
        try plan.validate()
        guard plan.warmup > 0 else { return }
        var warm = plan
        warm.requests = plan.warmup
        warm.duration = nil
        if case .closed = plan.load {} else { warm.load = .closed(concurrency: 1) }
        let warmed = try measure(warm, progress: nil)
        if let stopped = warmed.stopped { throw BenchError("\(stopped.description) during the warm-up") }
        // A misspelt app or intent, or a request too large for the host: none of it can
        // succeed, so nothing is measured.
        for (i, entry) in plan.mix.enumerated() where warmed.sentByEntry[i] > 0 {
            if let code = ["unknownApp", "unknownIntent", "tooLarge"].first(where: { warmed.errorsByEntry[i][$0] == warmed.sentByEntry[i] }) {
                let hint = switch code {
                case "tooLarge": "give a smaller --size"
                case "unknownApp" where entry.app == BenchPlan().mix.first?.app:
                    // The default target: the bench extension, which a host runs only when asked.
                    "the bench extension runs with `intentd --extensions bench` or `intentctl bench --start-host`; or measure an app of this host with --mix APP.INTENT"
                default: "intentctl status lists its apps and intents"
                }
                throw BenchError("\(entry.label): the host answered every warm-up request \(code) (\(hint))")
            }
        }
    }

    /// Runs the plan itself; `progress` is called about twice a second. A run that stops
    /// early (interrupted, the host lost) returns what it measured so far, with why.
    public mutating func measure(progress: ((BenchProgress) -> Void)? = nil) throws -> BenchResult {
        try plan.validate()
        return try measure(plan, progress: progress)
    }

    private mutating func measure(_ plan: BenchPlan, progress: ((BenchProgress) -> Void)?) throws -> BenchResult {
        var result = BenchResult(plan: plan)
        var outstanding: [UInt64: (start: UInt64, sent: UInt64, entry: Int)] = [:]
        var cycle = WeightedCycle(plan.mix.map(\.weight))
        var completions: [Completion] = []
        completions.reserveCapacity(1024)
        let timeout = UInt64(plan.timeout / .nanoseconds(1))
        let start = transport.now()
        let stopSending = plan.duration.map { start + UInt64($0 / .nanoseconds(1)) }
        var nextProgress = start + 500_000_000
        var nextTimeoutScan = start + 100_000_000

        /// Whether another request may start: closed loop until the clock passes the stop,
        /// open loop while the next request is due before it.
        func mayStart(_ now: UInt64) -> Bool {
            guard plan.requests.map({ result.sent < $0 }) ?? true else { return false }
            guard let stopSending else { return true }
            if case .open(let rate, _) = plan.load { return start + UInt64(Double(result.sent) * (1e9 / rate)) < stopSending }
            return now < stopSending
        }
        func send(startingAt startTime: UInt64) throws {
            let entry = cycle.next()
            let id = nextID
            nextID &+= 1
            try transport.send(id: id, entry: entry)
            outstanding[id] = (startTime, transport.now(), entry)
            result.sent += 1
            result.sentByEntry[entry] += 1
        }

        running: while true {
            var now = transport.now()
            var wait: UInt64 = 10_000_000
            switch plan.load {
            case .closed(let concurrency):
                while outstanding.count < concurrency && mayStart(now) { try send(startingAt: now) }
            case .open(let rate, let maxOutstanding):
                let interval = 1e9 / rate
                func due(_ i: Int) -> UInt64 { start + UInt64(Double(i) * interval) }
                // Every request keeps the time it was due: if sending falls behind, the
                // delay counts against latency instead of disappearing.
                while mayStart(now) && due(result.sent) <= now && outstanding.count < maxOutstanding {
                    let due = due(result.sent)
                    try send(startingAt: due)
                    _ = result.sendLagHistogram.record(max(1, (transport.now() &- due) / 1000))
                }
                if mayStart(now) && outstanding.count < maxOutstanding {
                    wait = due(result.sent) > now ? due(result.sent) - now : 0
                }
            }
            if !mayStart(now) && outstanding.isEmpty { break }
            if case .closed = plan.load, let stopSending, now < stopSending { wait = min(wait, stopSending - now) }

            try transport.receive(timeout: wait, into: &completions)
            now = transport.now()
            for completion in completions {
                guard let request = outstanding.removeValue(forKey: completion.id) else { continue }
                result.completed += 1
                if completion.error == Self.overloaded {
                    result.overloaded += 1
                    _ = result.refusalHistogram.record(max(1, (now &- request.start) / 1000))
                    _ = result.refusalRoundTripHistogram.record(max(1, (now &- request.sent) / 1000))
                } else if let error = completion.error {
                    result.errors[error, default: 0] += 1
                    result.errorsByEntry[request.entry][error, default: 0] += 1
                } else {
                    result.succeeded += 1
                    _ = result.histogram.record(max(1, (now &- request.start) / 1000))
                }
            }
            completions.removeAll(keepingCapacity: true)

            if now >= nextTimeoutScan {
                nextTimeoutScan = now + 100_000_000
                if interrupted() { result.stopped = .interrupted } else if try transport.connectionLost() { result.stopped = .hostLost }
                if result.stopped != nil {
                    result.unanswered = outstanding.count
                    break running
                }
                for (id, request) in outstanding where now &- request.start > timeout {
                    outstanding[id] = nil
                    result.completed += 1
                    result.errors["timeout", default: 0] += 1
                    result.errorsByEntry[request.entry]["timeout", default: 0] += 1
                }
            }
            if let progress, now >= nextProgress {
                nextProgress = now + 500_000_000
                progress(BenchProgress(elapsed: now - start, completed: result.completed, errors: result.errorCount, overloaded: result.overloaded))
            }
        }
        result.elapsedNanoseconds = transport.now() - start
        return result
    }
}
