import Foundation
import Testing
@testable import LoadTest

@Suite("Load generator")
struct BenchEngineTests {
    func plan(_ configure: (inout BenchPlan) -> Void) -> BenchPlan {
        var plan = BenchPlan()
        plan.warmup = 0
        plan.mix = [.init(app: "A", intent: "I", weight: 3), .init(app: "B", intent: "I", weight: 1)]
        configure(&plan)
        return plan
    }

    @Test("The counts add up: every request sent is answered once, by kind, and measured once")
    func countsAddUp() throws {
        var engine = BenchEngine(plan: plan { $0.requests = 1000; $0.load = .closed(concurrency: 8) }, transport: SimulatedTransport())
        let result = try engine.run()
        #expect(result.sent == 1000)
        #expect(result.completed == 1000)
        #expect(result.succeeded + result.errorCount == result.completed)
        #expect(result.sentByEntry == [750, 250])
        #expect(result.histogram.totalCount == UInt64(result.succeeded))
    }

    @Test("Errors are counted by kind, and unanswered requests as timeouts")
    func errorsAreCounted() throws {
        var transport = SimulatedTransport()
        transport.failing = [1: "requiresUnlock"]
        transport.dropEvery = 100
        var engine = BenchEngine(plan: plan { $0.requests = 1000; $0.load = .closed(concurrency: 4); $0.timeout = .seconds(1) }, transport: transport)
        let result = try engine.run()
        #expect(result.errors["timeout"] == 10)
        #expect(result.errors["requiresUnlock", default: 0] + result.errors["timeout", default: 0] + result.succeeded == 1000)
        #expect(result.errors["requiresUnlock", default: 0] >= 245)
        #expect(result.completed == result.sent)
    }

    @Test("Requests the host sheds as overloaded are counted apart from errors, with their own latency, and goodput counts successes only")
    func overloadedIsCountedApart() throws {
        var transport = SimulatedTransport()
        transport.failing = [1: "overloaded"]
        var engine = BenchEngine(plan: plan { $0.requests = 1000; $0.load = .open(rate: 500, maxOutstanding: .max) }, transport: transport)
        let result = try engine.run()
        #expect(result.overloaded == 250)
        #expect(result.errors.isEmpty && result.errorCount == 0)
        #expect(result.refusalHistogram.totalCount == 250)
        #expect(result.succeeded == 750 && result.completed == 1000)
        #expect(result.succeededPerSecond < result.requestsPerSecond)
        #expect(result.summary.overloaded == 250)
    }

    @Test("Refusals are also timed from when each request actually left, which leaves out the generator's lateness in sending")
    func refusalRoundTripLeavesOutSendLag() throws {
        var transport = SimulatedTransport()
        transport.service = 100_000
        transport.failing = [0: "overloaded", 1: "overloaded"]
        transport.pause = (transport.clock + 100_000_000)..<(transport.clock + 300_000_000)  // senders block 200 ms
        var engine = BenchEngine(plan: plan { $0.requests = 1000; $0.load = .open(rate: 1000, maxOutstanding: 10_000) }, transport: transport)
        let result = try engine.run()
        #expect(result.overloaded == 1000)
        #expect(result.refusalLatency(100) >= 190_000, "from when due, the stall counts")
        #expect(result.refusalRoundTrip(100) < 50_000, "from the send, only the queue behind it counts")
        #expect(result.refusalRoundTrip(50) < 1_000)
        #expect(result.summary.refusalRoundTripMicroseconds?["p99"] == result.refusalRoundTrip(99))
    }

    @Test("Open loop: latency counts from when a request was due, not when it was sent")
    func openLoopIsCorrectedForCoordinatedOmission() throws {
        var transport = SimulatedTransport()
        transport.service = 100_000  // 10% busy at 1000/s, so the backlog drains quickly after the stall
        transport.pause = (transport.clock + 100_000_000)..<(transport.clock + 300_000_000)  // 200 ms stall
        var engine = BenchEngine(plan: plan { $0.requests = 1000; $0.load = .open(rate: 1000, maxOutstanding: 10_000) }, transport: transport)
        let result = try engine.run()
        #expect(result.succeeded == 1000)
        // The ~200 requests due during the stall were sent late; counted from their due
        // time they waited up to 200 ms. Counted from their send time they would all be ~1 ms.
        let slow = result.histogram.count(within: 100_000...1_000_000)
        #expect(slow >= 90, "\(slow) requests over 100 ms")
        #expect(result.latency(100) >= 190_000)
        #expect(result.latency(50) < 10_000, "requests outside the stall stay fast")
    }

