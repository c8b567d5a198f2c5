import ZeroMQ

/// A message an extension sends to the host's extension endpoint.
public enum ExtensionMessage {
    /// Announces the extension; the body is a `Registration`.
    case register(body: Body)
    /// Answers a request; the body is a `ResolveReply` or an `IntentResponse`, or `{"error": ...}`.
    case reply(RequestID, body: Body)
    /// Says the extension is alive.
    case heartbeat
    /// Says the extension is leaving.
    case disconnect
    /// Pushes an update (such as a ride's new phase) for the host to publish under `topic`.
    case update(topic: String, body: Body)
    /// Changes the user's vocabulary for this app; the body is a `VocabularyRequest`.
    case vocabulary(body: Body)

    /// Parses the frame that follows the routing id.
    public init(frames: ArraySlice<Message>) throws(ProtocolError) {
        let m = try Wire.parse(frames)
        switch m.command {
        case .register: self = .register(body: m.rest)
        case .reply: self = .reply(m.id, body: m.rest)
        case .heartbeat: self = .heartbeat
        case .disconnect: self = .disconnect
        case .update: self = .update(topic: m.first, body: m.rest)
        case .vocabulary: self = .vocabulary(body: m.rest)
        default: throw .malformedFrames("\(m.command) is not sent by extensions")
        }
    }

    public var parts: Wire.Parts {
        switch self {
        case .register(let body): Wire.Parts(command: .register, rest: body)
        case .reply(let id, let body): Wire.Parts(command: .reply, id: id, rest: body)
        case .heartbeat: Wire.Parts(command: .heartbeat)
        case .disconnect: Wire.Parts(command: .disconnect)
        case .update(let topic, let body): Wire.Parts(command: .update, first: topic, rest: body)
        case .vocabulary(let body): Wire.Parts(command: .vocabulary, rest: body)
        }
    }
}

/// A message the host sends to an extension.
public enum HostToExtension {
    /// Accepts a registration; the body is a `Registered`.
    case registered(body: Body)
    /// Refuses a registration with a code and a reason a person can read.
    case rejected(code: String, reason: String)
    /// Asks for one stage of an intent; the body is a `StageRequest`.
    case request(RequestID, Stage, intent: String, body: Body)
    /// Says the host is alive.
    case heartbeat
    /// Tells the extension to register again.
    case disconnect(reason: String)
    /// Says the user changed the app's user vocabulary; the body is `{"reset":true}` when the
    /// user reset it and the host holds none now (wire.md, section 19b).
    case vocabulary(body: Body)

    /// The VOCABULARY that tells an extension the user reset its app's vocabulary.
    public static var vocabularyReset: HostToExtension { .vocabulary(body: Body(Array(#"{"reset":true}"#.utf8))) }

    /// Parses the frame as received by the extension's DEALER socket.
    public init(frames: ArraySlice<Message>) throws(ProtocolError) {
        let m = try Wire.parse(frames)
        switch m.command {
        case .registered: self = .registered(body: m.rest)
        case .rejected: self = .rejected(code: m.first, reason: m.rest.string ?? "")
        case .request: self = .request(m.id, try Wire.stage(m.flag), intent: m.first, body: m.rest)
        case .heartbeat: self = .heartbeat
        case .disconnect: self = .disconnect(reason: m.rest.string ?? "")
        case .vocabulary: self = .vocabulary(body: m.rest)
        default: throw .malformedFrames("\(m.command) is not sent to extensions")
        }
    }

    public var parts: Wire.Parts {
        switch self {
        case .registered(let body): Wire.Parts(command: .registered, rest: body)
        case .rejected(let code, let reason): Wire.Parts(command: .rejected, first: code, rest: Body(text: reason))
        case .request(let id, let stage, let intent, let body):
            Wire.Parts(command: .request, id: id, flag: stage.rawValue, first: intent, rest: body)
        case .heartbeat: Wire.Parts(command: .heartbeat)
        case .disconnect(let reason): Wire.Parts(command: .disconnect, rest: Body(text: reason))
        case .vocabulary(let body): Wire.Parts(command: .vocabulary, rest: body)
        }
    }
}
