import Foundation
import IntentProtocol
import Testing

/// The host's Prometheus metrics, scraped over HTTP after known traffic, with real processes.
@Suite("Metrics")
struct MetricsTests {
    @Test("After 3 sent messages, 2 refused while locked and 1 to an unknown app, /metrics counts exactly those")
    func metricsCountKnownTraffic() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        for i in 0..<3 {
            let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Coco", "content=hello \(i)")
            #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        }
        #expect(try host.ctl("lock").status == 0)
        for _ in 0..<2 { _ = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Coco", "content=not now") }
        _ = try host.ctl("send", "NoSuchApp\u{1B}[31m", "SendMessage", "content=hi")

        let metrics = try host.metrics()
        let submit = ["app": "MonkeyChat", "intent": "SendMessage", "stage": "submit"]
        #expect(metrics.value("intentd_requests_total", submit.merging(["outcome": "success"]) { $1 }) == 3)
        #expect(metrics.value("intentd_requests_total", submit.merging(["outcome": "refused"]) { $1 }) == 2)
        #expect(metrics.value("intentd_requests_total", [
            "app": "MonkeyChat", "intent": "SendMessage", "stage": "handle", "outcome": "answered",
        ]) == 3, "refused sends never reach the extension")
        #expect(metrics.value("intentd_requests_total", [
            "app": "other", "intent": "SendMessage", "stage": "submit", "outcome": "refused",
        ]) == 1, "an app the host does not know is counted as other")
        #expect(!metrics.samples.keys.contains { $0.contains("NoSuchApp") }, "no label comes from an unknown name")
        #expect(metrics.value("intentd_request_duration_seconds_count", ["app": "MonkeyChat", "stage": "submit"]) == 3)
        #expect(metrics.value("intentd_request_duration_seconds_count", ["app": "MonkeyChat", "stage": "handle"]) == 3)
        #expect(metrics.value("intentd_registrations_total", ["app": "MonkeyChat", "outcome": "registered"]) == 1)
        #expect(metrics.value("intentd_requests_in_flight") == 0)
    }
}