    @Test("Closed loop measures from the send, as it should: a stall shows as one slow batch")
    func closedLoopMeasuresFromSend() throws {
        var transport = SimulatedTransport()
        transport.pause = (transport.clock + 100_000_000)..<(transport.clock + 300_000_000)
        var engine = BenchEngine(plan: plan { $0.requests = 1000; $0.load = .closed(concurrency: 1) }, transport: transport)
        let result = try engine.run()
        #expect(result.histogram.count(within: 100_000...1_000_000) <= 1)
    }

    @Test("A run bounded by duration stops on its own, having sent what was due")
    func durationBoundedRunStops() throws {
        var engine = BenchEngine(plan: plan { $0.duration = .seconds(2); $0.load = .open(rate: 500, maxOutstanding: 100) }, transport: SimulatedTransport())
        let result = try engine.run()
        #expect(result.sent == 1000)
        #expect(result.completed == 1000)
        // The last request was due at 1.998 s; the run ends once it is answered.
        #expect(result.elapsedNanoseconds >= 1_998_000_000)
        #expect(result.elapsedNanoseconds < 2_100_000_000)
    }

    @Test("A run bounded by a count stops on its own, and warm-up requests are not counted")
    func countBoundedRunStops() throws {
        var engine = BenchEngine(plan: plan { $0.requests = 50; $0.warmup = 20; $0.load = .closed(concurrency: 3) }, transport: SimulatedTransport())
        let result = try engine.run()
        #expect(result.sent == 50)
        #expect(result.histogram.totalCount == 50)
    }

    @Test("A plan with no bound, or no rate, is refused")
    func unboundedPlansAreRefused() {
        #expect(throws: BenchError.self) { try plan { $0.requests = nil }.validate() }
        #expect(throws: BenchError.self) { try plan { $0.requests = 10; $0.load = .open(rate: 0, maxOutstanding: 1) }.validate() }
    }

    @Test("A run asked to stop ends within a tenth of a second with what it measured, and counts what was in flight as unanswered")
    func interruptedRunKeepsItsFigures() throws {
        var stopped = BenchEngine(plan: plan { $0.duration = .seconds(60); $0.load = .closed(concurrency: 8) }, transport: SimulatedTransport())
        var calls = 0
        stopped.interrupted = {
            calls += 1
            return calls > 20
        }
        let partial = try stopped.run()
        #expect(partial.stopped == .interrupted)
        #expect(partial.completed > 0 && partial.completed + partial.unanswered == partial.sent)
        #expect((1...8).contains(partial.unanswered))
        #expect(Double(partial.elapsedNanoseconds) / 1e9 < 3)
        #expect(partial.summary.stopped == "interrupted" && partial.summary.unanswered == partial.unanswered)
    }

    @Test("A lost connection ends the run as hostLost; a warm-up that ends so, or answers a mix entry only unknownIntent, throws")
    func lostHostAndMisspeltIntent() throws {
        var transport = SimulatedTransport()
        transport.loseAt = transport.clock + 1_000_000_000
        var engine = BenchEngine(plan: plan { $0.duration = .seconds(60); $0.load = .closed(concurrency: 4) }, transport: transport)
        let result = try engine.run()
        #expect(result.stopped == .hostLost)
        #expect(Double(result.elapsedNanoseconds) / 1e9 < 1.2)
        var warming = BenchEngine(plan: plan { $0.requests = 10; $0.warmup = 5000; $0.load = .closed(concurrency: 4) }, transport: transport)
        #expect(throws: BenchError.self) { try warming.run() }
        var misspelt = SimulatedTransport()
        misspelt.failing = [1: "unknownIntent"]
        var refusing = BenchEngine(plan: plan { $0.requests = 10; $0.warmup = 100 }, transport: misspelt)
        #expect(throws: BenchError.self) { try refusing.run() }
    }

