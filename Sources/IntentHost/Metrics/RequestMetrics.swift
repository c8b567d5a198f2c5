import CoreMetrics
import Foundation
import Synchronization

/// The host's request metrics, through swift-metrics (exported by `intentd` in Prometheus's
/// format): `intentd_requests_total{app,intent,stage,outcome}`, the latency timer
/// `intentd_request_duration_seconds{app,stage}` and the gauge `intentd_requests_in_flight`.
///
/// App and intent names come from peers: only names the host knows become labels (an app
/// registered or pinned, an intent of the catalog); anything else is `other`, and past
/// `maximumLabelSets` every new combination is `other` too, so no peer can grow the table.
/// Each counter and timer is made once per label set and kept: counting a request costs a
/// dictionary look-up under a lock and an atomic add.
final class RequestMetrics: Sendable {
    /// The host's: the one the broker and the lifecycles count with.
    static let host = RequestMetrics()

    /// The label of every name the host does not know.
    static let other = "other"
    /// The most label sets kept per metric.
    static let maximumLabelSets = 4096

    fileprivate struct Key: Hashable {
        var app: String
        var intent: String
        var stage: String
        var outcome: String
    }
    fileprivate struct LatencyKey: Hashable {
        var app: String
        var stage: String
    }
    private struct Tables {
        var counters: [Key: Counter] = [:]
        var timers: [LatencyKey: CoreMetrics.Timer] = [:]
    }
    private let tables = Mutex(Tables())
    private let inFlight = Gauge(label: "intentd_requests_in_flight")

    /// The outcome of a request the extension answered.
    static let answered = "answered"

    /// Counts one request to `app` (a known name, or `other`) that ended with `outcome`
    /// (`answered`, an error code or an outcome), and its latency when it was timed.
    func finished(app: String, intent: String, stage: String, outcome: String, after latency: Duration? = nil) {
        let key = Key(app: app, intent: intent, stage: stage, outcome: outcome)
        let (counter, timer) = tables.withLock { tables in
            (Self.made(key, in: &tables.counters) { key in
                Counter(label: "intentd_requests_total", dimensions: [
                    ("app", key.app), ("intent", key.intent), ("stage", key.stage), ("outcome", key.outcome),
                ])
            },
            latency.map { _ in
                Self.made(LatencyKey(app: app, stage: stage), in: &tables.timers) { key in
                    CoreMetrics.Timer(label: "intentd_request_duration_seconds", dimensions: [("app", key.app), ("stage", key.stage)])
                }
            })
        }
        counter.increment()
        if let latency, let timer { timer.recordNanoseconds(Self.nanoseconds(latency)) }
    }

    /// Records how many requests are in flight now.
    func recordInFlight(_ count: Int) {
        inFlight.record(count)
    }

    /// The metric for `key`, made once; past the limit, the one whose labels are all `other`.
    private static func made<K: Hashable, M>(_ key: K, in table: inout [K: M], make: (K) -> M) -> M where K: OtherLabelled {
        if let found = table[key] { return found }
        let key = table.count < maximumLabelSets ? key : key.allOther
        if let found = table[key] { return found }
        let metric = make(key)
        table[key] = metric
        return metric
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// A label set that can be folded into `other`.
private protocol OtherLabelled {
    var allOther: Self { get }
}

extension RequestMetrics.Key: OtherLabelled {
    fileprivate var allOther: Self { .init(app: RequestMetrics.other, intent: RequestMetrics.other, stage: stage, outcome: outcome) }
}

extension RequestMetrics.LatencyKey: OtherLabelled {
    fileprivate var allOther: Self { .init(app: RequestMetrics.other, stage: stage) }
}
