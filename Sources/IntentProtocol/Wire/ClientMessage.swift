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
    /// Changes or reads an app's user vocabulary; the body is a `VocabularyRequest`.
    case vocab(RequestID, app: String, body: Message)
    /// Records the user's decision about an app; the body is an `AuthorizationRequest`.
    case authorize(RequestID, app: String, body: Message)
    /// One thing the user typed in a conversation; the body is an `Utterance`.
    case say(RequestID, body: Message)

    /// Parses the frames that follow the routing id.
    public init(frames: ArraySlice<Message>) throws(ProtocolError) {
        let (header, rest) = try Wire.header(frames)
        let f = rest.startIndex
        switch header.command {
        case .submit:
            try Wire.expect(3, rest, header.command)
            self = .submit(
                header.id, app: try Wire.name(rest[f], "the app name"),
                intent: try Wire.name(rest[f + 1], "the intent name"), body: rest[f + 2])
        case .stage:
            try Wire.expect(3, rest, header.command)
            self = .stage(
                header.id, app: try Wire.name(rest[f], "the app name"),
                intent: try Wire.name(rest[f + 1], "the intent name"), try Wire.stage(header.flag), body: rest[f + 2])
        case .status:
            try Wire.expect(0, rest, header.command)
            self = .status(header.id)
        case .lock:
            try Wire.expect(0, rest, header.command)
            guard header.flag <= 1 else { throw .malformedFrames("the LOCK byte must be 1 lock or 0 unlock") }
            self = .lock(header.id, header.flag == 1)
        case .vocab:
            try Wire.expect(2, rest, header.command)
            self = .vocab(header.id, app: try Wire.name(rest[f], "the app name"), body: rest[f + 1])
        case .authorize:
            try Wire.expect(2, rest, header.command)
            self = .authorize(header.id, app: try Wire.name(rest[f], "the app name"), body: rest[f + 1])
        case .say:
            try Wire.expect(1, rest, header.command)
            self = .say(header.id, body: rest[f])
        default:
            throw .malformedFrames("\(header.command) is not sent by clients")
        }
    }

    /// The request id.
    public var requestID: RequestID {
        switch self {
        case .submit(let id, _, _, _), .stage(let id, _, _, _, _), .status(let id), .lock(let id, _), .vocab(let id, _, _), .authorize(let id, _, _), .say(let id, _): id
        }
    }

    /// The frames to send from a DEALER socket.
    public var frames: [Message] {
        switch self {
        case .submit(let id, let app, let intent, let body):
            [Wire.start(.submit, id: id), Message(string: app), Message(string: intent), body]
        case .stage(let id, let app, let intent, let stage, let body):
            [Wire.start(.stage, id: id, flag: stage.rawValue), Message(string: app), Message(string: intent), body]
        case .status(let id):
            [Wire.start(.status, id: id)]
        case .lock(let id, let locked):
            [Wire.start(.lock, id: id, flag: locked ? 1 : 0)]
        case .vocab(let id, let app, let body):
            [Wire.start(.vocab, id: id), Message(string: app), body]
        case .authorize(let id, let app, let body):
            [Wire.start(.authorize, id: id), Message(string: app), body]
        case .say(let id, let body):
            [Wire.start(.say, id: id), body]
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
        let (header, rest) = try Wire.header(frames)
        let f = rest.startIndex
        switch header.command {
        case .result:
            try Wire.expect(1, rest, header.command)
            self = .result(header.id, body: rest[f])
        case .error:
            try Wire.expect(2, rest, header.command)
            self = .error(header.id, code: rest[f].string ?? "", message: rest[f + 1].string ?? "")
        default:
            throw .malformedFrames("\(header.command) is not sent to clients")
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
        case .result(let id, let body): [Wire.start(.result, id: id), body]
        case .error(let id, let code, let message): [Wire.start(.error, id: id), Message(string: code), Message(string: message)]
        }
    }
}
