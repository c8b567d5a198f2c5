import Foundation
import IntentProtocol
import Testing

/// One request's trace across processes: the W3C traceparent from the client through the
/// host to the extension, in both logs, with real processes.
@Suite("Trace")
struct TraceTests {
    @Test("One SUBMIT's trace id is on the host's and the extension's lines for every request it makes, and logs --trace prints them")
    func oneSubmitIsTracedThroughEveryStage() throws {
        let host = try TestHost(["--extensions", "messaging"], environment: ["INTENTD_LOG_LEVEL": "debug"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
        let sent = try host.ctl(
            "send", "MonkeyChat", "SendMessage", "recipients=Coco", "content=traced", "--json",
            "--traceparent", "00-\(traceID)-00f067aa0ba902b7-01")
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        #expect(sent.json?["traceparent"]?.stringValue == "00-\(traceID)-00f067aa0ba902b7-01", "the outcome names the trace")

        let logs = host.state.appendingPathComponent("logs")
        let hostLines = LogLine.all(in: (try? String(contentsOf: logs.appendingPathComponent("intentd.log"), encoding: .utf8)) ?? "")
            .filter { $0.metadata["trace"] == traceID }
        let extensionLines = host.extensionLines("com.monkeychat.intents").filter { $0.metadata["trace"] == traceID }
        // MonkeyChat takes batches: its resolves travel with the confirm in one request, whose
        // stage is the batch's last; the handle goes alone.
        for stage in ["confirm", "handle"] {
            #expect(hostLines.contains { $0.metadata["stage"] == stage && $0.message == "sent" }, "the host sent \(stage) with the trace")
            #expect(hostLines.contains { $0.metadata["stage"] == stage && $0.message == "answered" }, "the host got \(stage)'s answer")
            #expect(extensionLines.contains { $0.metadata["stage"] == stage }, "MonkeyChat logged \(stage) with the trace")
        }
        #expect(hostLines.contains { $0.message == "submit" } && hostLines.contains { $0.message.hasPrefix("success") })

        let printed = try host.ctl("logs", "--trace", traceID)
        #expect(printed.status == 0, "\(printed.stderr)")
        let lines = printed.stdout.split(separator: "\n")
        #expect(lines.count == hostLines.count + extensionLines.count, "\(printed.stdout)")
        #expect(lines.contains { $0.contains(" intentd debug ") } && lines.contains { $0.contains("[messaging]") })
        let other = try host.ctl("logs", "--trace", "00000000000000000000000000000001")
        #expect(other.stdout.isEmpty, "another trace prints nothing")
    }

    @Test("A conversation's lifecycles carry one trace, which its outcome names, and logs --trace prints the extension's lines of it")
    func aConversationIsTraced() throws {
        let host = try TestHost(["--extensions", "messaging"], environment: ["INTENTD_LOG_LEVEL": "debug"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0)
        let asked = try host.ctl("ask", "text coco traced in words", "--json")
        #expect(asked.status == 0, "\(asked.stdout)\(asked.stderr)")
        let traceparent = try #require(asked.json?["traceparent"]?.stringValue, "\(asked.stdout)")
        let traceID = try #require(TraceParent.traceID(of: traceparent))
        let extensionLines = host.extensionLines("com.monkeychat.intents").filter { $0.metadata["trace"] == traceID }
        #expect(extensionLines.contains { $0.metadata["stage"] == "handle" }, "MonkeyChat logged the handle with the conversation's trace")
        let printed = try host.ctl("logs", "--trace", traceID)
        #expect(printed.stdout.contains("[messaging]"), "\(printed.stdout)")
    }
}
