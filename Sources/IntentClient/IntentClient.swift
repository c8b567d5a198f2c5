import Foundation
import IntentProtocol
import ZeroMQ

/// A blocking client of the host's client endpoint: one request at a time, each with a
/// deadline, so a caller never waits forever.
public final class IntentClient {
    /// The endpoint it talks to.
    public let endpoint: String
    /// How long one request may take.
    public var timeout: Duration
    private let context: Context
    private let security: ConnectionSecurity?
    private var socket: Socket
    /// Tells when the connection to the host is lost, so a request in flight fails at once.
    private var monitor: SocketMonitor
    /// Whether the connection is up, as the monitor last said; nil before it said anything.
    private var connected: Bool?
    /// Whether the connection up now finished its handshake: until it has, nothing sent on
    /// it has left this process.
    private var handshaken = false
    private var nextID: UInt64 = 1
    /// How long a request waits for a connection that is not up (the host starting, or
    /// coming back) before it fails `notRunning`, nothing sent.
    static let connectGrace = Duration.seconds(3)

    /// Connects to the host at `endpoint` as the client `security` names (see
    /// `ConnectionSecurity.client(state:)`); the host answers only allowed client keys.
    /// For ipc endpoints, fails at once if no host has created the socket file, or if
    /// another user did: over ipc the client proves who it is with its secret key, which
    /// goes only to a socket of this user's own.
    public init(endpoint: String, timeout: Duration = .seconds(60), security: ConnectionSecurity?) throws {
        if endpoint.hasPrefix("ipc://") {
            let path = String(endpoint.dropFirst(6))
            var info = stat()
            guard stat(path, &info) == 0 else { throw ClientError.notRunning(endpoint) }
            guard info.st_uid == geteuid() else {
                throw ClientError.malformed("\(path) belongs to another user (uid \(info.st_uid)), not to the host of this user: not connecting")
            }
        }
        self.endpoint = endpoint
        self.timeout = timeout
        self.security = security
        context = try Context()
        (socket, monitor) = try Self.open(endpoint, in: context, security)
    }

    /// A socket connected to `endpoint` as `security` says, and its monitor.
    private static func open(_ endpoint: String, in context: Context, _ security: ConnectionSecurity?) throws -> (Socket, SocketMonitor) {
        let socket = try Socket(context, .dealer)
        try security?.apply(to: socket, endpoint: endpoint)
        // What a host (or whatever listens there) may make this process take in one message.
        try socket.setMaximumMessageSize(64 << 20)
        // A host that dies, or a network that fails, is noticed within a few seconds at most.
        try socket.setHeartbeat(interval: .seconds(1), timeout: .seconds(3))
        let monitor = try SocketMonitor(
            socket, events: SocketMonitor.disconnected | SocketMonitor.connected | SocketMonitor.handshakeSucceeded | SocketMonitor.authenticationFailed)
        try socket.connect(endpoint)
        return (socket, monitor)
    }

    /// The request never left (`notAnswering`): it is dropped with the socket that holds it,
    /// so that it does not go out once the host answers after all, and a new one connects.
    private func dropUnsent() -> ClientError {
        monitor.close()
        socket.close(linger: 0)
        connected = nil
        handshaken = false
        if let fresh = try? Self.open(endpoint, in: context, security) { (socket, monitor) = fresh }
        return ClientError.notAnswering(endpoint)
    }

    /// Runs an intent through its whole lifecycle. A submission without an idempotency key
    /// gets one here, so that when no answer comes (the host went away, or took too long) the
    /// error names the key to send it again with: done at most once.
    public func submit(app: String, intent: String, _ submission: Submission) throws -> Outcome {
        var submission = submission
        let key = submission.idempotencyKey ?? RequestAnnotation.makeKey()
        submission.idempotencyKey = key
        let id = next()
        let body = Body(try JSON.encode(submission))
        return try decode(Outcome.self, try request(.submit(id, app: app, intent: intent, body: body), key: key))
    }

    /// Runs one stage, returning the extension's reply body as it sent it. A handle without
    /// an idempotency key gets one here, as a submission does.
    public func stage(app: String, intent: String, stage: Stage, _ request: StageRequest) throws -> [UInt8] {
        var request = request
        if stage == .handle, request.idempotencyKey == nil { request.idempotencyKey = RequestAnnotation.makeKey() }
        let id = next()
        return try self.request(.stage(id, app: app, intent: intent, stage, body: Body(try JSON.encode(request))), key: request.idempotencyKey)
    }

    /// Runs one stage with a body of any bytes (the host forwards a STAGE body unread),
    /// returning the extension's reply body as it sent it.
    public func stage(app: String, intent: String, stage: Stage, body: [UInt8]) throws -> [UInt8] {
        try request(.stage(next(), app: app, intent: intent, stage, body: Body(body)))
    }

