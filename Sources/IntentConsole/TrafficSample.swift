import IntentHost

/// One second of traffic: per app, requests per second, their mean and slowest latency.
struct TrafficSample: Codable, Sendable {
    /// One app's second.
    struct App: Codable, Sendable {
        var app: String
        var perSecond: Double
        var failures: Int
        var meanMilliseconds: Double?
        var slowestMilliseconds: Double?
    }

    /// Seconds since 1970.
    var time: Double
    var apps: [App]

    /// The traffic between two readings of the meter, about a second apart.
    init(time: Double, from before: [String: TrafficMeter.Totals], to after: [String: TrafficMeter.Totals]) {
        self.time = time
        apps = after.keys.sorted().compactMap { name in
            guard let now = after[name] else { return nil }
            let then = before[name] ?? TrafficMeter.Totals()
            let requests = max(0, now.requests - then.requests)
            let latency = now.latencyMicroseconds &- then.latencyMicroseconds
            return App(
                app: name, perSecond: Double(requests), failures: max(0, now.failures - then.failures),
                meanMilliseconds: requests == 0 ? nil : Double(latency) / Double(requests) / 1000,
                slowestMilliseconds: requests == 0 ? nil : Double(now.slowestMicroseconds) / 1000)
        }
    }
}
