import ZeroMQ

/// A message a client sends to the host's client endpoint.
public enum ClientMessage {
    /// Runs an intent through its whole lifecycle; the body is a `Submission`.
    case submit(RequestID, app: String, intent: String, body: Message)
    /// Runs one stage only, routed on the headers without decoding the body.
    case stage(RequestID, app: String, intent: String, Stage, body: Message)
    /// Asks for the host's `HostStatus`.
    case status(RequestID)
    /// Locks (`true`) or unlocks (`false`) the device.
    case lock(RequestID, Bool)

    /// Parses the frames that follow the routing id.
    public init(frames: ArraySlice<Message>) throws(ProtocolError) {
        let (command, rest) = try Wire.header(frames)
        let f = rest.startIndex
        switch command {
        case .submit:
            try Wire.expect(4, rest, command)
            self = .submit(
                try Wire.requestID(rest[f]), app: try Wire.name(rest[f + 1], "the app name"),
                intent: try Wire.name(rest[f + 2], "the intent name"), body: rest[f + 3])
        case .stage:
            try Wire.expect(5, rest, command)
            self = .stage(
                try Wire.requestID(rest[f]), app: try Wire.name(rest[f + 1], "the app name"),
                intent: try Wire.name(rest[f + 2], "the intent name"), try Wire.stage(rest[f + 3]), body: rest[f + 4])
        case .status:
            try Wire.expect(1, rest, command)
            self = .status(try Wire.requestID(rest[f]))
        case .lock:
            try Wire.expect(2, rest, command)
            let byte = rest[f + 1].count == 1 ? rest[f + 1].withUnsafeBytes { $0[0] } : 0xFF
            guard byte <= 1 else { throw .malformedFrames("LOCK takes one byte: 1 lock, 0 unlock") }
            self = .lock(try Wire.requestID(rest[f]), byte == 1)
        default:
            throw .malformedFrames("\(command) is not sent by clients")
        }
    }

    /// The request id.
    public var requestID: RequestID {
        switch self {
        case .submit(let id, _, _, _), .stage(let id, _, _, _, _), .status(let id), .lock(let id, _): id
        }
    }

    /// The frames to send from a DEALER socket.
    public var frames: [Message] {
        switch self {
        case .submit(let id, let app, let intent, let body):
            Wire.start(.submit) + [Message(bytes: id.bytes), Message(string: app), Message(string: intent), body]
        case .stage(let id, let app, let intent, let stage, let body):
            Wire.start(.stage) + [
                Message(bytes: id.bytes), Message(string: app), Message(string: intent),
                Message(bytes: [stage.rawValue]), body,
            ]
        case .status(let id):
            Wire.start(.status) + [Message(bytes: id.bytes)]
        case .lock(let id, let locked):
            Wire.start(.lock) + [Message(bytes: id.bytes), Message(bytes: [locked ? 1 : 0])]
        }
    }
}

/// A message the host sends to a client.
public enum HostToClient {
    /// The answer to a request: an `Outcome`, a `HostStatus`, a `LockState`, or (for STAGE)
    /// the extension's reply body as it sent it.
    case result(RequestID, body: Message)
    /// The request could not be carried out.
    case error(RequestID, code: String, message: String)

    /// Parses the frames as received by the client's DEALER socket.
    public init(frames: ArraySlice<Message>) throws(ProtocolError) {
        let (command, rest) = try Wire.header(frames)
        let f = rest.startIndex
        switch command {
        case .result:
            try Wire.expect(2, rest, command)
            self = .result(try Wire.requestID(rest[f]), body: rest[f + 1])
        case .error:
            try Wire.expect(3, rest, command)
            self = .error(try Wire.requestID(rest[f]), code: rest[f + 1].string ?? "", message: rest[f + 2].string ?? "")
        default:
            throw .malformedFrames("\(command) is not sent to clients")
        }
    }

    /// The request id this answers.
    public var requestID: RequestID {
        switch self {
        case .result(let id, _), .error(let id, _, _): id
        }
    }

    /// The frames to send, without a routing id.
    public var frames: [Message] {
        switch self {
        case .result(let id, let body):
            Wire.start(.result) + [Message(bytes: id.bytes), body]
        case .error(let id, let code, let message):
            Wire.start(.error) + [Message(bytes: id.bytes), Message(string: code), Message(string: message)]
        }
    }
}
