import Foundation
import Logging
import Synchronization
import ZeroMQ

/// The extension's side of the wire: one thread owns the DEALER socket, registers and
/// re-registers until acknowledged, sends heartbeats, reconnects with back-off when the
/// host goes silent, and starts each request on that thread (`Task.immediate`), where it
/// runs until it first suspends; the rest of it runs on the Swift concurrency pool.
final class ExtensionConnection<Extension: IntentExtension>: Sendable {
    private let endpoint: String
    private let registration: Registration
    private let security: ConnectionSecurity
    private let parentPID: Int32?
    private let log: Logger
    /// The dispatcher's reply, as a plain function: the task started per request then
    /// captures nothing generic, and needs no generic metadata looked up at run time.
    private let respond: @Sendable (RequestID, Stage, [UInt8]) async -> [UInt8]
    private let replies: Mailbox<Outgoing>
    private let deadlines: DeadlineWatch
    /// Set once DISCONNECT is on its way: no new request is started, no registration sent.
    private let stopping = Atomic<Bool>(false)
    private let active = InFlightCount()
    private let replyLimit: ReplyLimit
    /// The state directory whose trust store the host reads, for the trust command.
    private let stateDirectory: String

    /// Requests started and not yet answered.
    var inFlight: Int { active.count.load(ordering: .relaxed) }

    init(
        endpoint: String, registration: Registration, security: ConnectionSecurity, parentPID: Int32?, log: Logger, dispatcher: Dispatcher<Extension>,
        outbox: Mailbox<Outgoing>, stateDirectory: String
    ) {
        self.endpoint = endpoint
        self.stateDirectory = stateDirectory
        self.registration = registration
        self.security = security
        self.parentPID = parentPID
        self.log = log
        respond = { id, stage, body in await dispatcher.reply(id: id, stage: stage, body: body) }
        replies = outbox
        deadlines = dispatcher.deadlines
        replyLimit = dispatcher.replyLimit
    }

    /// Starts the connection thread.
    func start() {
        IOThread.start(name: "extension-connection") { [self] in
            do { try self.loop() } catch {
                self.log.error("connection: \(error)")
                exit(1)
            }
        }
    }

    private enum State { case registering, registered }

