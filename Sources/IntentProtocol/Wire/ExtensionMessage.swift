import ZeroMQ

/// A message an extension sends to the host's extension endpoint.
public enum ExtensionMessage {
    /// Announces the extension; the body is a `Registration`.
    case register(body: Message)
    /// Answers a request; the body is a `ResolveReply` or an `IntentResponse`, or `{"error": ...}`.
    case reply(RequestID, body: Message)
    /// Says the extension is alive.
    case heartbeat
    /// Says the extension is leaving.
    case disconnect
    /// Pushes an update (such as a ride's new phase) for the host to publish under `topic`.
    case update(topic: String, body: Message)
    /// Changes the user's vocabulary for this app; the body is a `VocabularyRequest`.
    case vocabulary(body: Message)

    /// Parses the frames that follow the routing id.
    public init(frames: ArraySlice<Message>) throws(ProtocolError) {
        let (header, rest) = try Wire.header(frames)
        switch header.command {
        case .register:
            try Wire.expect(1, rest, header.command)
            self = .register(body: rest[rest.startIndex])
        case .reply:
            try Wire.expect(1, rest, header.command)
            self = .reply(header.id, body: rest[rest.startIndex])
        case .heartbeat:
            try Wire.expect(0, rest, header.command)
            self = .heartbeat
        case .disconnect:
            guard rest.count <= 1 else { throw .malformedFrames("DISCONNECT takes at most 1 frame after the header") }
            self = .disconnect
        case .update:
            try Wire.expect(2, rest, header.command)
            self = .update(topic: try Wire.name(rest[rest.startIndex], "the topic"), body: rest[rest.startIndex + 1])
        case .vocabulary:
            try Wire.expect(1, rest, header.command)
            self = .vocabulary(body: rest[rest.startIndex])
        default:
            throw .malformedFrames("\(header.command) is not sent by extensions")
        }
    }

    /// The frames to send, without a routing id.
    public var frames: [Message] {
        switch self {
        case .register(let body): [Wire.start(.register), body]
        case .reply(let id, let body): [Wire.start(.reply, id: id), body]
        case .heartbeat: [Wire.start(.heartbeat)]
        case .disconnect: [Wire.start(.disconnect)]
        case .update(let topic, let body): [Wire.start(.update), Message(string: topic), body]
        case .vocabulary(let body): [Wire.start(.vocabulary), body]
        }
    }
}

/// A message the host sends to an extension.
public enum HostToExtension {
    /// Accepts a registration; the body is a `Registered`.
    case registered(body: Message)
    /// Refuses a registration with a code and a reason a person can read.
    case rejected(code: String, reason: String)
    /// Asks for one stage of an intent; the body is a `StageRequest`.
    case request(RequestID, Stage, intent: String, body: Message)
    /// Says the host is alive.
    case heartbeat
    /// Tells the extension to register again.
    case disconnect(reason: String)

    /// Parses the frames as received by the extension's DEALER socket.
    public init(frames: ArraySlice<Message>) throws(ProtocolError) {
        let (header, rest) = try Wire.header(frames)
        let f = rest.startIndex
        switch header.command {
        case .registered:
            try Wire.expect(1, rest, header.command)
            self = .registered(body: rest[f])
        case .rejected:
            try Wire.expect(2, rest, header.command)
            self = .rejected(code: rest[f].string ?? "", reason: rest[f + 1].string ?? "")
        case .request:
            try Wire.expect(2, rest, header.command)
            self = .request(header.id, try Wire.stage(header.flag), intent: try Wire.name(rest[f], "the intent name"), body: rest[f + 1])
        case .heartbeat:
            try Wire.expect(0, rest, header.command)
            self = .heartbeat
        case .disconnect:
            guard rest.count <= 1 else { throw .malformedFrames("DISCONNECT takes at most 1 frame after the header") }
            self = .disconnect(reason: rest.first?.string ?? "")
        default:
            throw .malformedFrames("\(header.command) is not sent to extensions")
        }
    }

    /// The frames to send, without a routing id.
    public var frames: [Message] {
        switch self {
        case .registered(let body): [Wire.start(.registered), body]
        case .rejected(let code, let reason): [Wire.start(.rejected), Message(string: code), Message(string: reason)]
        case .request(let id, let stage, let intent, let body):
            [Wire.start(.request, id: id, flag: stage.rawValue), Message(string: intent), body]
        case .heartbeat: [Wire.start(.heartbeat)]
        case .disconnect(let reason): [Wire.start(.disconnect), Message(string: reason)]
        }
    }
}