    /// The host's registered extensions, rejections and lock state.
    public func status() throws -> HostStatus {
        try decode(HostStatus.self, try request(.status(next())))
    }

    /// Changes (or, with an empty request, reads) an app's user vocabulary.
    public func vocabulary(app: String, _ request: VocabularyRequest) throws -> VocabularyState {
        let body = Body(try JSON.encode(request))
        return try decode(VocabularyState.self, try self.request(.vocab(next(), app: app, body: body)))
    }

    /// Records the user's decision about an app.
    public func authorize(app: String, _ decision: AuthorizationRequest.Decision) throws -> AuthorizationState {
        let body = Body(try JSON.encode(AuthorizationRequest(decision: decision)))
        return try decode(AuthorizationState.self, try request(.authorize(next(), app: app, body: body)))
    }

    /// Starts an app's launched extensions again at once (see RESTART in `wire.md`).
    public func restart(app: String) throws -> RestartState {
        try decode(RestartState.self, try request(.restart(next(), app: app)))
    }

    /// Locks or unlocks the device.
    @discardableResult
    public func setLocked(_ locked: Bool) throws -> LockState {
        try decode(LockState.self, try request(.lock(next(), locked)))
    }

    /// Says one thing in a conversation: a new request, or (with `sessionId`) the answer
    /// to that conversation's last question. Returns the host's next turn.
    public func say(_ utterance: Utterance) throws -> Turn {
        try decode(Turn.self, try request(.say(next(), body: Body(try JSON.encode(utterance))), key: utterance.idempotencyKey))
    }

    private func next() -> RequestID {
        defer { nextID += 1 }
        return RequestID(nextID)
    }

    /// Sends `message` and waits for its answer; `key`, the idempotency key of the handle it
    /// may lead to, goes into the error when no answer comes.
    private func request(_ message: ClientMessage, key: String? = nil) throws -> [UInt8] {
        let id = message.requestID
        // A host that went away (or never came) gets nothing to hold: a request waits a
        // little for the connection, then fails with nothing sent, instead of a long timeout.
        try awaitConnection()
        try message.send(on: socket)
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var poller = Poller()
        poller.add(socket)
        let events = poller.add(monitor.socket)
        while true {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else {
                // Still no handshake: the request never left (a paused host took the connection).
                let said = try readEvents()
                if said.lostAfterHandshake { throw ClientError.hostLost(endpoint, key: key) }
                throw handshaken ? ClientError.timeout(endpoint, timeout, key: key) : dropUnsent()
            }
            let ms = Int(left.components.seconds) * 1000 + Int(left.components.attoseconds / 1_000_000_000_000_000) + 1
            guard try poller.poll(timeout: ms) > 0 else { continue }
            // The answer may have arrived just before the connection closed: it counts.
            while let frames = try socket.receiveFrames(wait: false) {
                if let answer = try Self.answer(to: id, in: frames) { return try answer.get() }
            }
            if poller.isReadable(events) {
                let said = try readEvents()
                // A key the host does not trust is refused in the handshake: nothing was done.
                if said.refused { throw ClientError.keyRefused(endpoint) }
                // A connection lost after its handshake may have carried it; one lost before
                // carried nothing (a paused host takes the connection and never answers it).
                if said.lostAfterHandshake { throw ClientError.hostLost(endpoint, key: key) }
                if said.lostBeforeHandshake { throw dropUnsent() }
            }
        }
    }

    /// Returns once the connection is up, reading the monitor's events so far; throws
    /// `notRunning` if it is not up within `connectGrace`.
    private func awaitConnection() throws {
        if try readEvents().refused { throw ClientError.keyRefused(endpoint) }
        guard connected != true else { return }
        let deadline = ContinuousClock.now + Self.connectGrace
        var poller = Poller()
        poller.add(monitor.socket)
        while ContinuousClock.now < deadline {
            _ = try poller.poll(timeout: 50)
            if try readEvents().refused { throw ClientError.keyRefused(endpoint) }
            if connected == true { return }
        }
        throw ClientError.notRunning(endpoint)
    }

    /// Reads the monitor's events so far into `connected` and `handshaken`; whether a
    /// connection was lost after its handshake (what was sent may have gone) or before it
    /// (nothing went), and whether the host refused this client's key.
    private func readEvents() throws -> (lostAfterHandshake: Bool, lostBeforeHandshake: Bool, refused: Bool) {
        var lostAfterHandshake = false, lostBeforeHandshake = false, refused = false
        for event in try monitor.drain() {
            switch event.kind {
            case SocketMonitor.connected:
                connected = true
                handshaken = false
            case SocketMonitor.handshakeSucceeded:
                handshaken = true
            case SocketMonitor.disconnected:
                connected = false
                if handshaken { lostAfterHandshake = true } else { lostBeforeHandshake = true }
                handshaken = false
            case SocketMonitor.authenticationFailed:
                refused = true
            default:
                break
            }
        }
        return (lostAfterHandshake, lostBeforeHandshake, refused)
    }

