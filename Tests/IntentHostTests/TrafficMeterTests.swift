import Testing
@testable import IntentHost
@testable import IntentProtocol

/// Answers every stage at once: replies, except that handles of `CancelRide` are refused.
struct AnsweringExtension: StageSender {
    func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
        intent == "CancelRide" ? .refused(.requiresUnlock, "unlock first") : .reply(Array(#"{"code":"success"}"#.utf8))
    }
}

@Suite("Traffic meter")
struct TrafficMeterTests {
    @Test("Every request sent through the metered sender is counted by app, refusals as failures")
    func countsStagesByApp() async {
        let meter = TrafficMeter()
        let sender = MeteredStageSender(inner: AnsweringExtension(), meter: meter)
        for _ in 0..<3 { _ = await sender.stage(app: "MonkeyChat", intent: "SendMessage", stage: .handle, body: []) }
        _ = await sender.stage(app: "Zippy", intent: "CancelRide", stage: .handle, body: [], key: "k", batched: false)
        let totals = meter.take()
        #expect(totals["MonkeyChat"]?.requests == 3)
        #expect(totals["MonkeyChat"]?.failures == 0)
        #expect(totals["Zippy"]?.requests == 1)
        #expect(totals["Zippy"]?.failures == 1)
    }

    @Test("The slowest stage is reported once per reading; totals keep adding up")
    func slowestResetsOnRead() {
        let meter = TrafficMeter()
        meter.record(app: "Zippy", latency: .milliseconds(7), failed: false)
        meter.record(app: "Zippy", latency: .milliseconds(2), failed: false)
        let first = meter.take()["Zippy"]
        #expect(first?.slowestMicroseconds == 7000)
        #expect(first?.latencyMicroseconds == 9000)
        meter.record(app: "Zippy", latency: .milliseconds(1), failed: true)
        let second = meter.take()["Zippy"]
        #expect(second?.slowestMicroseconds == 1000)
        #expect(second?.requests == 3)
        #expect(second?.failures == 1)
    }

    @Test("No more than maxApps apps are counted, however many names come")
    func boundedByApps() {
        let meter = TrafficMeter()
        for i in 0..<(TrafficMeter.maxApps + 50) { meter.record(app: "app\(i)", latency: .zero, failed: false) }
        #expect(meter.take().count == TrafficMeter.maxApps)
    }
}
