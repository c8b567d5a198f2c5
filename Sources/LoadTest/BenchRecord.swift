import Foundation

/// A run as `intentctl bench` saves it for the console (`STATE/bench-last.json`): its
/// figures and its latency at many percentiles, for the latency-by-percentile chart.
public struct BenchRecord: Codable, Sendable {
    /// One point of the latency curve.
    public struct Point: Codable, Sendable {
        /// 0 to 100.
        public var percentile: Double
        /// The latency of successful requests there.
        public var microseconds: UInt64
    }

    /// The percentiles the curve is read at.
    public static let percentiles: [Double] = [0, 10, 25, 50, 75, 90, 95, 98, 99, 99.5, 99.8, 99.9, 99.95, 99.99, 99.995, 99.999, 100]

    /// When the run ended, ISO 8601.
    public var time: String
    /// `ipc` or `tcp`.
    public var transport: String
    /// The run's figures, as `--json` prints them.
    public var summary: BenchResult.Summary
    /// Latency by percentile.
    public var curve: [Point]

    /// The record of `result`, run over `transport`, ending now.
    public init(result: BenchResult, transport: String, now: Date = Date()) {
        time = ISO8601DateFormatter().string(from: now)
        self.transport = transport
        summary = result.summary
        curve = result.histogram.totalCount == 0 ? [] : Self.percentiles.map { Point(percentile: $0, microseconds: result.latency($0)) }
    }

    /// Saves the record as JSON in `file`, replacing the one before.
    public func save(to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: file, options: .atomic)
    }
}
