import Foundation
import Histogram

/// What a run measured.
public struct BenchResult: Sendable {
    /// The plan that ran.
    public let plan: BenchPlan
    /// Requests sent, answered, and answered with success.
    public var sent = 0, completed = 0, succeeded = 0
    /// Failures by kind; refusals for overload are counted apart, in `overloaded`.
    public var errors: [String: Int] = [:]
    /// Requests the host refused at once as `overloaded`: shed load, not errors.
    public var overloaded = 0
    /// How long the `overloaded` refusals took, in microseconds.
    public var refusalHistogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
    /// The same refusals from the moment each request actually left the load generator (not
    /// when it was due) to the moment the generator read the refusal: without the time the
    /// generator fell behind in sending, in microseconds.
    public var refusalRoundTripHistogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
    /// Requests sent per mix entry, in mix order.
    public var sentByEntry: [Int]
    /// Failures by kind per mix entry, in mix order.
    public var errorsByEntry: [[String: Int]]
    /// Why the run ended before its plan did, if it did.
    public var stopped: Stop?
    /// Requests still waiting for their answer when the run stopped early: sent, and
    /// neither counted answered nor failed (they may yet be done).
    public var unanswered = 0

    /// Why a run ended early.
    public enum Stop: String, Sendable, CustomStringConvertible {
        /// The user asked it to (Ctrl-C, SIGTERM).
        case interrupted
        /// The connection to the host was lost: it stopped, crashed or restarted.
        case hostLost