    private func loop() throws {
        let context = try Context()
        let clock = ContinuousClock()
        var socket = try connect(context)
        var state = State.registering
        var interval = Duration.milliseconds(1000)
        var liveness = 3
        var backoff = Duration.seconds(1)
        var lastHeard = clock.now
        var lastSent = clock.now
        var poller = Poller()
        let socketIndex = poller.add(socket)
        let wakeupIndex = poller.add(fileDescriptor: replies.wakeup.fileDescriptor)
        // A host that refuses this extension's key says so only in the handshake.
        var refusals = try SocketMonitor(socket, events: SocketMonitor.authenticationFailed)
        let refusalIndex = poller.add(refusals.socket)
        var toldRefused = false
        var sending: [Outgoing] = []
        let registerBody = try JSON.encode(registration)
        var frames: [Message] = []
        // The task of each request not yet answered, to cancel at its deadline.
        var running: [RequestID: Task<Void, Never>] = [:]
        var nextDeadlineCheck = clock.now

        // Registration, heartbeats and DISCONNECT never wait for the socket: with no host to
        // take them (one that refuses this extension's key leaves no connection at all) a
        // send would wait forever, and the extension could not even stop. Unsent, the
        // registration goes again after its wait, a heartbeat is missed, and a DISCONNECT
        // had nobody to tell.
        func register() throws {
            try ExtensionMessage.register(body: Body(registerBody)).send(on: socket, wait: false)
            lastSent = clock.now
            state = .registering
        }
        // Updates and vocabulary wait for a registration: the host takes them from a
        // registered extension only, and with no host a send would wait.
        var held: [Outgoing] = []
        var taught = TaughtVocabulary()
        func send(_ outgoing: Outgoing) throws {
            switch outgoing {
            case .update(let topic, let body):
                do { try ExtensionMessage.update(topic: topic, body: Body(body)).send(on: socket) } catch let error as ProtocolError {
                    log.error("update not sent: \(error)")
                }
            case .vocabulary(let body):
                try ExtensionMessage.vocabulary(body: Body(body)).send(on: socket)
                taught.note(body)
            case .reply, .disconnect: break
            }
        }
        func reconnect(_ why: String) throws {
            log.warning("\(why); reconnecting to \(endpoint) (next wait \(backoff))")
            socket = try connect(context)
            refusals = try SocketMonitor(socket, events: SocketMonitor.authenticationFailed)
            poller = Poller()
            poller.add(socket)
            poller.add(fileDescriptor: replies.wakeup.fileDescriptor)
            poller.add(refusals.socket)
            try register()
            lastHeard = clock.now
        }
        try register()
        log.info("registering with \(endpoint)")

        while true {
            try poller.poll(timeout: 100)
            let now = clock.now
            if poller.isReadable(refusalIndex) {
                for event in try refusals.drain() where event.kind == SocketMonitor.authenticationFailed && !toldRefused {
                    toldRefused = true
                    log.error("the host refused this extension's key (\(event.value)): it does not trust it yet. Started by hand, trust it once with: \(trustCommand)")
                }
            }
            if poller.isReadable(socketIndex) {
                for _ in 0..<512 {
                    guard let count = try socket.receiveFrames(into: &frames, wait: false) else { break }
                    lastHeard = now
                    let message: HostToExtension
                    do { message = try HostToExtension(frames: frames[..<count]) } catch {
                        log.warning("ignored a message from the host: \(error)")
                        continue
                    }
                    switch message {
                    case .registered(let body):
                        if let ack = try? JSON.decode(Registered.self, from: body.bytes) {
                            // Bounded both ways: `interval * liveness` must not overflow.
                            interval = .milliseconds(min(max(ack.heartbeatMilliseconds, 10), 3_600_000))
                            replyLimit.bytes.store(max(ack.maxMessageBytes, 1024), ordering: .relaxed)
                            liveness = min(max(ack.liveness, 1), 100)
                            log.info("registered as \(ack.extensionId)")
                        }
                        state = .registered
                        backoff = .seconds(1)
                        toldRefused = false
                        for outgoing in held { try send(outgoing) }
                        held.removeAll()
                    case .rejected(let code, let reason):
                        // A manifest changed on purpose is accepted by trusting the key again.
                        let accept = code == Rejection.Code.manifestChanged.rawValue ? ". To accept the change: \(trustCommand)" : ""
                        log.error("the host rejected this extension (\(code)): \(reason)\(accept)")
                        exit(ExtensionLauncherStatus.rejected)
                    case .request(let id, let stage, let intent, let body):
                        // After DISCONNECT the host no longer counts on this instance.
                        guard !stopping.load(ordering: .relaxed) else { continue }
                        log.debug("request", metadata: [
                            "request": "\(id)", "stage": "\(stage)", "intent": "\(intent)",
                            "trace": "\(TraceParent.traceID(in: body.bytes) ?? "none")",
                        ])
                        let bytes = body.bytes
                        let respond = self.respond
                        let replies = self.replies
                        let active = self.active
                        let limit = self.replyLimit
                        let log = self.log
                        let connectionThread = pthread_self()
                        active.count.add(1, ordering: .relaxed)
                        // The handler starts here and runs inline until it first suspends; a
                        // handler that never does answers without any thread hop or wake-up.
                        running[id] = Task.immediate {
                            let serving = RequestMetadata(id: id, stage: stage, intent: intent, body: bytes)
                            let reply = await RequestMetadata.$current.withValue(serving) { await respond(id, stage, bytes) }
                            replies.post(.reply(id, limit.checked(reply, stage: stage, log: log)), wake: pthread_equal(pthread_self(), connectionThread) == 0)
                            active.count.subtract(1, ordering: .relaxed)
                        }
                    case .heartbeat:
                        break
                    case .vocabulary:
                        // What the app taught still names its data: it is taught again.
                        log.info("the user reset this app's vocabulary; teaching the host its \(taught.requests.count) types again")
                        for body in taught.bodies { try ExtensionMessage.vocabulary(body: Body(body)).send(on: socket) }
                    case .disconnect(let reason):
                        // One registration answers them all: a host that restarted answers
                        // each heartbeat queued while it was away with a DISCONNECT.
                        guard !stopping.load(ordering: .relaxed), state == .registered else { continue }
                        log.info("the host asked for a new registration (\(reason))")
                        try register()
                    }
                }
            }
            replies.drain(into: &sending, wokenUp: poller.isReadable(wakeupIndex))
            for outgoing in sending {
                switch outgoing {
                case .reply(let id, let body):
                    running[id] = nil
                    deadlines.done(id)
                    try ExtensionMessage.reply(id, body: Body(body)).send(on: socket)
                case .update, .vocabulary:
                    guard state == .registered else {
                        if held.count == Self.maximumHeld { held.removeFirst() }
                        held.append(outgoing)
                        continue
                    }
                    try send(outgoing)
                case .disconnect(let sent):
                    try ExtensionMessage.disconnect.send(on: socket, wait: false)
                    // Nothing more goes to the host. The DISCONNECT must leave before the process
                    // ends (it was lost now and then under load): closed with a linger, the
                    // socket is flushed by ending its context, for at most that linger.
                    refusals.close()
                    socket.close(linger: 1000)
                    context.terminate()
                    sent()
                    return
                }
                lastSent = now
            }
            // Requests still running at their deadline are cancelled (Swift task cancellation).
            if now >= nextDeadlineCheck {
                nextDeadlineCheck = now + .milliseconds(20)
                for id in deadlines.expired(now: HandleScope.nowMilliseconds()) { running[id]?.cancel() }
            }
            if let parentPID, getppid() != parentPID {
                log.info("the host that launched this extension is gone; exiting")
                exit(0)
            }
            if stopping.load(ordering: .relaxed) { continue }
            switch state {
            case .registering where lastSent.duration(to: now) >= backoff:
                try reconnect("no answer to registration")
                backoff = min(backoff * 2, .seconds(32))
            case .registered where lastHeard.duration(to: now) > interval * liveness:
                try reconnect("no word from the host for \(interval * liveness)")
            case .registered where lastSent.duration(to: now) >= interval:
                try ExtensionMessage.heartbeat.send(on: socket, wait: false)
                lastSent = now
            default:
                break
            }
        }
    }

