import CZeroMQ
import Foundation
import IntentClient
import IntentProtocol
import Testing
import ZeroMQ

/// Past its admission limits the host refuses at once with `overloaded`, stays fair between
/// clients, and gives back the memory a flood took. Behaviour only: no timings.
@Suite("Overload", .serialized)
struct OverloadTests {
    @Test("A flood beyond the host's limit of requests in flight is refused with overloaded, and intentctl exits 4")
    func floodBeyondHostLimitIsRefused() throws {
        let (host, ext) = try Self.hostWithHungMonkeyChat(Self.config(maxInFlight: 64, perClient: 16))
        defer { host.stop(); host.removeState() }
        defer { kill(ext.processIdentifier, SIGCONT) }

        // Eight connections, each within its own limit of 16, together twice the host's 64.
        let flooders = try (0..<8).map { _ in try Flooder(host) }
        for flooder in flooders { try flooder.stage(count: 16, app: "MonkeyChat") }
        let refused = try Flooder.codes(of: flooders, expecting: 8 * 16 - 64, within: .seconds(20))
        #expect(refused == ["overloaded": 8 * 16 - 64], "the excess, and only the excess, is refused at once")

        let sent = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=x", "--json")
        #expect(sent.status == 4, "\(sent.stdout)\(sent.stderr)")
        #expect(sent.stderr.contains("overloaded"), "\(sent.stderr)")
        #expect(host.process?.isRunning == true)

        // Once the extension answers, the slots are free again.
        kill(ext.processIdentifier, SIGCONT)
        let answered = try Flooder.codes(of: flooders, expecting: 64, within: .seconds(30))
        #expect(answered.values.reduce(0, +) == 64 && answered["overloaded"] == nil, "\(answered)")
        let later = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=x", "--json")
        #expect(later.status == 0, "\(later.stdout)\(later.stderr)")
    }

