import IntentProtocol

/// What a load test does: which requests, how hard, for how long.
public struct BenchPlan: Sendable {
    /// What each request measures.
    public enum Mode: String, Sendable, CaseIterable {
        /// One STAGE request for handle, with an intent already resolved (as Maps sends).
        case handle
        /// One SUBMIT: resolve every parameter, confirm, handle.
        case lifecycle
    }

    /// How requests are paced.
    public enum Load: Sendable, Equatable {
        /// Keep this many requests outstanding; send the next when one completes.
        case closed(concurrency: Int)
        /// Send at a fixed rate per second whatever the answers do; latency counts from
        /// when each request was due (corrected for coordinated omission).
        case open(rate: Double, maxOutstanding: Int)
    }

    /// One kind of request in the mix.
    public struct Entry: Sendable, Equatable {
        /// The app, as the host knows it.
        public var app: String
        /// The intent.
        public var intent: String
        /// Its share of the requests.
        public var weight: Int

        /// Creates an entry.
        public init(app: String, intent: String, weight: Int = 1) {
            self.app = app
            self.intent = intent
            self.weight = weight
        }

        /// The entry's label, `App.Intent`.
        public var label: String { "\(app).\(intent)" }
    }

    /// What is measured.
    public var mode: Mode = .handle
    /// The pacing.
    public var load: Load = .closed(concurrency: 1)
    /// Stop after this many measured requests.
    public var requests: Int?
    /// Stop sending after this long.
    public var duration: Duration?
    /// Requests sent (closed loop, unmeasured) before measuring.
    public var warmup = 1000
    /// The kinds of request and their weights.
    public var mix: [Entry] = [Entry(app: "Bench", intent: "SendMessage")]
    /// A request not answered within this is counted as a `timeout` error.
    public var timeout: Duration = .seconds(10)
    /// The approximate size of each request body in bytes (padding the message content).
    public var size = 256

    /// Creates a plan with defaults: handle-only, one outstanding, Bench.SendMessage.
    public init() {}

    /// Parses `App.Intent=weight,App.Intent=weight`.
    public static func parseMix(_ text: String) throws -> [Entry] {
        var entries: [Entry] = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex, dot != name.index(before: name.endIndex) else {
                throw BenchError("mix entry \"\(item)\" must be App.Intent or App.Intent=weight")
            }
            let weight = parts.count == 2 ? Int(parts[1].trimmingCharacters(in: .whitespaces)) : 1
            guard let weight, weight > 0 else { throw BenchError("mix entry \"\(item)\" needs a positive whole weight") }
            let entry = Entry(app: String(name[..<dot]), intent: String(name[name.index(after: dot)...]), weight: weight)
            if entries.contains(where: { $0.label == entry.label }) { throw BenchError("mix entry \(entry.label) is named twice: give it one weight") }
            entries.append(entry)
        }
        guard !entries.isEmpty else { throw BenchError("the mix is empty") }
        return entries
    }

    /// Checks that the plan can run and will end.
    public func validate() throws {
        if requests == nil && duration == nil { throw BenchError("give --requests N or --duration S (or both): a run must end") }
        if let requests, requests <= 0 { throw BenchError("--requests must be positive") }
        if let duration, duration <= .zero { throw BenchError("--duration must be positive") }
        switch load {
        case .closed(let c) where c < 1: throw BenchError("--concurrency must be at least 1")
        case .open(let r, let m) where !(r > 0) || m < 1: throw BenchError("--rate must be positive")
        default: break
        }
    }
}

/// A plan or run that cannot go on.
public struct BenchError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// Picks mix entries in proportion to their weights, smoothly interleaved and
/// deterministic: after any full cycle each entry has had exactly its weight.
public struct WeightedCycle: Sendable {
    private let weights: [Int]
    private var current: [Int]
    private let total: Int

    /// Creates a cycle over `weights`.
    public init(_ weights: [Int]) {
        self.weights = weights
        current = Array(repeating: 0, count: weights.count)
        total = weights.reduce(0, +)
    }

    /// The next entry's index.
    public mutating func next() -> Int {
        var best = 0
        for i in weights.indices {
            current[i] += weights[i]
            if current[i] > current[best] { best = i }
        }
        current[best] -= total
        return best
    }
}
