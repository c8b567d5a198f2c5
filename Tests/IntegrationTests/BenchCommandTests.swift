import Foundation
import IntentProtocol
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
            "bench", "--start-host", "--extensions", "bench:2", "--requests", "400", "--warmup", "50",
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
}
