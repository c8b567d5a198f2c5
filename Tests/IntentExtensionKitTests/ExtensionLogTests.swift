import Foundation
import IntentExtensionKitTesting
import Logging
import Testing
@testable import IntentExtensionKit

@Suite("Extension log")
struct ExtensionLogTests {
    @Test("A line logged while a request is served carries the app, the request, its stage and intent, and the session")
    func linesCarryTheRequestsMetadata() async throws {
        let recorder = try LogRecorder(app: "MonkeyChat")
        let body = Array(#"{"sessionId":"s-42","language":"en","intent":"SendMessage","parameters":{}}"#.utf8)
        let serving = RequestMetadata(id: RequestID(7), stage: .handle, intent: "SendMessage", body: body)
        RequestMetadata.$current.withValue(serving) { recorder.context.log.info("sending") }
        recorder.context.log.info("idle")

        let sent = try #require(recorder.entries.first)
        #expect(sent.message.description == "sending")
        #expect(sent.metadata["app"] == "MonkeyChat")
        #expect(sent.metadata["request"] == "7")
        #expect(sent.metadata["stage"] == "handle")
        #expect(sent.metadata["intent"] == "SendMessage")
        #expect(sent.metadata["session"] == "s-42")
        let idle = try #require(recorder.entries.last)
        #expect(idle.metadata["request"] == nil, "outside a request, no request is named")
    }

    @Test("A line keeps to one line and reads back with its metadata, however hostile the values")
    func lineFormatEscapesAndReadsBack() throws {
        let text = LogLine.format(
            time: Date(), label: "intentd", level: .warning,
            metadata: ["app": "Evil\nintentd info: forged", "request": "3", "note": "a \"quoted\" = ]"],
            message: "gone\r\n\u{1B}[31m")
        #expect(text.filter { $0 == "\n" || $0 == "\r\n" }.count == 1, "one line: \(text)")
        #expect(!text.contains("\u{1B}"))
        let line = try #require(LogLine(text.dropLast()[...]))
        #expect(line.label == "intentd" && line.level == "warning")
        #expect(line.metadata["request"] == "3")
        #expect(line.metadata["app"] == #"Evil\nintentd info: forged"#)
        #expect(line.metadata["note"] == #"a "quoted" = ]"#)
        #expect(line.message == #"gone\r\n\u{1B}[31m"#)
    }
}
