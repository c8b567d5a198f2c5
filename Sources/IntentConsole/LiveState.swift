import Foundation
import IntentHost
import IntentProtocol

/// What the console remembers for pages opened later: the last two minutes of traffic and
/// the last updates the host published (both bounded).
struct LiveState {
    static let trafficSamples = 120
    static let keptUpdates = 50
    private(set) var traffic: [TrafficSample] = []
    private(set) var updates: [Update] = []
    /// When the saved load test last changed, as last seen.
    var benchStamp: Date?

    mutating func add(_ sample: TrafficSample) {
        traffic.append(sample)
        if traffic.count > Self.trafficSamples { traffic.removeFirst(traffic.count - Self.trafficSamples) }
    }

    mutating func add(_ update: Update) {
        updates.append(update)
        if updates.count > Self.keptUpdates { updates.removeFirst(updates.count - Self.keptUpdates) }
    }
}

/// One second of traffic: per app, stages per second, their mean and slowest latency.
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
            let stages = max(0, now.stages - then.stages)
            let latency = now.latencyMicroseconds &- then.latencyMicroseconds
            return App(
                app: name, perSecond: Double(stages), failures: max(0, now.failures - then.failures),
                meanMilliseconds: stages == 0 ? nil : Double(latency) / Double(stages) / 1000,
                slowestMilliseconds: stages == 0 ? nil : Double(now.slowestMicroseconds) / 1000)
        }
    }
}

/// Everything a page needs when it opens.
struct Snapshot: Encodable, Sendable {
    var status: HostStatus?
    var error: String?
    var traffic: [TrafficSample]
    var updates: [Update]
    var bench: JSONValue?
}

/// One message on the console's websocket; `type` says which of the rest is set:
/// `snapshot`, `status` (or `error` when the host did not answer), `traffic`, `update`, `bench`.
struct ConsoleMessage: Encodable, Sendable {
    var type: String
    var snapshot: Snapshot?
    var status: HostStatus?
    var error: String?
    var traffic: [TrafficSample]?
    var updates: [Update]?
    var bench: JSONValue?
}
