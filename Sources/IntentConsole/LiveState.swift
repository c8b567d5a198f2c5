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
