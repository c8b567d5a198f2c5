import Foundation
import IntentProtocol
import Testing

/// The host's Prometheus metrics, scraped over HTTP after known traffic, with real processes.
@Suite("Metrics")
struct MetricsTests {
    @Test("A request naming another host than loopback (DNS rebinding) is refused with 421; loopback names are served")
    func otherHostNamesAreRefused() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        let base = try #require(try host.client().status().http)
        let port = try #require(base.split(separator: ":").last.flatMap { UInt16($0) })
        #expect(try Self.status(port: port, host: "evil.example:\(port)") == 421)
        #expect(try Self.status(port: port, host: "127.0.0.1.evil.example") == 421)
        #expect(try Self.status(port: port, host: "127.0.0.1:\(port)") == 200)
        #expect(try Self.status(port: port, host: "localhost:\(port)") == 200)
    }

    /// The status code of `GET /metrics` sent to 127.0.0.1:`port` with `Host: host`.
    static func status(port: UInt16, host: String) throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestError("connect: \(errno)") }
        let request = Array("GET /metrics HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
        guard write(fd, request, request.count) == request.count else { throw TestError("write: \(errno)") }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &buffer, buffer.count)
        let line = String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self)
        guard let code = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { throw TestError("no status line: \(line)") }
        return code
    }

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
