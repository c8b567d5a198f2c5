import ArgumentParser
import Foundation
import IntentClient
import IntentProtocol
import LoadTest

/// `intentctl bench`
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load-test intent routing: throughput, latency percentiles, errors, CPU and memory.",
        discussion: """
            Closed loop (--concurrency C outstanding) or open loop (--rate R per second, latency \
            counted from when each request was due). Bounded by --requests and/or --duration.
              intentctl bench --start-host --requests 100000 --concurrency 32 --reference ../shared/bench/zmq-broker-limit.c
              intentctl bench --mode lifecycle --mix MonkeyChat.SendMessage --requests 2000
            """)

    @Option(help: "Measured requests to send.") var requests: Int?
    @Option(help: "Seconds to keep sending.") var duration: Double?
    @Option(help: "Unmeasured requests sent first.") var warmup = 1000
    @Option(help: "Closed loop: requests kept outstanding.") var concurrency = 1
    @Option(help: "Open loop: requests per second (overrides --concurrency).") var rate: Double?
    @Option(help: "Open loop: the most requests outstanding at once; 0 for no cap (the host's admission limits alone bound the load).")
    var maxOutstanding = 10_000
    @Option(help: "Requests as App.Intent=weight, comma-separated.") var mix = "Bench.SendMessage=1"
    @Option(help: "handle (one STAGE, the intent already resolved) or lifecycle (resolve, confirm, handle).")
    var mode: BenchPlan.Mode = .handle
    @Option(help: "Approximate request body size in bytes.") var size = 256
    @Option(help: "Seconds after which an unanswered request counts as a timeout.") var requestTimeout: Double = 10

    @Flag(help: "Start a host for this run (in a temporary state directory) instead of using a running one.")
    var startHost = false
    @Option(help: "With --start-host: extensions to launch, e.g. bench:4,messaging.") var extensions = "bench"
    @Flag(help: "With --start-host: use tcp on loopback instead of ipc.") var tcp = false
    @Flag(help: "With --start-host: run the extensions without a sandbox (to measure what it costs).") var noSandbox = false

    @Option(help: "The C reference (zmq-broker-limit.c) to run right before and right after, with the same window, size and transport, for ratios.")
    var reference: String?
    @Flag(help: "Print JSON instead of a table.") var json = false
    @Option(help: "Write a latency-by-percentile chart (SVG) to this file.") var plot: String?
    @Flag(help: "No progress line.") var quiet = false

    @OptionGroup var connection: Connection

    func run() throws {
        var plan = BenchPlan()
        plan.mode = mode
        plan.requests = requests
        plan.duration = try duration.map { try Duration.seconds($0, for: "--duration") }
        plan.warmup = warmup
        let cap = maxOutstanding == 0 ? Int.max : maxOutstanding
        plan.load = rate.map { .open(rate: $0, maxOutstanding: cap) } ?? .closed(concurrency: concurrency)
        plan.mix = try BenchPlan.parseMix(mix)
        plan.size = size
        plan.timeout = .milliseconds(Int(requestTimeout * 1000))
        try plan.validate()
        if startHost, connection.endpoint != nil {
            throw ValidationError("--endpoint names a running host; --start-host starts one of its own (drop one of them)")
        }

        // Ctrl-C stops the run and reports what it measured; the host started for it stops too.
        let interruption = Interruption()
        defer { interruption.finish() }
        var host: HostProcess?
        defer { host?.stop() }
        let endpoint: String
        let security: ConnectionSecurity
        if startHost {
            let started = try HostProcess(
                extensions: extensions.split(separator: ",").map(String.init),
                apps: [], tcp: tcp, hostArguments: noSandbox ? ["--no-sandbox"] : []
            ) { pid, directory in interruption.own(pid: pid, directory: directory) }
            host = started
            endpoint = started.clientEndpoint
            security = try started.security ?? ConnectionSecurity.client(state: started.state)
        } else {
            endpoint = connection.endpoint ?? StateDirectory(explicit: connection.stateDirectory).clientEndpoint
            security = try connection.security()
        }
        let status = try IntentClient(endpoint: endpoint, timeout: .seconds(5), security: security).status()
        let processes = Self.processes(status)
        if let limit = status.maxMessageBytes, plan.size > limit {
            throw ValidationError("--size \(plan.size) is over the host's message limit of \(limit) bytes: every request would be refused")
        }

        var engine = BenchEngine(plan: plan, transport: try ZeroMQTransport(endpoint: endpoint, plan: plan, security: security))
        engine.interrupted = { interruption.requested }
        do { try engine.warmUp() } catch let error as BenchError {
            if interruption.requested { throw Self.interrupted("during the warm-up: nothing measured") }
            throw CommandFailure("\(error)")
        }
        // The reference runs right before and right after the measured run.
        var referenceRuns: [ReferenceRun.Result] = []
        let referenceRun = try reference.map { source in
            guard case .closed(let window) = plan.load else {
                throw ValidationError("--reference compares closed-loop runs; drop --rate")
            }
            let run = try ReferenceRun(source: URL(fileURLWithPath: source))
            let count = plan.requests ?? 100_000
            let tcp = endpoint.hasPrefix("tcp://")
            return {
                do { return try run.run(count: max(count, 1000), window: window, size: plan.size, tcp: tcp) { interruption.own(pid: $0) } } catch {
                    // Ctrl-C reaches the reference's processes too.
                    if interruption.requested { throw Self.interrupted("while the reference ran") }
                    throw error
                }
            }
        }
        if let referenceRun { referenceRuns.append(try referenceRun()) }
        if interruption.requested { throw Self.interrupted("before the measured run: nothing measured") }
        let before = processes.compactMap { ProcessSample.read(pid: $0.pid, name: $0.name) }
        let showProgress = !quiet && isatty(STDERR_FILENO) == 1
        let progress: ((BenchProgress) -> Void)? = showProgress ? { Self.progressLine($0) } : nil
        let result = try engine.measure(progress: progress)
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let after = processes.compactMap { ProcessSample.read(pid: $0.pid, name: $0.name) }
        let usage = before.compactMap { start in after.first { $0.pid == start.pid }.map { ProcessUsage(from: start, to: $0) } }

        if let referenceRun, result.stopped == nil { referenceRuns.append(try referenceRun()) }
        let referenceResult = ReferenceRun.combined(referenceRuns)
        let transport = endpoint.hasPrefix("tcp://") ? "tcp" : "ipc"
        var report = BenchReport(result: result, processes: usage, reference: referenceResult, referenceRuns: referenceRuns, transport: transport)
        report.ended = before.filter { start in !after.contains { $0.pid == start.pid } }.map { "\($0.name) (pid \($0.pid))" }
        print(json ? JSON.pretty(report.json) : report.text)
        // The console shows the last run against the host of this state directory (a host
        // started for the run has its own, deleted after it, unless --state-dir names one).
        let state = StateDirectory(explicit: connection.stateDirectory)
        if result.stopped == nil, !startHost || connection.stateDirectory != nil, FileManager.default.fileExists(atPath: state.path) {
            do { try BenchRecord(result: result, transport: transport).save(to: state.lastBenchFile) } catch {
                FileHandle.standardError.write(Data("intentctl: cannot save the run for the console in \(state.lastBenchFile.path): \(describeFileError(error))\n".utf8))
            }
        }
        if let plot {
            var series = [LatencyPlot.Series(label: "intentd \(plan.mode.rawValue), \(plan.load)", histogram: result.histogram)]
            if let r = referenceResult {
                let points: [(Double, Double)] = [(50, r.p50_us), (99, r.p99_us), (99.9, r.p999_us)]
                series.append(LatencyPlot.Series(label: "C reference broker", points: points, markersOnly: true))
            }
            let chart = LatencyPlot(title: "Latency by percentile (\(transport), \(plan.size)-byte requests)", series: series)
            let svg: String = chart.svg()
            do { try svg.write(toFile: plot, atomically: true, encoding: String.Encoding.utf8) } catch {
                throw CommandFailure("cannot write the chart to \(plot): \(describeFileError(error))")
            }
        }
        switch result.stopped {
        case .interrupted?: throw ExitCode(130)
        // Requests were in flight: whether they were done is unknown.
        case .hostLost?: throw ExitCode(Exit.outcomeUnknown)
        case nil: break
        }
    }

    /// Says the run was interrupted `when`; exits 130, as a shell does.
    static func interrupted(_ when: String) -> ExitCode {
        FileHandle.standardError.write(Data("intentctl: interrupted \(when)\n".utf8))
        return ExitCode(130)
    }

    /// The host and its extensions, by pid and name.
    static func processes(_ status: HostStatus) -> [(pid: Int, name: String)] {
        var list: [(Int, String)] = status.processIdentifier.map { [($0, "intentd")] } ?? []
        list.append((Int(getpid()), "load (intentctl)"))
        for e in status.extensions {
            for (i, pid) in e.processIdentifiers.enumerated() {
                list.append((pid, e.processIdentifiers.count == 1 ? e.appName : "\(e.appName) #\(i + 1)"))
            }
        }
        return list
    }

    static func progressLine(_ p: BenchProgress) {
        let seconds = Double(p.elapsed) / 1e9
        let line = String(
            format: "\r\u{1B}[K  %6.1f s  %9d done  %9.0f/s  %d refused (overloaded)  %d errors", seconds, p.completed,
            Double(p.completed) / max(seconds, 0.001), p.overloaded, p.errors)
        FileHandle.standardError.write(Data(line.utf8))
    }
}

extension BenchPlan.Mode: ExpressibleByArgument {}