    /// The result or error that `frames` carry if they answer request `id`; nil for a late
    /// answer to an earlier request.
    private static func answer(to id: RequestID, in frames: [Message]) throws(ClientError) -> Result<[UInt8], ClientError>? {
        let reply: HostToClient
        do { reply = try HostToClient(frames: frames[...]) } catch {
            throw ClientError.malformed("\(error)")
        }
        guard reply.requestID == id else { return nil }
        switch reply {
        case .result(_, let body): return .success(body.bytes)
        case .error(_, let code, let message): return .failure(ClientError.host(code: code, message: message))
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
        do { return try JSON.decode(type, from: bytes) } catch { throw ClientError.malformed("\(error)") }
    }
}

/// Why a client request did not get an answer.
public enum ClientError: Error, CustomStringConvertible, Sendable {
    /// No host has created the ipc socket.
    case notRunning(String)
    /// No answer in time; `key` is the idempotency key of the handle the request may have
    /// led to, if it may have.
    case timeout(String, Duration, key: String? = nil)
    /// The host answered with an ERROR frame.
    case host(code: String, message: String)
    /// The answer could not be read.
    case malformed(String)
    /// The connection to the host was lost (it stopped, crashed or restarted) while the
    /// request was in flight: it may or may not have been carried out; `key` is the
    /// idempotency key to send it again with, if it may have led to a handle.
    case hostLost(String, key: String? = nil)
    /// A host started for a run (`HostProcess`) saw an extension end before it registered; why.
    case extensionEnded(String)
    /// The host refused this client's key in the handshake (it does not trust it): nothing
    /// was sent.
    case keyRefused(String)
    /// The host took the connection but never finished its handshake (it is paused or stuck)
    /// until the connection gave up: nothing was sent.
    case notAnswering(String)

    /// The idempotency key of a request whose outcome is unknown: sent again with it, its
    /// handle is done at most once.
    public var unsettledKey: String? {
        switch self {
        case .timeout(_, _, let key?), .hostLost(_, let key?): key
        default: nil
        }
    }

    /// Whether the request may have been carried out though no answer came: the connection
    /// broke, or the answer was late (with or without a key to send it again with).
    public var mayHaveBeenDone: Bool {
        switch self {
        case .hostLost, .timeout: true
        default: false
        }
    }

    /// This error, naming `key` if it is one of an unknown outcome that names none yet.
    public func keyed(_ key: String) -> ClientError {
        switch self {
        case .timeout(let endpoint, let duration, nil): .timeout(endpoint, duration, key: key)
        case .hostLost(let endpoint, nil): .hostLost(endpoint, key: key)
        default: self
        }
    }

    /// How a connection that broke mid-request is told: from here a host that stopped, one
    /// paused and a network that failed look alike.
    public static let lost = "stopped answering before it answered (it stopped, restarted or is paused, or the network to it is down)"

    /// What a client does about a request whose outcome is unknown, with its key.
    private static func unknown(_ key: String) -> String {
        "the request may or may not have been carried out; send it again with --idempotency-key \(key) and it is done at most once"
    }

    public var description: String {
        switch self {
        case .notRunning(let endpoint):
            "intentd is not running at \(endpoint) (start it with `intentd` or deploy/run.sh, or pass --state-dir / --endpoint)"
        case .timeout(let endpoint, let timeout, nil):
            "no answer from intentd at \(endpoint) within \(timeout); is it running?"
        case .timeout(let endpoint, let timeout, let key?):
            "no answer from intentd at \(endpoint) within \(timeout): " + Self.unknown(key)
        case .host(let code, let message):
            "\(message) [\(code)]"
        case .malformed(let why):
            "the host's answer could not be read: \(why)"
        case .hostLost(let endpoint, nil):
            "intentd at \(endpoint) \(Self.lost): the request may or may not have been carried out"
        case .hostLost(let endpoint, let key?):
            "intentd at \(endpoint) \(Self.lost): " + Self.unknown(key)
        case .extensionEnded(let why):
            why
        case .notAnswering(let endpoint):
            "intentd at \(endpoint) took the connection but did not answer it (it is paused or stuck), so nothing was sent; try again once it answers"
        case .keyRefused(let endpoint):
            "intentd at \(endpoint) refused this client's key: it does not trust it, so nothing was done. "
                + "On the host, trust it with `intentctl clients trust FILE.pub --name NAME` (FILE.pub: this client's public key)"
        }
    }
}
