import Testing
import ZeroMQ
@testable import IntentProtocol

@Suite("Wire frames")
struct WireTests {
    func frames(_ parts: [[UInt8]]) -> ArraySlice<Message> { parts.map { Message(bytes: $0) }[...] }
    let sig = Array("intentd/1".utf8)

    @Test("Every client message survives encoding and parsing")
    func clientMessagesRoundTrip() throws {
        let submit = ClientMessage.submit(RequestID(7), app: "MonkeyChat", intent: "SendMessage", body: Message(string: "{}"))
        guard case .submit(let id, let app, let intent, let body) = try ClientMessage(frames: submit.frames[...]) else {
            Issue.record("not a submit")
            return
        }
        #expect(id == RequestID(7) && app == "MonkeyChat" && intent == "SendMessage" && body.string == "{}")

        let stage = ClientMessage.stage(RequestID(8), app: "A", intent: "I", .handle, body: Message(string: "{}"))
        guard case .stage(_, _, _, let s, _) = try ClientMessage(frames: stage.frames[...]) else {
            Issue.record("not a stage")
            return
        }
        #expect(s == .handle)

        guard case .lock(_, true) = try ClientMessage(frames: ClientMessage.lock(RequestID(9), true).frames[...]) else {
            Issue.record("not a lock")
            return
        }
        #expect(try ClientMessage(frames: ClientMessage.status(RequestID(10)).frames[...]).requestID == RequestID(10))
    }

    @Test("Host and extension messages survive encoding and parsing")
    func extensionMessagesRoundTrip() throws {
        let request = HostToExtension.request(RequestID(1 << 40), .resolve, intent: "SendMessage", body: Message(string: "{}"))
        guard case .request(let id, .resolve, "SendMessage", _) = try HostToExtension(frames: request.frames[...]) else {
            Issue.record("not a request")
            return
        }
        #expect(id.value == 1 << 40)
        guard case .rejected("appTaken", "why") = try HostToExtension(frames: HostToExtension.rejected(code: "appTaken", reason: "why").frames[...]) else {
            Issue.record("not a rejection")
            return
        }
        guard case .reply(RequestID(3), _) = try ExtensionMessage(frames: ExtensionMessage.reply(RequestID(3), body: Message(string: "{}")).frames[...]) else {
            Issue.record("not a reply")
            return
        }
        guard case .error(_, "malformed", "bad") = try HostToClient(frames: HostToClient.error(RequestID(1), code: "malformed", message: "bad").frames[...]) else {
            Issue.record("not an error")
            return
        }
    }

    @Test("Request ids are 8 bytes, big-endian")
    func requestIDsAreBigEndian() {
        #expect(RequestID(0x0102).bytes == [0, 0, 0, 0, 0, 0, 1, 2])
        #expect([UInt8](repeating: 0xFF, count: 8).withUnsafeBytes { RequestID(bytes: $0) } == RequestID(.max))
        #expect([UInt8](repeating: 0, count: 7).withUnsafeBytes { RequestID(bytes: $0) } == nil)
    }

    static func header(_ command: UInt8, _ rest: [UInt8] = []) -> [UInt8] { Array("intentd/1".utf8) + [command] + rest }
    static let id1: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1]

    @Test("Malformed frames are reported with what is wrong", arguments: [
        ([[0x00]], "signature"),
        ([Array("intentd/2".utf8) + [0x10]], "signature"),
        ([header(0x77)], "not a known command"),
        ([header(0x10, [1, 2])], "header is 18 bytes"),
        ([header(0x10, id1)], "takes 3 frames"),
        ([header(0x10, id1), [], [65], []], "the app name"),
        ([header(0x11, id1 + [4]), [65], [65], []], "the stage byte"),
        ([header(0x01), []], "not sent by clients"),
        ([header(0x15, id1 + [2])], "the LOCK byte"),
        ([header(0x14, id1), [1]], "takes 0 frames"),
    ] as [([[UInt8]], String)])
    func malformedFramesAreExplained(parts: [[UInt8]], says: String) {
        do {
            _ = try ClientMessage(frames: frames(parts))
            Issue.record("parsed a malformed message")
        } catch {
            #expect(error.description.contains(says), "\(error.description)")
            #expect(error.code == .malformed)
        }
    }

    @Test("The request id of a broken message is recovered when its header holds one")
    func bestEffortRequestID() {
        #expect(Wire.bestEffortRequestID(frames([Self.header(0x10, [0, 0, 0, 0, 0, 0, 0, 5]), [1]])) == RequestID(5))
        #expect(Wire.bestEffortRequestID(frames([sig])) == RequestID(0))
    }

    @Test("A header is one frame: signature, command, request id and flag")
    func headerLayout() {
        let frames = ClientMessage.stage(RequestID(0x0102), app: "A", intent: "I", .handle, body: Message(string: "{}")).frames
        #expect(frames.count == 4)
        #expect(frames[0].bytes == Self.header(0x11, [0, 0, 0, 0, 0, 0, 1, 2, 3]))
        #expect(HostToExtension.heartbeat.frames.map(\.bytes) == [Self.header(0x06)])
    }
}