    @Test("The mix parses App.Intent=weight and is served in exact proportion")
    func mixParsesAndCycles() throws {
        let mix = try BenchPlan.parseMix("Bench.SendMessage=5, MonkeyChat.SearchForMessages")
        #expect(mix == [.init(app: "Bench", intent: "SendMessage", weight: 5), .init(app: "MonkeyChat", intent: "SearchForMessages", weight: 1)])
        #expect(throws: BenchError.self) { try BenchPlan.parseMix("NoDot=1") }
        #expect(throws: BenchError.self) { try BenchPlan.parseMix("A.B=0") }
        #expect(throws: BenchError.self) { try BenchPlan.parseMix("A.B,A.B=2") }
        #expect(throws: BenchError.self) { try plan { $0.requests = nil; $0.duration = .zero }.validate() }
        var cycle = WeightedCycle([5, 1])
        let picks = (0..<60).map { _ in cycle.next() }
        #expect(picks.filter { $0 == 1 }.count == 10)
    }
}

@Suite("Load generator transport and charts")
struct TransportTests {
    @Test("Replies are classified from their code without a full decode")
    func repliesAreClassified() {
        func classify(_ text: String, _ mode: BenchPlan.Mode) -> String? {
            Array(text.utf8).withUnsafeBytes { ZeroMQTransport.failure(in: $0, mode: mode) }
        }
        #expect(classify(#"{"code":"success","response":{}}"#, .handle) == nil)
        #expect(classify(#"{"code":"failureRequiringAppLaunch"}"#, .handle) == "failureRequiringAppLaunch")
        #expect(classify(#"{"error":"boom"}"#, .handle) == "extensionError")
        #expect(classify(#"{"app":"A","code":"success","outcome":"success"}"#, .lifecycle) == nil)
        #expect(classify(#"{"app":"A","code":"requiresUnlock","outcome":"refused"}"#, .lifecycle) == "requiresUnlock")
    }

    @Test("Request bodies are padded to about the asked size")
    func bodiesArePadded() throws {
        let body = try ZeroMQTransport.body(for: "SendMessage", mode: .handle, size: 256)
        #expect((256...260).contains(body.count))
        #expect(try ZeroMQTransport.body(for: "SendMessage", mode: .lifecycle, size: 512).count >= 512)
    }

    @Test("Reference runs before and after combine into one: round trips over time, latencies averaged")
    func referenceRunsCombine() throws {
        let before = ReferenceRun.Result(count: 100, window: 32, size: 256, seconds: 1, per_second: 100, p50_us: 10, p99_us: 20, p999_us: 30, cpu_seconds: 1)
        let after = ReferenceRun.Result(count: 100, window: 32, size: 256, seconds: 3, per_second: 33, p50_us: 30, p99_us: 40, p999_us: 50, cpu_seconds: 2)
        let both = try #require(ReferenceRun.combined([before, after]))
        #expect(both.count == 200 && both.seconds == 4 && both.per_second == 50)
        #expect(both.p50_us == 20 && both.p99_us == 30 && both.p999_us == 40 && both.cpu_seconds == 3)
        #expect(ReferenceRun.combined([]) == nil)
    }

    @Test("The latency chart is an SVG with one line per run and markers for the reference")
    func chartIsSVG() throws {
        var engine = BenchEngine(plan: { var p = BenchPlan(); p.warmup = 0; p.requests = 100; return p }(), transport: SimulatedTransport())
        let result = try engine.run()
        let svg = LatencyPlot(title: "t", series: [
            .init(label: "run", histogram: result.histogram),
            .init(label: "ref", points: [(50, 100), (99, 200)], markersOnly: true),
        ]).svg()
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.contains("<polyline"))
        #expect(svg.components(separatedBy: "<circle").count - 1 == 2)
    }

    @Test("The latency axis is marked in round steps that reach the slowest point")
    func roundTicks() {
        #expect(LatencyPlot.ticks(upTo: 10.69) == (2, 6))
        #expect(LatencyPlot.ticks(upTo: 0.35) == (0.05, 7))
        #expect(LatencyPlot.ticks(upTo: 1) == (0.2, 5))
    }
}
