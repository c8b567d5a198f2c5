import Synchronization

/// Counts the requests the host sent each app's extension (a client's stage, a lifecycle's
/// stage or batch of stages), with how long they took, for the console's throughput and
/// latency charts; the broker feeds it where it counts the request metrics.
/// Bounded: at most `maxApps` apps are counted (the apps are registered ones, so the bound
/// is only a guard).
public final class TrafficMeter: Sendable {
    /// One app's totals since the host started.
    public struct Totals: Sendable, Hashable, Codable {
        /// Requests answered (any outcome).
        public var requests = 0
        /// Of those, the ones that failed or were refused.
        public var failures = 0
        /// The sum of their latencies, in microseconds.
        public var latencyMicroseconds: UInt64 = 0
        /// The slowest one, in microseconds, since the last `take` (reset by it).
        public var slowestMicroseconds: UInt64 = 0

        /// Creates empty totals.
        public init() {}
    }

    /// How many apps it counts at most.
    public static let maxApps = 256
    private let totals = Mutex<[String: Totals]>([:])

    /// Creates a meter with nothing counted.
    public init() {}

    /// Counts one request to `app` that took `latency` and ended well or not.
    public func record(app: String, latency: Duration, failed: Bool) {
        let micros = UInt64(max(0, latency.components.seconds)) * 1_000_000
            + UInt64(max(0, latency.components.attoseconds) / 1_000_000_000_000)
        totals.withLock { all in
            guard all[app] != nil || all.count < Self.maxApps else { return }
            var entry = all[app] ?? Totals()
            entry.requests += 1
            if failed { entry.failures += 1 }
            entry.latencyMicroseconds &+= micros
            entry.slowestMicroseconds = max(entry.slowestMicroseconds, micros)
            all[app] = entry
        }
    }

    /// Every app's totals; the slowest request of each is reset, so each reading reports the
    /// slowest since the one before.
    public func take() -> [String: Totals] {
        totals.withLock { all in
            let now = all
            for key in all.keys { all[key]?.slowestMicroseconds = 0 }
            return now
        }
    }
}