    @Test("A well-behaved client is still served while another client floods the host")
    func wellBehavedClientIsServedDuringFlood() throws {
        let (host, ext) = try Self.hostWithHungMonkeyChat(Self.config(maxInFlight: 64, perClient: 16), bench: true)
        defer { host.stop(); host.removeState() }
        defer { kill(ext.processIdentifier, SIGCONT) }

        // One client floods the hung app with ten times the host's whole limit.
        let flooder = try Flooder(host)
        try flooder.stage(count: 640, app: "MonkeyChat")
        let codes = try flooder.codes(expecting: 640 - 16, within: .seconds(30))
        #expect(codes["overloaded"] == 640 - 16, "\(codes)")

        // The host kept room for everyone else.
        for _ in 0..<3 {
            let sent = try host.ctl("send", "Bench", "SendMessage", "recipients=Coco", "content=hi", "--json")
            #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        }
    }

    @Test("A hung extension instance takes no more than its own limit of requests, and the host keeps serving other apps")
    func hungInstanceIsBoundedByItsLimit() throws {
        let (host, ext) = try Self.hostWithHungMonkeyChat(Self.config(maxInFlight: 64, perClient: 64, perInstance: 8), bench: true)
        defer { host.stop(); host.removeState() }
        defer { kill(ext.processIdentifier, SIGCONT) }

        let flooder = try Flooder(host)
        try flooder.stage(count: 40, app: "MonkeyChat")
        #expect(try flooder.codes(expecting: 32, within: .seconds(20)) == ["overloaded": 32])
        // A lifecycle whose stage finds every instance full is refused, not failed.
        let refused = try host.client().submit(app: "MonkeyChat", intent: "SearchForMessages", Submission(parameters: [:]))
        #expect(refused.outcome == .refused && refused.code == "overloaded", "\(refused)")
        let sent = try host.ctl("send", "Bench", "SendMessage", "recipients=Coco", "content=hi", "--json")
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
    }

    @Test("A client that never reads its large replies cannot make the host keep the memory after it leaves")
    func memoryReturnsAfterNonReadingClientLeaves() throws {
        let host = try TestHost(["--extensions", "bench"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Bench"])
        let pid = try #require(host.process?.processIdentifier)

        // Warm up the path with a reader, then take the baseline.
        let content = String(repeating: "b", count: 100_000)
        let reader = try Flooder(host)
        try reader.stage(count: 30, app: "Bench", resolving: content)
        #expect(try reader.codes(expecting: 30, within: .seconds(30))["success"] == 30)
        #expect(reader.largestReply > 100_000, "the bench extension sends the content back")
        usleep(1_500_000)
        let baseline = try Self.residentKilobytes(pid)

        // 2,000 requests of 100 KB whose 100 KB replies are never read (deploy/chaos.sh: 10,000).
        let requests = ProcessInfo.processInfo.environment["INTENTD_CHAOS_REQUESTS"].flatMap { Int($0) } ?? 2000
        do {
            let silent = try Flooder(host, receiveBuffer: 1)
            try silent.stage(count: requests, app: "Bench", resolving: content)
            usleep(2_000_000)
            let sent = try host.ctl("send", "Bench", "SendMessage", "recipients=Coco", "content=hi", "--json")
            #expect(sent.status == 0, "another client is served meanwhile: \(sent.stdout)\(sent.stderr)")
            let held = try Self.residentKilobytes(pid)
            print("intentd RSS: \(baseline) kB before, \(held) kB with the silent client connected")
            #expect(held - baseline < 128_000, "what a silent client makes the host hold is bounded")
        }
        // The client is gone; within a few heartbeats the host gives the memory back.
        var after = try Self.residentKilobytes(pid)
        for _ in 0..<40 where after - baseline > 10_000 {
            usleep(250_000)
            after = try Self.residentKilobytes(pid)
        }
        print("intentd RSS: \(baseline) kB before, \(after) kB after the silent client left")
        #expect(after - baseline < 10_240, "RSS \(baseline) kB before, \(after) kB after")
    }

    @Test("A STAGE refused as malformed after it was admitted gives its place back: a client sending only such requests never fills the host")
    func malformedStagesGiveTheirPlaceBack() throws {
        let config = try Self.config(maxInFlight: 2, perClient: 2)
        let host = try TestHost(["--config", config.path, "--extensions", "bench"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Bench"])

        // Ten times the host's whole limit of bodies the host refuses once it has read them:
        // a deadline the host alone may set, and an idempotency key that is not a string.
        let flooder = try Flooder(host)
        let start = #"{"sessionId":"s","language":"en","intent":"SendMessage","parameters":{},"#
        try flooder.stage(count: 10, app: "Bench", intent: "SendMessage", .handle, raw: start + #""deadline":1}"#)
        try flooder.stage(count: 10, app: "Bench", intent: "SendMessage", .handle, raw: start + #""idempotencyKey":5}"#)
        #expect(try flooder.codes(expecting: 20, within: .seconds(20)) == ["malformed": 20])

        let sent = try host.ctl("send", "Bench", "SendMessage", "recipients=Coco", "content=hi", "--json")
        #expect(sent.status == 0, "the host's places are all free: \(sent.stdout)\(sent.stderr)")
    }

    @Test("Typed requests that reuse a request id are each answered, and each gives its place back")
    func sayWithARepeatedIdIsAnsweredEachTime() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("intentd-saying-\(UUID().uuidString).json")
        try #"{"admission": {"maxSaying": 2, "maxSayingPerClient": 2}}"#.write(to: url, atomically: true, encoding: .utf8)
        let host = try TestHost(["--config", url.path, "--extensions", "bench"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Bench"])

        let flooder = try Flooder(host)
        for id in [7, 8] {
            try flooder.say(count: 2, text: "send a message to Coco on Bench", id: RequestID(UInt64(id)))
            #expect(try flooder.codes(expecting: 2, within: .seconds(10)) == ["success": 2], "both SAYs with id \(id) answered")
        }
        // Had a place been kept for good, the host's two would be gone by now.
        try flooder.say(count: 2, text: "send a message to Coco on Bench")
        #expect(try flooder.codes(expecting: 2, within: .seconds(10)) == ["success": 2])
    }

    @Test("Changes of policy state are bounded per second: past the bound a LOCK is refused overloaded and changes nothing, and a second later one is taken")
    func lockFloodIsRefusedPastTheBound() throws {
        let host = try TestHost(["--extensions", "bench"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Bench"])
        let flooder = try Flooder(host)
        try flooder.lock(count: 300, locked: true)
        let codes = try flooder.codes(expecting: 300, within: .seconds(20))
        #expect(codes.values.reduce(0, +) == 300, "every LOCK answered: \(codes)")
        #expect((codes["overloaded"] ?? 0) >= 100 && (codes["success"] ?? 0) >= 64, "\(codes)")
        usleep(1_100_000)
        let unlocked = try host.ctl("unlock")
        #expect(unlocked.status == 0, "\(unlocked.stdout)\(unlocked.stderr)")
        let sent = try host.ctl("send", "Bench", "SendMessage", "recipients=Coco", "content=hi", "--json")
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
    }

    @Test("A client that names an app in many spellings cannot grow the host's memory: the route cache is bounded")
    func routeCacheIsBounded() throws {
        let host = try TestHost(["--extensions", "bench"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Bench"])
        let pid = try #require(host.process?.processIdentifier)
        // "Bench" with 195 bytes of punctuation, different for each i: every one names Bench.
        func spelling(_ i: Int) -> String {
            let bits = String(String(i, radix: 2).map { $0 == "0" ? Character(".") : Character("-") })
            return "Bench" + bits + String(repeating: " ", count: 195 - bits.count)
        }
        // Admitted (and so routed) first, then refused for a member the host alone sets:
        // answered at once, without the extension.
        let body = Body(Array(#"{"sessionId":"s","language":"en","intent":"SendMessage","parameters":{},"deadline":1}"#.utf8))
        let flooder = try Flooder(host)
        var frames: [Message] = []
        var id: UInt64 = 0
        func send(_ names: Range<Int>) throws {
            for start in stride(from: names.lowerBound, to: names.upperBound, by: 32) {
                let batch = start..<min(start + 32, names.upperBound)
                for i in batch {
                    id += 1
                    try ClientMessage.stage(RequestID(id), app: spelling(i), intent: "SendMessage", .handle, body: body).send(on: flooder.socket)
                }
                for _ in batch {
                    let n = try #require(try flooder.socket.receiveFrames(into: &frames, wait: true))
                    guard case .error(_, "malformed", _) = try HostToClient(frames: frames[..<n]) else {
                        Issue.record("not refused as malformed")
                        return
                    }
                }
            }
        }
        try send(0..<4_000)
        let baseline = try Self.residentKilobytes(pid)
        try send(4_000..<64_000)
        let after = try Self.residentKilobytes(pid)
        print("intentd RSS: \(baseline) kB before, \(after) kB after 60,000 spellings")
        #expect(after - baseline < 6_000, "RSS \(baseline) kB before, \(after) kB after")
        let sent = try host.ctl("send", "Bench", "SendMessage", "recipients=Coco", "content=hi", "--json")
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
    }

    @Test("A client that does not read its answers to status requests is refused more of them, and the host holds a bounded amount for it")
    func statusAnswersAreBoundedForAClientThatDoesNotRead() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("intentd-overload-\(UUID().uuidString).json")
        try #"{"admission": {"maxQueuedBytesPerClient": 65536}}"#.write(to: config, atomically: true, encoding: .utf8)
        let host = try TestHost(["--config", config.path, "--extensions", "bench"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Bench"])

        let silent = try Flooder(host, receiveBuffer: 1)
        try silent.status(count: 3000)
        usleep(1_000_000)
        let codes = try silent.codes(expecting: 3000, within: .seconds(30))
        #expect(codes.values.reduce(0, +) == 3000, "every request is answered: \(codes)")
        #expect((codes["overloaded"] ?? 0) > 0 && (codes["success"] ?? 0) > 0, "answered until its unread answers passed the bound, refused after: \(codes)")
        let status = try host.ctl("status", "--json")
        #expect(status.status == 0, "\(status.stdout)\(status.stderr)")
    }

    @Test("Typed requests have limits of their own: a flood of them is refused with overloaded, every one is answered once, the places come back, and SUBMITs keep their room")
    func sayFloodIsRefusedPastTheClientLimit() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("intentd-saying-\(UUID().uuidString).json")
        try #"{"admission": {"maxInFlight": 8, "maxSaying": 8, "maxSayingPerClient": 8}}"#.write(to: url, atomically: true, encoding: .utf8)
        let host = try TestHost(["--config", url.path, "--extensions", "bench"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Bench"])

        // The longest request the reader takes, 200 times at once from one connection.
        let words = "send a message to Coco saying I'll call you after lunch on Bench book the airport add milk".split(separator: " ")
        let long = (0..<99).map { String(words[$0 % words.count]) }.joined(separator: " ")
        let flooder = try Flooder(host)
        try flooder.say(count: 200, text: long)
        // While the host reads as much text as it takes, a SUBMIT is still served.
        let sent = try host.ctl("send", "Bench", "SendMessage", "recipients=Coco", "content=hi", "--json")
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        let codes = try flooder.codes(expecting: 200, within: .seconds(120))
        #expect(codes.values.reduce(0, +) == 200, "every SAY is answered exactly once: \(codes)")
        #expect(Set(codes.keys).isSubset(of: ["success", "overloaded"]), "\(codes)")
        #expect(codes["overloaded", default: 0] >= 150, "past its 8 SAYs the client is refused at once: \(codes)")

        // Every answered SAY gave its place back: eight more are all taken.
        try flooder.say(count: 8, text: "what can Bench do")
        #expect(try flooder.codes(expecting: 8, within: .seconds(60)) == ["success": 8])
        let other = try host.client().say(Utterance(text: "what can Bench do"))
        #expect(!other.text.isEmpty)
    }

    @Test("Conversations left open are bounded per client connection; past the bound a new one is refused with overloaded, and other connections still start theirs")
    func openConversationsAreBoundedPerClient() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("intentd-conversations-\(UUID().uuidString).json")
        try #"{"admission": {"maxConversationsPerClient": 3}}"#.write(to: url, atomically: true, encoding: .utf8)
        let host = try TestHost(["--config", url.path, "--extensions", "bench"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Bench"])

        // Each asks a question back and stays open, waiting for the user.
        let flooder = try Flooder(host)
        try flooder.say(count: 4, text: "send a message with Bench")
        let codes = try flooder.codes(expecting: 4, within: .seconds(60))
        #expect(codes == ["success": 3, "overloaded": 1], "\(codes)")
        let other = try host.client().say(Utterance(text: "send a message with Bench"))
        #expect(other.sessionId.isEmpty == false && other.end == nil, "another connection starts its own: \(other)")
    }

    @Test("A typed request still being worked on when the host stops is answered with the conversation's last turn, not left waiting")
    func sayInProgressIsAnsweredWhenTheHostStops() throws {
        let (host, ext) = try Self.hostWithHungMonkeyChat(Self.config(maxInFlight: 64, perClient: 32))
        defer { host.stop(); host.removeState() }
        defer { kill(ext.processIdentifier, SIGCONT) }
        _ = try host.ctl("authorize", "MonkeyChat", "allow")

        // The conversation's first stage waits on the stopped extension, so its turn is not sent.
        let flooder = try Flooder(host)
        try flooder.say(count: 1, text: "text Coco on MonkeyChat saying hi")
        #expect(try flooder.codes(expecting: 1, within: .seconds(1)).isEmpty, "nothing is answered yet")
        host.process?.terminate()
        // Its stage fails shuttingDown, and the conversation says so in its last turn (wire.md
        // section 7): a RESULT, within the stop's 2 s.
        let codes = try flooder.codes(expecting: 1, within: .seconds(10))
        #expect(codes == ["success": 1], "\(codes)")
    }

    // MARK: Helpers

    /// A host with the admission limits of `config` (and the bench extension beside it if
    /// `bench`), and a MonkeyChat started by hand and then stopped (SIGSTOP): whatever the
    /// host admits for MonkeyChat stays in flight. The caller resumes it and stops the host.
    static func hostWithHungMonkeyChat(_ config: URL, bench: Bool = false) throws -> (TestHost, Process) {
        let host = try TestHost(["--config", config.path, "--request-timeout", "60000"] + (bench ? ["--extensions", "bench"] : []))
        do {
            let ext = try host.startExtension()
            try host.waitFor(["MonkeyChat"] + (bench ? ["Bench"] : []))
            kill(ext.processIdentifier, SIGSTOP)
            return (host, ext)
        } catch {
            host.stop()
            host.removeState()
            throw error
        }
    }

    /// A config file with the given admission limits.
    static func config(maxInFlight: Int, perClient: Int, perInstance: Int = 64) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("intentd-overload-\(UUID().uuidString).json")
        let text = #"{"admission": {"maxInFlight": \#(maxInFlight), "maxInFlightPerClient": \#(perClient), "maxInFlightPerInstance": \#(perInstance)}}"#
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    static func residentKilobytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

/// A raw client connection that sends many STAGE requests without waiting and counts the
/// answers by code.
final class Flooder {
    let socket: Socket
    private var nextID: UInt64 = 1
    /// The largest RESULT body received so far, in bytes.
    private(set) var largestReply = 0

    /// Connects as the local client; `receiveBuffer` shrinks what this side takes off the
    /// connection (a client that does not read).
    init(_ host: TestHost, receiveBuffer: Int32? = nil) throws {
        socket = try Socket(try Context(), .dealer)
        try socket.set(ZMQ_SNDHWM, Int32(0))
        try socket.set(ZMQ_LINGER, Int32(0))
        if let receiveBuffer {
            try socket.set(ZMQ_RCVHWM, receiveBuffer)
            try socket.set(ZMQ_RCVBUF, Int32(4096))
        }
        try host.clientSecurity().apply(to: socket, endpoint: host.clientEndpoint)
        try socket.connect(host.clientEndpoint)
    }

    /// Sends `count` STAGE requests: handle, or resolve of a `content` of the given text
    /// (which the bench extension returns as is).
    func stage(count: Int, app: String, resolving content: String? = nil) throws {
        let intent = app == "MonkeyChat" ? "SearchForMessages" : "SendMessage"
        let request = StageRequest(
            sessionId: "flood", language: "en", intent: intent, parameters: content.map { ["content": .string($0)] } ?? [:],
            parameter: content == nil ? nil : "content")
        let body = Body(try JSON.encode(request))
        for _ in 0..<count {
            let id = RequestID(nextID)
            nextID += 1
            try ClientMessage.stage(id, app: app, intent: intent, content == nil ? .handle : .resolve, body: body).send(on: socket)
        }
    }

    /// Sends `count` STAGE requests of `stage` whose body is `body` as it is.
    func stage(count: Int, app: String, intent: String, _ stage: Stage, raw body: String) throws {
        for _ in 0..<count {
            let id = RequestID(nextID)
            nextID += 1
            try ClientMessage.stage(id, app: app, intent: intent, stage, body: Body(Array(body.utf8))).send(on: socket)
        }
    }

    /// Sends `count` LOCK requests.
    func lock(count: Int, locked: Bool) throws {
        for _ in 0..<count {
            let id = RequestID(nextID)
            nextID += 1
            try ClientMessage.lock(id, locked).send(on: socket)
        }
    }

    /// Sends `count` STATUS requests.
    func status(count: Int) throws {
        for _ in 0..<count {
            let id = RequestID(nextID)
            nextID += 1
            try ClientMessage.status(id).send(on: socket)
        }
    }

    /// Sends `count` SAYs of `text`, each starting a conversation, with new ids or all with `id`.
    func say(count: Int, text: String, id given: RequestID? = nil) throws {
        let body = Body(try JSON.encode(Utterance(text: text)))
        for _ in 0..<count {
            let id = given ?? RequestID(nextID)
            nextID += 1
            try ClientMessage.say(id, body: body).send(on: socket)
        }
    }

    /// Answers by code (`success` for a RESULT) until `count` have come or `within` passed.
    func codes(expecting count: Int, within limit: Duration) throws -> [String: Int] {
        try Self.codes(of: [self], expecting: count, within: limit)
    }

    /// The answers to several flooders together, by code, until `count` have come or
    /// `within` passed; then a little longer, so that answers beyond `count` show too.
    static func codes(of flooders: [Flooder], expecting count: Int, within limit: Duration) throws -> [String: Int] {
        var codes: [String: Int] = [:]
        var poller = Poller()
        for flooder in flooders { poller.add(flooder.socket) }
        let deadline = ContinuousClock.now + limit
        var settle: ContinuousClock.Instant?
        var frames: [Message] = []
        while ContinuousClock.now < (settle ?? deadline) {
            if settle == nil, codes.values.reduce(0, +) >= count { settle = ContinuousClock.now + .milliseconds(300) }
            guard try poller.poll(timeout: 50) > 0 else { continue }
            for flooder in flooders {
                while let n = try flooder.socket.receiveFrames(into: &frames, wait: false) {
                    switch try HostToClient(frames: frames[..<n]) {
                    case .error(_, let code, _): codes[code, default: 0] += 1
                    case .result(_, let body):
                        codes["success", default: 0] += 1
                        flooder.largestReply = max(flooder.largestReply, body.count)
                    }
                }
            }
        }
        return codes
    }
}
