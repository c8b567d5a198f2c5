import Foundation
import IntentProtocol
import LoadTest

/// A load test's figures, as a table or as JSON, with ratios to the reference when run.
struct BenchReport {
    let result: BenchResult
    let processes: [ProcessUsage]
    /// Processes measured at the start that had ended by the end (an extension restarted):
    /// their CPU is not counted.
    var ended: [String] = []
    /// The reference's runs before and after, combined.
    let reference: ReferenceRun.Result?
    let referenceRuns: [ReferenceRun.Result]
    let transport: String

    /// How this intentctl was built: a debug build's figures (and those of a host it
    /// starts) are not the product's.
    static var build: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    struct JSONForm: Encodable {
        var build = BenchReport.build
        var transport: String
        var result: BenchResult.Summary
        var processes: [ProcessUsage]
        var processesEnded: [String]?
        var reference: ReferenceRun.Result?
        var referenceRuns: [ReferenceRun.Result]?
        var ratios: [String: Double]?
        var cpuMicrosecondsPerRequest: Double?
        var referenceCPUMicrosecondsPerRequest: Double?
    }

    var ratios: [String: Double]? {
        guard let r = reference, r.per_second > 0, r.p50_us > 0 else { return nil }
        var ratios = [
            "throughput": result.requestsPerSecond / r.per_second,
            "p50": Double(result.latency(50)) / r.p50_us,
            "p99": Double(result.latency(99)) / r.p99_us,
        ]
        if let ours = cpuPerRequest, let theirs = referenceCPUPerRequest, theirs > 0 { ratios["cpuPerRequest"] = ours / theirs }
        return ratios
    }

    /// CPU microseconds per answered request, over every measured process (host,
    /// extensions, load generator). Unlike throughput, this hardly moves when other guests
    /// take the machine's time.
    var cpuPerRequest: Double? {
        guard result.completed > 0, !processes.isEmpty else { return nil }
        return processes.reduce(0) { $0 + $1.cpuSeconds } / Double(result.completed) * 1e6
    }

    /// The same for the reference's broker, worker and client together.
    var referenceCPUPerRequest: Double? {
        guard let r = reference, let cpu = r.cpu_seconds, r.count > 0 else { return nil }
        return cpu / Double(r.count) * 1e6
    }

    var json: JSONForm {
        JSONForm(
            transport: transport, result: result.summary, processes: processes, processesEnded: ended.isEmpty ? nil : ended, reference: reference,
            referenceRuns: referenceRuns.isEmpty ? nil : referenceRuns, ratios: ratios,
            cpuMicrosecondsPerRequest: cpuPerRequest, referenceCPUMicrosecondsPerRequest: referenceCPUPerRequest)
    }

    var text: String {
        let s = result.summary
        func n(_ v: Double) -> String { v >= 100 ? String(format: "%.0f", v) : String(format: "%.1f", v) }
        func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        let timeouts = s.errors["timeout"] ?? 0
        let seconds = String(format: "%.2f", s.seconds)
        let stopped: String? = result.stopped.map { why in
            "  stopped      \(why) after \(seconds) s: the figures are of what was done so far; \(result.unanswered) sent had no answer yet (they may or may not be done)"
        }
        let timedOut = timeouts > 0 ? ", \(timeouts) timed out," : ""
        let latency: String = result.succeeded == 0 ? "none: no request succeeded"
            : "p50 \(result.latency(50))  p90 \(result.latency(90))  p99 \(result.latency(99))  p99.9 \(result.latency(99.9))  max \(s.latencyMicroseconds["max"] ?? 0)"
        let overloaded: String = s.overloaded == 0 ? "none"
            : "\(s.overloaded) refused (shed), in p50 \(result.refusalLatency(50)) µs, p99 \(result.refusalLatency(99)) µs, max \(s.refusalLatencyMicroseconds["max"] ?? 0) µs; from sending p50 \(result.refusalRoundTrip(50)) µs, p99 \(result.refusalRoundTrip(99)) µs"
        let errors = s.errors.isEmpty ? "none" : s.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        var lines: [String] = [
            "intentd bench: \(s.mode), \(s.load), \(transport), mix \(s.mix.joined(separator: ", "))",
            BenchReport.build == "release" ? nil
                : "  build        DEBUG: this intentctl (and a host it starts) is a debug build, slower than the product; measure with swift build -c release",
            stopped,
            "  requests     \(s.completed - timeouts) answered\(timedOut) of \(s.sent) sent in \(seconds) s",
            "  throughput   \(n(s.requestsPerSecond)) requests/s done, \(n(s.succeededPerSecond))/s succeeded",
            "  latency µs   \(latency)",
            "  overloaded   \(overloaded)",
            "  errors       \(errors)",
        ].compactMap { $0 }
        if s.sendLagMicroseconds != nil {
            lines.append("  sent late    p50 \(result.sendLag(50)) µs, p99 \(result.sendLag(99)) µs after due (the load generator's own share of every latency)")
        }
        if s.mix.count > 1 {
            lines.append("  sent by kind " + s.sentByEntry.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            for (label, errors) in s.errorsByEntry.sorted(by: { $0.key < $1.key }) {
                lines.append("  errors of    \(label): " + errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            }
        }
        for p in processes {
            lines.append("  \(p.name.padding(toLength: 17, withPad: " ", startingAt: 0)) cpu \(String(format: "%.2f", p.cpuSeconds)) s, rss \(mib(p.residentBytesAtStart)) → \(mib(p.residentBytesAtEnd)), peak \(mib(p.peakResidentBytes))")
        }
        if !ended.isEmpty {
            lines.append("  ended        \(ended.joined(separator: ", ")) ended during the run (restarted?): \(ended.count == 1 ? "its" : "their") CPU is not counted")
        }
        if let r = reference, let ratios {
            let runs = referenceRuns.map { n($0.per_second) }.joined(separator: " before, ") + (referenceRuns.count > 1 ? " after" : "")
            lines.append("  reference    C broker: \(n(r.per_second)) requests/s (\(runs)), p50 \(n(r.p50_us)) µs, p99 \(n(r.p99_us)) µs (window \(r.window), \(r.size) bytes)")
            lines.append(String(format: "  ratio        throughput %.2f of the reference, p50 %.2f×, p99 %.2f×", ratios["throughput"] ?? 0, ratios["p50"] ?? 0, ratios["p99"] ?? 0))
            if let ours = cpuPerRequest, let theirs = referenceCPUPerRequest {
                lines.append(String(format: "  cpu/request  %.1f µs, all processes; the reference's %.1f µs (%.2f×)", ours, theirs, ours / theirs))
            }
            if s.seconds < 1 || referenceRuns.contains(where: { $0.seconds < 1 }) {
                lines.append("  note         a run under a second: CPU is counted in 10 ms steps and the reference's time in milliseconds, so these ratios are rough; send more --requests")
            }
        }
        return lines.joined(separator: "\n")
    }
}
