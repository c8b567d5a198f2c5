import Testing
import ZeroMQ
@testable import IntentProtocol

@Suite("Wire messages")
struct WireTests {
    func frames(_ parts: [[UInt8]]) -> ArraySlice<Message> { parts.map { Message(bytes: $0) }[...] }
    let sig = Array("intentd/2".utf8)

    @Test("Every client message survives encoding and parsing")
    func clientMessagesRoundTrip() throws {
        let submit = ClientMessage.submit(RequestID(7), app: "MonkeyChat", intent: "SendMessage", body: Body(text: "{}"))
        guard case .submit(let id, let app, let intent, let body) = try ClientMessage(frames: [try submit.frame()][...]) else {
            Issue.record("not a submit")
            return
        }
        #expect(id == RequestID(7) && app == "MonkeyChat" && intent == "SendMessage" && body.string == "{}")

        let stage = ClientMessage.stage(RequestID(8), app: "A", intent: "I", .handle, body: Body(text: "{}"))
        guard case .stage(_, _, _, let s, _) = try ClientMessage(frames: [try stage.frame()][...]) else {
            Issue.record("not a stage")
            return
        }
        #expect(s == .handle)

        guard case .lock(_, true) = try ClientMessage(frames: [try ClientMessage.lock(RequestID(9), true).frame()][...]) else {
            Issue.record("not a lock")
            return
        }
        #expect(try ClientMessage(frames: [try ClientMessage.status(RequestID(10)).frame()][...]).requestID == RequestID(10))
    }

    @Test("Host and extension messages survive encoding and parsing")
    func extensionMessagesRoundTrip() throws {
        let request = HostToExtension.request(RequestID(1 << 40), .resolve, intent: "SendMessage", body: Body(text: "{}"))
        guard case .request(let id, .resolve, "SendMessage", _) = try HostToExtension(frames: [try request.frame()][...]) else {
            Issue.record("not a request")
            return
        }
        #expect(id.value == 1 << 40)
        guard case .rejected("appTaken", "why") = try HostToExtension(frames: [try HostToExtension.rejected(code: "appTaken", reason: "why").frame()][...]) else {
            Issue.record("not a rejection")
            return
        }
        guard case .reply(RequestID(3), _) = try ExtensionMessage(frames: [try ExtensionMessage.reply(RequestID(3), body: Body(text: "{}")).frame()][...]) else {
            Issue.record("not a reply")
            return
        }
        guard case .error(_, "malformed", "bad") = try HostToClient(frames: [try HostToClient.error(RequestID(1), code: "malformed", message: "bad").frame()][...]) else {
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

    static func header(_ command: UInt8, _ rest: [UInt8] = []) -> [UInt8] { Array("intentd/2".utf8) + [command] + rest }
    static func name(_ text: String) -> [UInt8] { [UInt8(text.utf8.count)] + Array(text.utf8) }
    static let id1: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1]

    @Test("Malformed messages are reported with what is wrong", arguments: [
        ([[0x00]], "signature"),
        ([Array("intentd/1".utf8) + [0x10]], "signature"),
        ([header(0x77)], "not a known command"),
        ([header(0x10, [1, 2])], "header is 18 bytes"),
        ([header(0x10, id1)], "the app name"),
        ([header(0x10, id1 + [0, 65])], "the app name"),
        ([header(0x10, id1 + name("A") + [9, 65])], "the intent name"),
        ([header(0x10, id1 + [1, 0xFF] + name("I"))], "the app name"),
        ([header(0x11, id1 + [4] + name("A") + name("I"))], "the stage byte"),
        ([header(0x01)], "not sent by clients"),
        ([header(0x15, id1 + [2])], "the LOCK byte"),
        ([header(0x14, id1 + [1])], "carries nothing after its header"),
        ([header(0x14, id1), [1]], "one frame"),
        ([], "no frames"),
    ] as [([[UInt8]], String)])
    func malformedMessagesAreExplained(parts: [[UInt8]], says: String) {
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
        #expect(Wire.bestEffortRequestID(frames([Self.header(0x10, [0, 0, 0, 0, 0, 0, 0, 5]) + [1]])) == RequestID(5))
        #expect(Wire.bestEffortRequestID(frames([sig])) == RequestID(0))
    }

    @Test("A message is one frame: signature, command, request id, flag, length-prefixed names, then the body")
    func messageLayout() throws {
        let stage = try ClientMessage.stage(RequestID(0x0102), app: "A", intent: "Do", .handle, body: Body(text: "{}")).frame()
        #expect(stage.bytes == Self.header(0x11, [0, 0, 0, 0, 0, 0, 1, 2, 3]) + [1, 65, 2, 68, 111] + Array("{}".utf8))
        #expect(try HostToExtension.heartbeat.frame().bytes == Self.header(0x06))
        let error = try HostToClient.error(RequestID(1), code: "tooLarge", message: "too big").frame()
        #expect(error.bytes == Self.header(0x13, Self.id1) + Self.name("tooLarge") + Array("too big".utf8))
    }

    @Test("Names over 255 bytes cannot be sent, and an empty body is a body")
    func nameLimits() throws {
        let long = String(repeating: "x", count: 256)
        #expect(throws: ProtocolError.self) { try ClientMessage.submit(RequestID(1), app: long, intent: "I", body: Body([])).frame() }
        #expect(throws: ProtocolError.self) { try ClientMessage.submit(RequestID(1), app: "", intent: "I", body: Body([])).frame() }
        let edge = String(repeating: "é", count: 127) + "x"
        let parsed = try ClientMessage(frames: [try ClientMessage.vocab(RequestID(2), app: edge, body: Body([])).frame()][...])
        guard case .vocab(_, let app, let body) = parsed else {
            Issue.record("not a vocab")
            return
        }
        #expect(app == edge && body.count == 0)
    }
}
