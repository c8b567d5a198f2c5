import ZeroMQ

/// A message a client sends to the host's client endpoint.
public enum ClientMessage {
    /// Runs an intent through its whole lifecycle; the body is a `Submission`.
    case submit(RequestID, app: String, intent: String, body: Body)
    /// Runs one stage only, routed on the headers without decoding the body.
    case stage(RequestID, app: String, intent: String, Stage, body: Body)
    /// Asks for the host's `HostStatus`.
    case status(RequestID)
    /// Locks (`true`) or unlocks (`false`) the device.
    case lock(RequestID, Bool)
    /// Changes or reads an app's user vocabulary; the body is a `VocabularyRequest`.
    case vocab(RequestID, app: String, body: Body)
    /// Records the user's decision about an app; the body is an `AuthorizationRequest`.
    case authorize(RequestID, app: String, body: Body)
    /// One thing the user typed in a conversation; the body is an `Utterance`.
    case say(RequestID, body: Body)
    /// Starts an app's launched extensions again at once: one waiting out its back-off or
    /// rejected starts now, one running is stopped and started.
    case restart(RequestID, app: String)

    /// Parses the frame that follows the routing id.
    public init(frames: ArraySlice<Message>) throws(ProtocolError) {
        let m = try Wire.parse(frames)
        switch m.command {
        case .submit: self = .submit(m.id, app: m.first, intent: m.second, body: m.rest)
        case .stage: self = .stage(m.id, app: m.first, intent: m.second, try Wire.stage(m.flag), body: m.rest)
        case .status: self = .status(m.id)
        case .lock:
            guard m.flag <= 1 else { throw .malformedFrames("the LOCK byte must be 1 lock or 0 unlock") }
            self = .lock(m.id, m.flag == 1)
        case .vocab: self = .vocab(m.id, app: m.first, body: m.rest)
        case .authorize: self = .authorize(m.id, app: m.first, body: m.rest)
        case .say: self = .say(m.id, body: m.rest)
        case .restart: self = .restart(m.id, app: m.first)
        default: throw .malformedFrames("\(m.command) is not sent by clients")
        }
    }

    /// The request id.
    public var requestID: RequestID {
        switch self {
        case .submit(let id, _, _, _), .stage(let id, _, _, _, _), .status(let id), .lock(let id, _), .vocab(let id, _, _), .authorize(let id, _, _), .say(let id, _), .restart(let id, _): id
        }
    }

    public var parts: Wire.Parts {
        switch self {
        case .submit(let id, let app, let intent, let body): Wire.Parts(command: .submit, id: id, first: app, second: intent, rest: body)
        case .stage(let id, let app, let intent, let stage, let body):
            Wire.Parts(command: .stage, id: id, flag: stage.rawValue, first: app, second: intent, rest: body)
        case .status(let id): Wire.Parts(command: .status, id: id)
        case .lock(let id, let locked): Wire.Parts(command: .lock, id: id, flag: locked ? 1 : 0)
        case .vocab(let id, let app, let body): Wire.Parts(command: .vocab, id: id, first: app, rest: body)
        case .authorize(let id, let app, let body): Wire.Parts(command: .authorize, id: id, first: app, rest: body)
        case .say(let id, let body): Wire.Parts(command: .say, id: id, rest: body)
        case .restart(let id, let app): Wire.Parts(command: .restart, id: id, first: app)
        }
    }
}

/// A message the host sends to a client.
public enum HostToClient {
    /// The answer to a request: an `Outcome`, a `HostStatus`, a `LockState`, or (for STAGE)
    /// the extension's reply body as it sent it.
    case result(RequestID, body: Body)
    /// The request could not be carried out.
    case error(RequestID, code: String, message: String)

    /// Parses the frame as received by the client's DEALER socket.
    public init(frames: ArraySlice<Message>) throws(ProtocolError) {
        let m = try Wire.parse(frames)
        switch m.command {
        case .result: self = .result(m.id, body: m.rest)
        case .error: self = .error(m.id, code: m.first, message: m.rest.string ?? "")
        default: throw .malformedFrames("\(m.command) is not sent to clients")
        }
    }

    /// The request id this answers.
    public var requestID: RequestID {
        switch self {
        case .result(let id, _), .error(let id, _, _): id
        }
    }

    public var parts: Wire.Parts {
        switch self {
        case .result(let id, let body): Wire.Parts(command: .result, id: id, rest: body)
        case .error(let id, let code, let message): Wire.Parts(command: .error, id: id, first: code, rest: Body(text: message))
        }
    }
}
