import Foundation
import IntentProtocol

/// Builds the C reference broker (`zmq-broker-limit.c`) once and runs it, as often as
/// asked, with the same transport, window and message size as our run, so the two can be
/// compared as ratios.
public final class ReferenceRun: Sendable {
    /// What the reference client printed.
    public struct Result: Codable, Sendable {
        /// Round trips measured.
        public var count: Int
        /// Requests outstanding.
        public var window: Int
        /// Request size in bytes.
        public var size: Int
        /// How long it took.
        public var seconds: Double
        /// Round trips per second.
        public var per_second: Double
        /// Median round trip, microseconds.
        public var p50_us: Double
        /// 99th percentile, microseconds.
        public var p99_us: Double
        /// 99.9th percentile, microseconds.
        public var p999_us: Double
        /// CPU seconds its three processes (broker, worker, client) spent on the run.
        public var cpu_seconds: Double?
    }

    /// Several runs as one: throughput over all their round trips, latencies averaged.
    /// Running the reference before and after the host and combining the two keeps a
    /// machine whose speed drifts (other guests, frequency changes) from tilting the ratio.
    public static func combined(_ runs: [Result]) -> Result? {
        guard let first = runs.first else { return nil }
        let seconds = runs.reduce(0) { $0 + $1.seconds }
        let count = runs.reduce(0) { $0 + $1.count }
        func mean(_ value: (Result) -> Double) -> Double { runs.reduce(0) { $0 + value($1) } / Double(runs.count) }
        return Result(
            count: count, window: first.window, size: first.size, seconds: seconds,
            per_second: seconds > 0 ? Double(count) / seconds : 0,
            p50_us: mean(\.p50_us), p99_us: mean(\.p99_us), p999_us: mean(\.p999_us),
            cpu_seconds: runs.allSatisfy { $0.cpu_seconds != nil } ? runs.reduce(0) { $0 + ($1.cpu_seconds ?? 0) } : nil)
    }

    /// The C source file.
    public let source: URL
    private let directory: URL
    private let binary: URL

    /// Compiles the reference at `source` (with `cc -O2 ... -lzmq`) into a temporary
    /// directory, which goes when this does.
    public init(source: URL) throws {
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw BenchError("no reference at \(source.path): give the path of the C reference broker, zmq-broker-limit.c")
        }
        self.source = source
        // Made so that no other user can have made it first (and swapped the binary built in it).
        directory = try PrivateDirectory.make(prefix: "intentd-reference")
        binary = directory.appendingPathComponent("zmq-broker-limit")
        let status = try Self.run("/usr/bin/env", ["cc", "-O2", source.path, "-lzmq", "-o", binary.path], wait: true)
        guard status.terminationStatus == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw BenchError("cc could not build \(source.path)")
        }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Runs broker, one echo worker and the client; `tcp` picks loopback ports, else ipc.
    /// `started` hears each process as it starts.
    public func run(count: Int, window: Int, size: Int, tcp: Bool, started: (Int32) -> Void = { _ in }) throws -> Result {
        let (front, back): (String, String)
        if tcp {
            let port = Int.random(in: 20_000...59_000)
            (front, back) = ("tcp://127.0.0.1:\(port)", "tcp://127.0.0.1:\(port + 1)")
        } else {
            // A run before this one left its socket files behind.
            for name in ["front.sock", "back.sock"] { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
            (front, back) = ("ipc://\(directory.path)/front.sock", "ipc://\(directory.path)/back.sock")
        }
        let broker = try Self.run(binary.path, ["broker", front, back], wait: false)
        let worker = try Self.run(binary.path, ["worker", back], wait: false)
        started(broker.processIdentifier)
        started(worker.processIdentifier)
        defer {
            for p in [broker, worker] where p.isRunning { p.terminate() }
            broker.waitUntilExit()
            worker.waitUntilExit()
        }
        usleep(300_000)
        func serversCPU() -> Double {
            [broker, worker].compactMap { ProcessSample.read(pid: Int($0.processIdentifier), name: "")?.cpuSeconds }.reduce(0, +)
        }
        /// One client run and the CPU all three processes spent on it.
        func client(count: Int, window: Int) throws -> (Result, cpu: Double) {
            let serversBefore = serversCPU(), childrenBefore = Self.waitedChildrenCPU()
            let output = Pipe()
            let client = Process()
            client.executableURL = binary
            client.arguments = ["client", front, String(count), String(window), String(size)]
            client.standardOutput = output
            try client.run()
            started(client.processIdentifier)
            let data = output.fileHandleForReading.readDataToEndOfFile()
            client.waitUntilExit()
            guard client.terminationStatus == 0, let line = String(data: data, encoding: .utf8)?.split(separator: "\n").last,
                let result = try? JSONDecoder().decode(Result.self, from: Data(line.utf8))
            else { throw BenchError("the reference client failed: \(String(decoding: data, as: UTF8.self))") }
            // The client has been waited for, so its CPU time is in this process's children's.
            return (result, serversCPU() - serversBefore + Self.waitedChildrenCPU() - childrenBefore)
        }
        // The client's CPU covers its start and its 1,000 warm-up round trips, which its
        // `seconds` do not: measured apart in a run of one and taken out (in a short run they
        // were most of it).
        let (_, fixed) = try client(count: 1, window: 1)
        var (measured, cpu) = try client(count: count, window: window)
        measured.cpu_seconds = max(0, cpu - fixed)
        return measured
    }

    /// User plus system CPU seconds of every child process this process has waited for.
    private static func waitedChildrenCPU() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_CHILDREN.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static func run(_ path: String, _ arguments: [String], wait: Bool) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        try p.run()
        if wait { p.waitUntilExit() }
        return p
    }
}
