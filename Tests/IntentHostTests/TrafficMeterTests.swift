import Testing
@testable import IntentHost
@testable import IntentProtocol

@Suite("Traffic meter")
struct TrafficMeterTests {
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
