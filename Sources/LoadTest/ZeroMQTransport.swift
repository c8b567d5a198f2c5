import Foundation
import IntentProtocol
import ZeroMQ

/// The real transport: a DEALER socket to the host's client endpoint, many requests in
/// flight, replies classified with a light scan instead of a full JSON decode so the load
/// generator spends its CPU on sending.
public struct ZeroMQTransport: BenchTransport {
    private let socket: Socket
    private let monitor: SocketMonitor
    private let mode: BenchPlan.Mode
    private let requests: [(app: String, intent: String, body: Body)]
    private var poller = Poller()
    private var frames: [Message] = []

    /// Connects to `endpoint` as `security` says and prepares one request body per mix
    /// entry, about `plan.size` bytes.
    public init(endpoint: String, plan: BenchPlan, security: ConnectionSecurity?) throws {
        socket = try Socket(try Context(), .dealer)
        try socket.setHighWaterMark(0)
        try security?.apply(to: socket, endpoint: endpoint)
        monitor = try SocketMonitor(socket, events: SocketMonitor.disconnected)
        try socket.connect(endpoint)
        poller.add(socket)
        mode = plan.mode
        requests = try plan.mix.map {
            ($0.app, $0.intent, Body(try Self.body(for: $0.intent, mode: plan.mode, size: plan.size)))
        }
    }

    /// Monotonic nanoseconds.
    public func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Sends a STAGE (handle) or SUBMIT for the mix entry.
    public mutating func send(id: UInt64, entry: Int) throws {
        let r = requests[entry]
        let message = mode == .handle
            ? ClientMessage.stage(RequestID(id), app: r.app, intent: r.intent, .handle, body: r.body)
            : ClientMessage.submit(RequestID(id), app: r.app, intent: r.intent, body: r.body)
        try message.send(on: socket)
    }

    /// Waits for answers and classifies each.
    public mutating func receive(timeout: UInt64, into completions: inout [Completion]) throws {
        let milliseconds = Int((timeout + 999_999) / 1_000_000)
        guard try poller.poll(timeout: milliseconds) > 0 else { return }
        while let count = try socket.receiveFrames(into: &frames, wait: false) {
            guard let reply = try? HostToClient(frames: frames[..<count]) else { continue }
            switch reply {
            case .error(let id, let code, _):
                completions.append(Completion(id: id.value, error: code))
            case .result(let id, let body):
                completions.append(Completion(id: id.value, error: body.withUnsafeBytes { Self.failure(in: $0, mode: mode) }))
            }
        }
    }

    /// Whether the monitor said the connection was lost since last asked.
    public mutating func connectionLost() throws -> Bool {
        try monitor.drain().contains { $0.kind == SocketMonitor.disconnected }
    }

    /// The error kind a reply body reports, or `nil` for success; a success allocates nothing.
    static func failure(in body: UnsafeRawBufferPointer, mode: BenchPlan.Mode) -> String? {
        switch mode {
        case .handle:
            guard let code = JSONScan.firstString(forKey: "code", in: body) else {
                return JSONScan.firstString(forKey: "error", in: body) != nil ? "extensionError" : "invalidReply"
            }
            if code.elementsEqual("success".utf8) || code.elementsEqual("inProgress".utf8) { return nil }
            return String(decoding: code, as: UTF8.self)
        case .lifecycle:
            if JSONScan.firstString(forKey: "outcome", in: body)?.elementsEqual("success".utf8) == true { return nil }
            return JSONScan.firstString(forKey: "code", in: body).map { String(decoding: $0, as: UTF8.self) } ?? "invalidReply"
        }
    }

    /// A request body of about `size` bytes for `intent`: the message content is padded.
    static func body(for intent: String, mode: BenchPlan.Mode, size: Int) throws -> [UInt8] {
        func parameters(_ content: String) -> [String: JSONValue] {
            switch intent {
            case "SendMessage":
                mode == .handle
                    ? ["recipients": [["displayName": "Coco", "identifier": "c-coco"]], "content": .string(content)]
                    : ["recipients": "Coco", "content": .string(content)]
            case "SearchForMessages": ["searchTerms": ["bananas"]]
            default: [:]
            }
        }
        func encode(_ content: String) throws -> [UInt8] {
            switch mode {
            case .handle:
                try JSON.encode(StageRequest(sessionId: "bench", language: "en", intent: intent, parameters: parameters(content)))
            case .lifecycle:
                try JSON.encode(Submission(parameters: parameters(content), sessionId: "bench"))
            }
        }
        let bare = try encode("x")
        guard intent == "SendMessage", bare.count < size else { return bare }
        return try encode(String(repeating: "x", count: size - bare.count + 1))
    }
}

/// Reads one string member out of compact JSON without decoding the whole document.
/// Meant for bodies this project writes (sorted keys, top-level members first).
enum JSONScan {
    /// The bytes of the first `"key":"..."` string value, a view into `body`.
    static func firstString(forKey key: StaticString, in body: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let name = UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        let needle = name.count + 4  // "key":"
        guard body.count > needle else { return nil }
        var i = 0
        while i <= body.count - needle {
            if body[i] == UInt8(ascii: "\""), body[i + 1 + name.count] == UInt8(ascii: "\""),
                body[i + 2 + name.count] == UInt8(ascii: ":"), body[i + 3 + name.count] == UInt8(ascii: "\""),
                UnsafeRawBufferPointer(rebasing: body[(i + 1)..<(i + 1 + name.count)]).elementsEqual(name)
            {
                let start = i + needle
                var end = start
                while end < body.count, body[end] != UInt8(ascii: "\"") { end += 1 }
                return UnsafeRawBufferPointer(rebasing: body[start..<end])
            }
            i += 1
        }
        return nil
    }
}