    /// Says DISCONNECT to the host, takes no new request, and waits up to `grace` for the
    /// requests in flight to be answered.
    func disconnect(grace: Duration) async {
        stopping.store(true, ordering: .relaxed)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            replies.post(.disconnect { done.resume() }, wake: true)
        }
        let deadline = ContinuousClock.now + grace
        // Their replies are not waited for: after DISCONNECT the host no longer expects them.
        while inFlight > 0, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
    }

    /// The most updates and vocabulary changes kept until the host acknowledges the
    /// registration; past it the oldest goes.
    static var maximumHeld: Int { 1000 }

    /// The command that trusts this extension's key: this program, as it was started, with
    /// `--print-identity`, into `intentctl extensions trust -` for the same state directory.
    /// A host across the network keeps its trust store on its own machine: the identity is
    /// printed here and given to `intentctl extensions trust -` there.
    private var trustCommand: String {
        // Quoted unless every character is one a shell takes as is (keys hold `)`, `>`, `*`, …).
        func quoted(_ word: String) -> String {
            let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || "0123456789_-./=:,@%+".unicodeScalars.contains($0) }
            return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
        }
        // Its key is found through the state directory unless given: one that came from the
        // environment is said, or a shell without it would print another key.
        let arguments = CommandLine.arguments
        let located = arguments.contains("--state-dir") || arguments.contains("--identity") ? [] : ["--state-dir", stateDirectory]
        let identity = (arguments + located + ["--print-identity"]).map(quoted).joined(separator: " ")
        guard endpoint.hasPrefix("ipc://") else {
            return "\(identity) here, and give what it prints to `intentctl extensions trust -` on the host's machine (with the host's --state-dir)"
        }
        return identity + " | intentctl extensions trust - --state-dir " + quoted(stateDirectory)
    }

    private func connect(_ context: Context) throws -> Socket {
        let socket = try Socket(context, .dealer)
        try socket.setHighWaterMark(100_000)
        try security.apply(to: socket, endpoint: endpoint)
        try socket.connect(endpoint)
        return socket
    }
}

/// How many requests are being handled, shared with each request's task.
final class InFlightCount: Sendable {
    let count = Atomic<Int>(0)
}

/// What the connection thread sends on behalf of other threads.
enum Outgoing: Sendable {
    case reply(RequestID, [UInt8])
    case update(String, [UInt8])
    case vocabulary([UInt8])
    /// DISCONNECT, then `sent`.
    case disconnect(sent: @Sendable () -> Void)
}

/// Exit statuses the host's launcher understands.
enum ExtensionLauncherStatus {
    /// Rejected or misconfigured: do not restart.
    static let rejected: Int32 = 78
}

/// The largest REPLY the host takes (its `maxMessageBytes`, from REGISTERED). A larger one
/// the host would drop, and its request would wait out its deadline: a resolve's or
/// confirm's is answered with an ErrorReply at once instead. A keyed handle's is cut to its
/// code before it is recorded (`fitted`): its work is done, and that it was is the answer,
/// now and to every retry. One without a key is sent as it is (the host then answers
/// `outcomeUnknown`, which is the truth). Each is said in the log.
final class ReplyLimit: Sendable {
    let bytes = Atomic<Int>(1 << 20)

    /// `response` as a handle's reply the host takes: whole, or its code alone when whole it
    /// is over the limit (said in the log, whose logger is made only then: per handle it
    /// would cost more than the handle).
    func fitted(_ response: IntentResponse) -> [UInt8] {
        let reply = response.serialized()
        let limit = bytes.load(ordering: .relaxed) - 64
        guard reply.count > limit else { return reply }
        Logger(label: "IntentExtensionKit").error("a handle reply of \(reply.count) bytes is over the host's limit of \(limit); sending and keeping its code (\(response.code)) alone")
        return IntentResponse(code: response.code).serialized()
    }

    func checked(_ reply: [UInt8], stage: Stage, log: Logger) -> [UInt8] {
        let limit = bytes.load(ordering: .relaxed)
        guard reply.count > limit else { return reply }
        log.error("a \(stage) reply of \(reply.count) bytes is over the host's limit of \(limit); the host will not take it")
        guard stage != .handle else { return reply }
        return ErrorReply(error: "the \(stage) reply is \(reply.count) bytes, over the host's limit of \(limit) bytes; nothing of it was sent").serialized()
    }
}
