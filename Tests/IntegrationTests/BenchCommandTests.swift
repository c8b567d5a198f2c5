import Foundation
import IntentProtocol
import LoadTest
import Testing

/// `intentctl bench` against real processes.
@Suite("Bench command", .serialized)
struct BenchCommandTests {
    @Test("A bounded bench run against a host it starts stops on its own, and its counts and errors add up")
    func benchRunCountsAddUp() throws {
        let scratch = try TestHost(start: false)
        defer { scratch.removeState() }
        let plot = scratch.state.appendingPathComponent("latency.svg").path
        let run = try scratch.ctl([
            // No warm-up: it would refuse the app that does not exist.
            "bench", "--start-host", "--extensions", "bench:2", "--requests", "400", "--warmup", "0",
            "--concurrency", "4", "--mix", "Bench.SendMessage=3,Nobody.SendMessage=1", "--json", "--plot", plot,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(run.json?["result"])
        #expect(result["sent"] == 400)
        #expect(result["completed"] == 400)
        #expect(result["succeeded"] == 300)
        #expect(result["errors"]?["unknownApp"] == 100)
        #expect(result["sentByEntry"]?["Bench.SendMessage"] == 300)
        let processes = run.json?["processes"]?.arrayValue ?? []
        #expect(processes.compactMap { $0["name"]?.stringValue }.sorted() == ["Bench #1", "Bench #2", "intentd", "load (intentctl)"])
        #expect(processes.allSatisfy { ($0["peakResidentBytes"]?.numberValue ?? 0) > 0 })
        let svg = try String(contentsOfFile: plot, encoding: .utf8)
        #expect(svg.contains("<polyline"))
        // A debug build's figures are not the product's: it says so.
        #if DEBUG
        #expect(run.json?["build"] == "debug")
        #else
        #expect(run.json?["build"] == "release")
        #endif
    }

    @Test("Bench measures the full lifecycle against a running host, and an open-loop run ends by duration")
    func lifecycleAndOpenLoop() throws {
        let host = try TestHost(["--extensions", "bench"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Bench"])
        let lifecycle = try host.ctl(["bench", "--mode", "lifecycle", "--requests", "100", "--warmup", "10", "--json"])
        #expect(lifecycle.status == 0, "\(lifecycle.stderr)")
        #expect(lifecycle.json?["result"]?["succeeded"] == 100)
        #expect(lifecycle.json?["result"]?["mode"] == "lifecycle")

        let open = try host.ctl(["bench", "--rate", "200", "--duration", "1", "--warmup", "10", "--json"])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(open.json?["result"]?["sent"] == 200)
        #expect(open.json?["result"]?["completed"] == 200)
    }

    @Test("A misspelt intent is refused after the warm-up, naming it, instead of a run of errors that exits 0")
    func misspeltIntentIsRefused() throws {
        let host = try TestHost(["--extensions", "bench"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Bench"])
        let run = try host.ctl(["bench", "--mix", "Bench.SendMesage", "--requests", "100", "--warmup", "20"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("Bench.SendMesage") && run.stderr.contains("unknownIntent"), "\(run.stderr)")
    }

    @Test("Ctrl-C ends a run with what it measured so far and exit 130, and the host started for it stops and leaves no directory")
    func interruptedRunReportsAndStopsItsHost() throws {
        let scratch = try TestHost(start: false)
        defer { scratch.removeState() }
        var started: (pid: Int32, directory: String)?
        let run = try scratch.ctl(["bench", "--start-host", "--extensions", "bench", "--duration", "60", "--warmup", "100", "--json"]) { bench in
            let deadline = ContinuousClock.now + .seconds(30)
            while started == nil, ContinuousClock.now < deadline {
                started = Self.child(of: bench.processIdentifier, named: "intentd")
                usleep(100_000)
            }
            // Past the warm-up, into the measured run.
            Thread.sleep(forTimeInterval: 4)
            kill(bench.processIdentifier, SIGINT)
        }
        #expect(run.status == 130, "\(run.stderr)")
        let result = try #require(run.json?["result"], "\(run.stdout) \(run.stderr)")
        #expect(result["stopped"] == "interrupted")
        #expect((result["succeeded"]?.numberValue ?? 0) > 0)
        #expect((result["seconds"]?.numberValue ?? 60) < 30)
        let host = try #require(started)
        #expect(kill(host.pid, 0) != 0 || Self.isZombie(host.pid), "the host started for the run still runs")
        #expect(!FileManager.default.fileExists(atPath: host.directory), "its state directory is left")
    }

    @Test("A host lost mid-run ends the run at once with what was measured, and exit 6: what was in flight may or may not be done")
    func hostLostEndsTheRun() throws {
        let host = try TestHost(["--extensions", "bench"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Bench"])
        let pid = try #require(host.process?.processIdentifier)
        let run = try host.ctl(["bench", "--duration", "60", "--warmup", "100", "--concurrency", "4", "--json"]) { _ in
            Thread.sleep(forTimeInterval: 3)
            kill(pid, SIGKILL)
        }
        #expect(run.status == 6, "\(run.stderr)")
        let result = try #require(run.json?["result"], "\(run.stdout) \(run.stderr)")
        #expect(result["stopped"] == "hostLost")
        #expect((result["seconds"]?.numberValue ?? 60) < 30)
        #expect(run.json?["processesEnded"]?.arrayValue?.isEmpty == false)
    }

    /// A child process of `parent` running `name`, with the state directory it was given.
    static func child(of parent: Int32, named name: String) -> (pid: Int32, directory: String)? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), let stat = ProcessStat.read(pid: Int(pid)), stat.command == name, stat.parent == Int(parent),
                let line = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
            else { continue }
            let arguments = line.split(separator: "\0").map(String.init)
            if let i = arguments.firstIndex(of: "--state-dir"), i + 1 < arguments.count { return (pid, arguments[i + 1]) }
        }
        return nil
    }

    static func isZombie(_ pid: Int32) -> Bool {
        ProcessStat.read(pid: Int(pid))?.hasEnded ?? false
    }
}