        public var description: String {
            switch self {
            case .interrupted: "interrupted"
            case .hostLost: "the connection to the host was lost (it stopped, crashed or restarted)"
            }
        }
    }
    /// How long the measured run took.
    public var elapsedNanoseconds: UInt64 = 0
    /// How late each request left after it was due, in microseconds (open loop). Every
    /// latency counts from when its request was due, so this part of them is the load
    /// generator falling behind (it waited for a core), not the host.
    public var sendLagHistogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
    /// Latencies of successful requests, in microseconds.
    public var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)

    init(plan: BenchPlan) {
        self.plan = plan
        sentByEntry = Array(repeating: 0, count: plan.mix.count)
        errorsByEntry = Array(repeating: [:], count: plan.mix.count)
    }

    /// All failures together.
    public var errorCount: Int { errors.values.reduce(0, +) }

    /// Completed requests per second.
    public var requestsPerSecond: Double {
        elapsedNanoseconds == 0 ? 0 : Double(completed) / (Double(elapsedNanoseconds) / 1e9)
    }

    /// Successful requests per second (goodput).
    public var succeededPerSecond: Double {
        elapsedNanoseconds == 0 ? 0 : Double(succeeded) / (Double(elapsedNanoseconds) / 1e9)
    }

    /// The latency of `overloaded` refusals at `percentile`, in microseconds.
    public func refusalLatency(_ percentile: Double) -> UInt64 {
        refusalHistogram.valueOrZero(at: percentile)
    }

    /// The round trip of `overloaded` refusals from their sending, at `percentile`, in microseconds.
    public func refusalRoundTrip(_ percentile: Double) -> UInt64 {
        refusalRoundTripHistogram.valueOrZero(at: percentile)
    }

    /// How late requests were sent at `percentile`, in microseconds.
    public func sendLag(_ percentile: Double) -> UInt64 {
        sendLagHistogram.valueOrZero(at: percentile)
    }

    /// The latency at `percentile` (0 to 100), in microseconds.
    public func latency(_ percentile: Double) -> UInt64 {
        histogram.valueOrZero(at: percentile)
    }

    /// The summary as plain values, for JSON.
    public var summary: Summary {
        Summary(
            mode: plan.mode.rawValue, load: plan.load.description, mix: plan.mix.map(\.label),
            sent: sent, completed: completed, succeeded: succeeded, overloaded: overloaded, errors: errors,
            stopped: stopped?.rawValue, unanswered: stopped == nil ? nil : unanswered,
            sentByEntry: Dictionary(uniqueKeysWithValues: zip(plan.mix.map(\.label), sentByEntry)),
            errorsByEntry: Dictionary(uniqueKeysWithValues: zip(plan.mix.map(\.label), errorsByEntry).filter { !$0.1.isEmpty }),
            seconds: Double(elapsedNanoseconds) / 1e9, requestsPerSecond: requestsPerSecond,
            succeededPerSecond: succeededPerSecond,
            latencyMicroseconds: histogram.totalCount == 0 ? [:] : [
                "p50": latency(50), "p90": latency(90), "p99": latency(99), "p99.9": latency(99.9),
                "max": histogram.maxOrZero,
            ],
            refusalLatencyMicroseconds: [
                "p50": refusalLatency(50), "p99": refusalLatency(99),
                "max": refusalHistogram.maxOrZero,
            ],
            sendLagMicroseconds: sendLagHistogram.totalCount == 0
                ? nil : ["p50": sendLag(50), "p99": sendLag(99), "max": sendLagHistogram.max],
            refusalRoundTripMicroseconds: refusalRoundTripHistogram.totalCount == 0
                ? nil : ["p50": refusalRoundTrip(50), "p99": refusalRoundTrip(99), "max": refusalRoundTripHistogram.max])
    }

    /// A run's figures as plain values.
    public struct Summary: Codable, Sendable {
        /// `handle` or `lifecycle`.
        public var mode: String
        /// The pacing, in words.
        public var load: String
        /// The mix entries, `App.Intent`.
        public var mix: [String]
        /// Requests sent, answered, and answered with success.
        public var sent, completed, succeeded: Int
        /// Requests refused at once as `overloaded` (not among `errors`).
        public var overloaded: Int
        /// Failures by kind.
        public var errors: [String: Int]
        /// Why the run ended early (`interrupted`, `hostLost`), if it did.
        public var stopped: String?
        /// With `stopped`: requests sent that had no answer yet.
        public var unanswered: Int?
        /// Requests sent per mix entry.
        public var sentByEntry: [String: Int]
        /// Failures by kind per mix entry (those with any).
        public var errorsByEntry: [String: [String: Int]]
        /// How long the measured run took.
        public var seconds: Double
        /// Answered requests per second.
        public var requestsPerSecond: Double
        /// Successful requests per second (goodput).
        public var succeededPerSecond: Double
        /// p50, p90, p99, p99.9 and max of successful requests, in microseconds; none
        /// when none succeeded.
        public var latencyMicroseconds: [String: UInt64]
        /// p50, p99 and max of `overloaded` refusals, in microseconds.
        public var refusalLatencyMicroseconds: [String: UInt64]
        /// p50, p99 and max of how late requests left after they were due (open loop), in
        /// microseconds: the load generator's own share of every latency.
        public var sendLagMicroseconds: [String: UInt64]?
        /// p50, p99 and max of `overloaded` refusals from when each request was actually
        /// sent, in microseconds: the refusal without the generator's lateness in sending.
        public var refusalRoundTripMicroseconds: [String: UInt64]?
    }
}

extension BenchPlan.Load: CustomStringConvertible {
    public var description: String {
        switch self {
        case .closed(let c): "closed loop, \(c) outstanding"
        case .open(let rate, let cap): "open loop, \(rate < 10 ? String(format: "%g", rate) : String(Int(rate)))/s" + (cap == .max ? ", no cap on outstanding" : "")
        }
    }
}

extension Histogram {
    /// The value at `percentile` (0 to 100), or 0 when nothing was recorded.
    fileprivate func valueOrZero(at percentile: Double) -> UInt64 {
        totalCount == 0 ? 0 : valueAtPercentile(percentile)
    }

    /// The largest value recorded, or 0 when nothing was.
    fileprivate var maxOrZero: UInt64 { totalCount == 0 ? 0 : max }
}
