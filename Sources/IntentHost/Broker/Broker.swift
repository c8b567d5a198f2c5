import CZeroMQ
import Foundation
import Logging
import IntentProtocol
import Understanding
import ZeroMQ

/// The broker: owns both ROUTER sockets on one thread, blocks in `zmq_poll`, routes
/// requests to extensions on the header and names that start each message (never the
/// body), and enforces the policies.
///
/// An actor whose executor is the broker thread (`BrokerExecutor`): its loop and every
/// lifecycle step that calls into it run there, and the compiler checks it. Threads that
/// are not tasks (the launcher's) post to `mailbox`.
actor Broker {
    private let clients: Socket
    private let extensions: Socket
    private let updates: Socket
    private let mailbox: Mailbox<BrokerCommand>
    private let catalog: Catalog
    private let config: HostConfiguration
    private let startLifecycle: @Sendable (LifecycleJob) -> Void
    private let dialog: DialogEngine
    private let executor: BrokerExecutor
    private let launches: LaunchLedger
    private let launcher: ExtensionLauncher
    private let trace: WireTrace?
    private let log = Logger(label: HostLog.label)
    private let metrics = RequestMetrics.host
    /// The same requests by app, for the console's charts.
    private let traffic: TrafficMeter
    private let clock = ContinuousClock()
    /// The time the current batch of messages woke the loop: one clock read per batch
    /// serves every request's deadline and every sign of life in it.
    private var now: ContinuousClock.Instant

    private let zap: ZAPHandler
    private var limiter = RegistrationLimiter()
    private var writes = PolicyWriteLimiter()
    private var trustGeneration = 0
    private var registry = ExtensionRegistry()
    private var known = KnownApps()
    private let waitingLimits: (requests: Int, requestsPerApp: Int, bytes: Int, bytesPerApp: Int)
    private var pending = PendingRequests()
    private var inFlight: InFlightLedger
    /// SAYs taken and not yet answered, counted apart from `inFlight`.
    private var saying: InFlightLedger
    /// Where each of those SAYs is to be answered, and how many are (a client may reuse a
    /// request id): a stop waits for them, then answers the rest `shuttingDown`.
    private var sayingNow: [ClientAddress: Int] = [:]
    private var replyQueues: ClientReplyQueues
    private var memory = MemoryReturner()
    private let instanceLimit: Int
    private var lock: LockPolicy
    private var nextHeartbeat: ContinuousClock.Instant
    private var running = true
    private var malformed = 0
    private var unread = 0
    private var scratch: [Message] = []
    /// When the client socket was last read: see `serviceClients`.
    private var clientsRead: ContinuousClock.Instant
    private var routes: [RouteKey: Route] = [:]
    private var vocabulary: VocabularyStore
    private var authorization: AuthorizationStore
    private var routesGeneration = -1
    /// Launches (by token) whose instance went silent, since when: see `killHungLaunches`.
    /// Only tokens the host gave its own processes, so as many as it launched.
    private var silentLaunches: [String: ContinuousClock.Instant] = [:]
    /// Counts authorization changes, so a route carried by a lifecycle knows it is stale.
    private var authorizations = 0
    /// Idempotency keys for handles whose client gave none.
    private var keys = RequestAnnotation.KeyMaker()
    /// Clients waiting for a restart under way, by the name of the app's first launch.
    private var restartsUnderWay: [String: [ClientAddress]] = [:]
    /// Set by `stop`: new work is refused, work in flight may finish until then.
    private var drainDeadline: ContinuousClock.Instant?
    private var activeLifecycles = 0
    /// Stages asked for by lifecycles and conversations, sent after the current batch of work.
    private var stagesToSend: [StageToSend] = []
    /// Outcomes of lifecycles that ended in the current batch, sent after it as stages are.
    private var outcomesToSend: [(RoutingID, RequestID, [UInt8])] = []
    /// Set once the loop has ended: stage requests from lifecycles fail at once.
    private var finishing = false
    static let drainGrace = Duration.seconds(2)

    init(
        config: HostConfiguration, catalog: Catalog, context: Context, mailbox: Mailbox<BrokerCommand>,
        executor: BrokerExecutor, dialog: DialogEngine, launcher: ExtensionLauncher, traffic: TrafficMeter,
        startLifecycle: @escaping @Sendable (LifecycleJob) -> Void
    ) throws {
        self.executor = executor
        self.traffic = traffic
        self.launcher = launcher
        launches = launcher.ledger
        self.dialog = dialog
        self.config = config
        self.catalog = catalog
        self.mailbox = mailbox
        self.startLifecycle = startLifecycle
        trace = try config.wireTrace.map(WireTrace.init(file:))
        lock = LockPolicy(file: config.stateDirectory.url.appendingPathComponent("lock"), initial: config.startLocked)
        vocabulary = VocabularyStore(directory: config.stateDirectory.url.appendingPathComponent("vocabulary"))
        authorization = AuthorizationStore(file: config.stateDirectory.url.appendingPathComponent("authorization.json"))
        now = clock.now
        clientsRead = now
        nextHeartbeat = now + config.heartbeatInterval
        let limits = config.admission.resolved
        inFlight = InFlightLedger(config.admission)
        let sayLimits = config.admission.saying
        saying = InFlightLedger(
            host: sayLimits.host, client: sayLimits.client,
            hostFull: Refusal(code: .overloaded, message: "intentd is reading as many typed requests as it takes at once; try again shortly"),
            clientFull: Refusal(code: .overloaded, message: "this connection has as many typed requests being worked on as the host takes from one client; wait for some answers"))
        replyQueues = ClientReplyQueues(limit: limits.queuedBytes)
        instanceLimit = limits.instance
        waitingLimits = config.admission.waiting
        clients = try Socket(context, .router)
        extensions = try Socket(context, .router)
        for socket in [clients, extensions] {
            try socket.setRouterMandatory(true)
            // Per peer and direction; what a peer that does not read can make the host hold.
            try socket.setHighWaterMark(Int32(clamping: limits.highWaterMark))
            // A hard cap well above the limit: larger messages cost the sender its connection.
            try socket.setMaximumMessageSize(Int64(config.maxMessageBytes) * 4)
        }
        updates = try Socket(context, .pub)
        // Per subscriber: with updates of at most twice `maxUpdateBytes` once written, what
        // one that does not read can make the host hold is bounded (64 MiB).
        try updates.setHighWaterMark(Int32(Self.updatesHighWaterMark))
        // The ZAP handler first: a socket bound before it would let CURVE peers in unchecked.
        zap = try ZAPHandler(context: context, state: config.stateDirectory)
        try zap.protect(clients, endpoint: config.clientEndpoint, as: .clients)
        try zap.protect(extensions, endpoint: config.extensionEndpoint, as: .extensions)
        try zap.protect(updates, endpoint: config.updatesEndpoint, as: .clients)
        try Self.bind(clients, config.clientEndpoint)
        try Self.bind(extensions, config.extensionEndpoint)
        try Self.bind(updates, config.updatesEndpoint)
    }

    /// Binds, first removing a socket file left behind by a host that did not stop cleanly.
    private static func bind(_ socket: Socket, _ endpoint: String) throws {
        if endpoint.hasPrefix("ipc://") {
            let path = String(endpoint.dropFirst(6))
            if FileManager.default.fileExists(atPath: path), !Self.isLive(endpoint, socket.context) {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        do {
            try socket.bind(endpoint)
        } catch {
            let hint = error.code == EADDRINUSE ? " (is another intentd using this state directory or port?)" : ""
            throw ConfigurationError("cannot listen on \(endpoint): \(String(cString: zmq_strerror(error.code)))\(hint)")
        }
    }

    /// Whether another process accepts connections on an ipc endpoint.
    private static func isLive(_ endpoint: String, _ context: Context) -> Bool {
        let path = String(endpoint.dropFirst(6))
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8.prefix(MemoryLayout.size(ofValue: address.sun_path) - 1))
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    // MARK: The loop

    /// The broker thread.
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Runs the loop on the calling thread, which becomes the broker thread, until it stops.
    nonisolated func run() {
        executor.adoptCurrentThread()
        assumeIsolated { $0.loop() }
    }

    /// Polls and dispatches until a `stop` command arrives or the context is shut down.
    private func loop() {
        var poller = Poller()
        let clientIndex = poller.add(clients)
        let extensionIndex = poller.add(extensions)
        let mailboxIndex = poller.add(fileDescriptor: mailbox.wakeup.fileDescriptor)
        let zapIndex = poller.add(zap.socket)
        if let doubt = lock.doubt { log.warning("\(doubt)") }
        log.info("listening for clients on \(config.clientEndpoint) and extensions on \(config.extensionEndpoint)")
        while running && !drained {
            do {
                try poller.poll(timeout: millisecondsUntilNextTimer())
                now = clock.now
                if poller.isReadable(zapIndex) { zap.answerAll() }
                // Clients first: a request to refuse costs next to nothing, and should not wait
                // behind a batch of replies and the lifecycle steps they resume.
                if poller.isReadable(clientIndex) {
                    clientsRead = now
                    try drain(clients, handleClient)
                }
                if poller.isReadable(extensionIndex) { try drain(extensions, handleExtension) }
                // Jobs run here may post more work without waking anyone: drain until empty.
                if poller.isReadable(mailboxIndex) || pendingLocalWork {
                    var commands = mailbox.drain()
                    while !commands.isEmpty {
                        now = clock.now
                        for command in commands {
                            handle(command)
                            try serviceClients()
                        }
                        flushBatch()
                        commands = mailbox.drain()
                    }
                    flushBatch()
                }
                runTimers()
            } catch let error as ZMQError where error.isTerminated {
                running = false
            } catch {
                log.error("broker: \(error)")
            }
        }
        // Whatever is still waiting fails now; lifecycles that were mid-way get their
        // failure back and answer their clients before the sockets close.
        finishing = true
        for entry in pending.removeAll() {
            count(entry, entry.key != nil && entry.wasSent ? .outcomeUnknown : .shuttingDown)
            if let key = entry.key, entry.wasSent {
                fail(entry.origin, .outcomeUnknown, Self.unknown(entry.app, "had not answered when the host stopped", key))
            } else {
                fail(entry.origin, .shuttingDown, "the host is shutting down")
            }
        }
        // Each ends at once (its next stage fails), unless the machine is busy: wait up to 2 s,
        // for lifecycles and for conversations working on a SAY, which answer it with their
        // last turn (an unknown handle's key among it).
        let last = clock.now + .seconds(2)
        var mailboxOnly = Poller()
        mailboxOnly.add(fileDescriptor: mailbox.wakeup.fileDescriptor)
        while (activeLifecycles > 0 || !sayingNow.isEmpty) && clock.now < last {
            _ = try? mailboxOnly.poll(timeout: 50)
            for command in mailbox.drain() { handle(command) }
            flushBatch()
        }
        // Conversations still working on a SAY after that answer it no more.
        for (address, count) in sayingNow {
            for _ in 0..<count {
                saying.release(address.routingID)
                sendError(address.routingID, address.requestID, .shuttingDown, "the host is shutting down")
            }
        }
        sayingNow.removeAll()
        closeSockets()
    }

    /// Closes the sockets when the loop ends, not when the broker is freed: a conversation
    /// still suspended in the broker keeps it alive until the process exits, and the answers
    /// sent last leave only while the context is terminated, the clients' socket lingering
    /// up to half a second for them. Anything sent after this fails with `ENOTSOCK`.
    private func closeSockets() {
        clients.close(linger: 500)
        extensions.close()
        updates.close()
        zap.socket.close()
        clients.context.terminate()
    }

    /// Mail posted from this thread does not signal the wakeup, so look before sleeping.
    private var pendingLocalWork: Bool { mailbox.hasItems || !stagesToSend.isEmpty || !outcomesToSend.isEmpty }

    /// Whether a requested stop may happen now: nothing in flight, or the grace is over.
    private var drained: Bool {
        guard let drainDeadline else { return false }
        return (pending.count == 0 && activeLifecycles == 0 && sayingNow.isEmpty) || clock.now >= drainDeadline
    }

    /// Takes up to a batch of messages from a ready socket without blocking, into frames
    /// reused from one message to the next.
    private func drain(_ socket: Socket, _ handle: (ArraySlice<Message>) -> Void) throws {
        for _ in 0..<512 {
            guard let count = try socket.receiveFrames(into: &scratch, wait: false) else { return }
            handle(scratch[..<count])
            if socket !== clients { try serviceClients() }
        }
    }

    /// Reads what clients sent if the client socket has not been read for `clientSlice`.
    /// Lifecycles run on this thread too, so under a flood a pass of the loop is long (every
    /// reply resumes a lifecycle step); read between those pieces of work, a request to be
    /// refused waits about a slice, not a whole pass. Admitted ones start at once as well.
    private func serviceClients() throws {
        let time = clock.now
        guard clientsRead.duration(to: time) >= Self.clientSlice else { return }
        clientsRead = time
        now = time
        try drain(clients, handleClient)
    }

    /// How long client requests may wait unread while the broker thread does other work.
    static let clientSlice = Duration.microseconds(100)

    private func millisecondsUntilNextTimer() -> Int {
        if pendingLocalWork { return 0 }
        var next = nextHeartbeat
        if let deadline = pending.nextDeadline, deadline < next { next = deadline }
        if let slow = pending.nextSlowCheck(after: hedgeAfter, timeout: config.requestTimeout), slow < next { next = slow }
        if let drainDeadline, drainDeadline < next { next = drainDeadline }
        let wait = clock.now.duration(to: next)
        if wait <= .zero { return 0 }
        let (seconds, attoseconds) = wait.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000) + 1
    }

    private func runTimers() {
        now = clock.now
        for entry in pending.expire(now: now) {
            count(entry, !entry.wasSent || (entry.key == nil && entry.attempts.isEmpty)
                ? .extensionUnavailable : entry.key != nil ? .outcomeUnknown : .extensionTimeout)
            if !entry.wasSent {
                // It waited for an instance that did not come in time: nothing was sent.
                fail(entry.origin, .extensionUnavailable, Self.unavailable(entry.app, config.requestTimeout))
            } else if let key = entry.key {
                fail(entry.origin, .outcomeUnknown, Self.unknown(entry.app, "did not answer within \(config.requestTimeout)", key))
            } else if entry.attempts.isEmpty {
                // A read whose instance went away, and no other came back in time.
                fail(entry.origin, .extensionUnavailable, "\(entry.app) stopped while working on it and did not come back within \(config.requestTimeout); nothing was done")
            } else {
                fail(entry.origin, .extensionTimeout, "\(entry.app) did not answer within \(config.requestTimeout)")
            }
        }
        // A read still unanswered halfway to its deadline goes to another instance too, if it
        // is admitted again (the device may have been locked since).
        for id in pending.slowReads(now: now, after: hedgeAfter, timeout: config.requestTimeout) {
            guard let entry = pending.entry(id), !entry.parked, case .success(let route) = admit(entry.app, entry.intent),
                let app = route.app, app.instances.count > 1
            else { continue }
            pending.markHedged(id)
            dispatch(id, to: app)
        }
        guard now >= nextHeartbeat else { return }
        nextHeartbeat = now + config.heartbeatInterval
        metrics.recordInFlight(pending.count + activeLifecycles)
        replyQueues.prune()
        memory.tick(refusedSoFar: inFlight.refused &+ saying.refused, queuedBytes: replyQueues.total)
        dropUntrusted()
        let silence = config.heartbeatInterval * config.liveness
        for instance in registry.instances.values {
            if instance.lastHeard.duration(to: now) > silence {
                drop(instance.routingID, because: "no heartbeat for \(silence)", died: true)
                if let token = instance.registration.launchToken, silentLaunches[token] == nil { silentLaunches[token] = now }
            } else if instance.lastSent.duration(to: now) >= config.heartbeatInterval {
                sendToExtension(instance.routingID, .heartbeat)
            }
        }
        killHungLaunches(silence: silence)
    }

    /// A process this host launched whose instance went silent, and that has not registered
    /// again (an SDK that reconnects does, on a new connection) for twice the silence since,
    /// is hung or stopped: it is killed, and restarted as a crashed one is.
    private func killHungLaunches(silence: Duration) {
        for (token, since) in silentLaunches {
            if registry.instances.values.contains(where: { $0.registration.launchToken == token }) {
                silentLaunches[token] = nil
            } else if since.duration(to: now) >= silence * 2 {
                silentLaunches[token] = nil
                launcher.killUnresponsive(token: token, because: "no heartbeat for \(silence * 3)")
            }
        }
    }

    /// Drops the instances whose key the user stopped trusting since the file was last read.
    private func dropUntrusted() {
        zap.trust.refresh()
        guard zap.trust.generation != trustGeneration else { return }
        trustGeneration = zap.trust.generation
        for instance in Array(registry.instances.values)
        where !zap.trust.stillTrusts(instance.publicKey, for: instance.registration.bundleIdentifier) {
            drop(instance.routingID, because: "its key is no longer trusted")
        }
    }

    // MARK: Extensions

    private func handleExtension(_ frames: ArraySlice<Message>) {
        guard let first = frames.first else { return }
        let routingID = RoutingID(first)
        if Wire.size(frames.dropFirst()) > config.maxMessageBytes {
            noteMalformed("an extension sent \(Wire.size(frames.dropFirst())) bytes, over the limit")
            return
        }
        let message: ExtensionMessage
        do {
            message = try ExtensionMessage(frames: frames.dropFirst())
        } catch {
            noteMalformed("from an extension: \(error)")
            return
        }
        trace?.received(.extensions, from: routingID, frames.dropFirst())
        let instance = registry.heard(from: routingID, at: now)
        // A routing id that a connection gone had is free for another to take (the peer names
        // it): on it, only the key the instance registered with speaks for that instance.
        if let instance, frames.last?.property("User-Id", is: instance.publicKey) != true {
            drop(routingID, because: "another key took over its connection")
            sendToExtension(routingID, .disconnect(reason: "not registered; register first"))
            return
        }
        if instance == nil, case .disconnect = message { return }
        if instance == nil, !message.isRegister {
            // A host restart forgets every extension: ask it to register again.
            sendToExtension(routingID, .disconnect(reason: "not registered; register first"))
            return
        }
        switch message {
        case .register(let body):
            // Who the peer is comes from its key (the ZAP handler's user id), never from the body.
            guard limiter.allow(routingID, now: now) else { return }
            // A routing id the peer chose could be chosen again by another once it goes: only
            // the host's own, never reused, names an instance.
            // (ZMTP's "Identity" property, "Routing-Id" in newer libzmq, is empty when the host chose.)
            if let chosen = frames.last.flatMap({ $0.property("Routing-Id") ?? $0.property("Identity") }), !chosen.isEmpty {
                let registration = (try? Registration.decode(body.bytes)) ?? Registration(bundleIdentifier: "?", appName: "?", intentsSupported: [])
                reject(routingID, registration, .untrustedIdentity,
                    "the connection chose its own routing id (ZMQ_ROUTING_ID): leave it unset, the host assigns one", key: frames.last?.property("User-Id"))
                return
            }
            register(routingID, body, key: frames.last?.property("User-Id"))
        case .reply(let id, let body):
            guard let entry = pending.take(id, from: routingID) else {
                log.debug("dropped a late or unknown reply", metadata: ["request": "\(id)"])
                return
            }
            count(entry, nil)
            log.debug("answered", metadata: stageMetadata(entry, id))
            deliver(body, to: entry.origin)
        case .heartbeat:
            break
        case .update(let topic, let body):
            publish(from: routingID, topic: topic, body: body)
        case .vocabulary(let body):
            guard let registration = registry.instances[routingID]?.registration else { return }
            do {
                _ = try changeVocabulary(of: registration, body, by: .extension(routingID))
            } catch let busy as PolicyWriteBusy {
                if writes.dropped <= 5 || writes.dropped % 100 == 0 {
                    log.warning("dropped vocabulary change #\(writes.dropped) from \(registration.appName): \(busy)", metadata: ["app": "\(registration.appName)"])
                }
            } catch {
                noteMalformed("in a vocabulary from \(registration.appName): \(error)")
            }
        case .disconnect:
            drop(routingID, because: "it disconnected", died: true)
        }
    }

    /// Publishes an extension's update as `APP/TOPIC` and an `Update` body; a PUB socket
    /// never blocks, and subscribers that fall behind lose updates, not the host.
    private func publish(from routingID: RoutingID, topic: String, body: Body) {
        guard let app = registry.instances[routingID]?.registration.appName else { return }
        guard body.count <= Self.maxUpdateBytes else {
            noteMalformed("an update from \(app) of \(body.count) bytes, over \(Self.maxUpdateBytes)")
            return
        }
        let payload: JSONValue
        do { payload = try JSONValue.parse(body.bytes) } catch {
            noteMalformed("in an update from \(app): \(error)")
            return
        }
        let update = Update(app: app, topic: topic, payload: payload, time: Date().formatted(.iso8601))
        let encoded = (try? JSON.encode(update)) ?? []
        // Escaping may make it longer than the body was.
        guard encoded.count <= 2 * Self.maxUpdateBytes else {
            noteMalformed("an update from \(app) of \(encoded.count) bytes once written")
            return
        }
        _ = try? updates.send("\(app)/\(topic)", more: true, wait: false)
        _ = try? updates.send(Message(bytes: encoded), wait: false)
        trace?.sent(.updates, to: nil, [Array("\(app)/\(topic)".utf8), encoded])
    }

    /// Answers a request about one app (registered, or known though away): ERROR unknownApp
    /// if the host never knew it, ERROR malformed if `work` cannot read the body, else RESULT
    /// with what `work` returns.
    private func answerForApp(
        _ app: String, _ routingID: RoutingID, _ id: RequestID, _ work: (Registration) throws -> some Encodable
    ) {
        guard let registration = registry.app(named: app)?.registration ?? knownApp(named: app) else {
            sendError(routingID, id, .unknownApp, "no extension serves the app \"\(app)\"")
            return
        }
        do {
            answer(routingID, id, try work(registration))
        } catch let busy as PolicyWriteBusy {
            sendError(routingID, id, .overloaded, "\(busy)")
        } catch let error as PolicyStateError {
            log.error("\(error); nothing was changed")
            sendError(routingID, id, .stateNotSaved, "\(error); nothing was changed")
        } catch {
            sendError(routingID, id, .malformed, "\(error)")
        }
    }

    /// Starts an app's launches again (see `ExtensionLauncher.restart`), off the broker thread:
    /// starting a process takes a while. The answer comes back through the broker actor.
    /// Asked again while a restart of the app is under way, it answers with that one's
    /// result instead of starting another (up to `maxRestartWaiters` at once).
    private func restart(_ app: String, _ routingID: RoutingID, _ id: RequestID) {
        guard let first = launcher.board.launches(of: app).first else {
            if let known = registry.app(named: app) {
                sendError(routingID, id, .notLaunched, "\(known.registration.appName) runs, but this host did not launch it: restart it where it was started")
            } else {
                sendError(routingID, id, .unknownApp, "this host launches no extension for the app \"\(app)\"")
            }
            return
        }
        let address = ClientAddress(routingID: routingID, requestID: id)
        if let waiting = restartsUnderWay[first.name] {
            guard waiting.count < Self.maxRestartWaiters else {
                sendError(routingID, id, .overloaded, "\(first.target.registration.appName) is restarting and as many requests as the host holds wait for it; try again shortly")
                return
            }
            restartsUnderWay[first.name, default: []].append(address)
            return
        }
        restartsUnderWay[first.name] = [address]
        let launcher = launcher
        let ledger = launches
        let thread = Thread { [self] in
            let launches = (launcher.restart(app) ?? []).map(ledger.showing)
            let name = launches.first?.appName ?? app
            let body = (try? JSON.encode(RestartState(app: name, launches: launches))) ?? []
            Task { await self.finishRestart(first.name, body: body) }
        }
        thread.name = "intentd-restart"
        thread.start()
    }

    /// Answers everyone who asked for the restart of the launch named `name`.
    private func finishRestart(_ name: String, body: [UInt8]) {
        for address in restartsUnderWay.removeValue(forKey: name) ?? [] {
            sendToClient(address.routingID, HostToClient.result(address.requestID, body: Body(body)))
        }
    }

    /// The largest UPDATE body the host publishes.
    static let maxUpdateBytes = 64 * 1024
    /// How many updates a subscriber may fall behind before it loses some.
    static let updatesHighWaterMark = 500

    /// How many routes `admit` keeps.
    static let maxCachedRoutes = 1024

    /// How many RESTARTs of one app may wait for the one under way.
    static let maxRestartWaiters = 64

    /// Records the user's decision about an app; a reset also forgets its user vocabulary.
    private func decide(_ registration: Registration, _ body: Body) throws -> AuthorizationState {
        let request = try JSON.decode(AuthorizationRequest.self, from: body.bytes)
        guard writes.allowClient(now: now) else { throw PolicyWriteBusy.clients }
        let bundle = registration.bundleIdentifier
        let status: AuthorizationStatus = switch request.decision {
        case .allow: .authorized
        case .deny: .denied
        case .reset: .notDetermined
        }
        try record(status, bundle: bundle, app: registration.appName)
        if request.decision == .reset {
            try vocabulary.change(reset: true, set: nil, of: bundle)
            tellVocabularyReset(registration)
        }
        return AuthorizationState(app: registration.appName, status: status)
    }

    /// Tells the app's live instances that the user reset its vocabulary, so that terms that
    /// still name the app's data (its contacts) are taught again (wire.md, section 19b).
    private func tellVocabularyReset(_ registration: Registration) {
        for instance in registry.app(named: registration.appName)?.instances ?? [] { sendToExtension(instance, .vocabularyReset) }
    }

    /// Saves the user's decision about an app and forgets routes admitted under the old one.
    private func record(_ status: AuthorizationStatus, bundle: String, app: String) throws {
        try authorization.set(status, for: bundle)
        routesGeneration = -1
        authorizations &+= 1
        log.info("\(app) is now \(status.rawValue)", metadata: ["app": "\(app)"])
    }

    /// Applies a `VocabularyRequest` (replace one type, or reset all) from a client or an
    /// extension connection and returns the result.
    private func changeVocabulary(of registration: Registration, _ body: Body, by writer: PolicyWriter) throws -> VocabularyState {
        let request = try JSON.decode(VocabularyRequest.self, from: body.bytes)
        let bundle = registration.bundleIdentifier
        if request.reset == true || request.set != nil {
            switch writer {
            case .client: guard writes.allowClient(now: now) else { throw PolicyWriteBusy.clients }
            case .extension(let routingID): guard writes.allowExtension(routingID, now: now) else { throw PolicyWriteBusy.extension }
            }
            try vocabulary.change(reset: request.reset == true, set: request.set, of: bundle)
            // A user's reset alone; one with terms of its own replaces the app's with them.
            if case .client = writer, request.reset == true, request.set == nil { tellVocabularyReset(registration) }
            log.info(
                "vocabulary of \(registration.appName): \(vocabulary.terms(of: bundle).mapValues(\.count))",
                metadata: ["app": "\(registration.appName)"])
        }
        return VocabularyState(app: registration.appName, user: vocabulary.terms(of: bundle), appVocabulary: registration.vocabulary ?? AppVocabulary())
    }

    private func register(_ routingID: RoutingID, _ body: Body, key: String?) {
        var registration: Registration
        do {
            registration = try Registration.decode(body.bytes).normalized()
        } catch {
            reject(routingID, Registration(bundleIdentifier: "?", appName: "?", intentsSupported: []),
                .invalidManifest, "the registration body is not valid: \(error)", key: key)
            return
        }
        let serving = registry.serving(registration.appName, except: routingID)
        if let (code, reason) = RegistrationPolicy.check(registration, key: key, trust: zap.trust, catalog: catalog, serving: serving)
        {
            reject(routingID, registration, code, reason, key: key)
            return
        }
        // A launch token names the launch of one bundle; another bundle's instance that sends
        // it (a token learned from a launched extension) runs outside the host's launches.
        if let token = registration.launchToken, !launches.isLaunch(token, of: registration.bundleIdentifier) {
            registration.launchToken = nil
        }
        zap.trust.pin(registration)
        known.note(registration)
        // A connection that registers again is a new instance: what the old one was sent is
        // answered as for any instance that went away (reads elsewhere, handles unknown).
        if registry.instances[routingID] != nil { drop(routingID, because: "it registered again") }
        let instance = registry.add(registration, routingID: routingID, publicKey: key, now: clock.now)
        let registered = Registered(
            extensionId: instance.id, heartbeatMilliseconds: Int(config.heartbeatInterval / .milliseconds(1)),
            liveness: config.liveness, maxMessageBytes: config.maxMessageBytes)
        sendToExtension(routingID, .registered(body: Body((try? JSON.encode(registered)) ?? [])))
        resume(registration.appName)
        let restricted = registration.intentsRestrictedWhileLocked
        HostEvents.registration(app: registration.appName, outcome: "registered")
        let intents = registration.intentsSupported.joined(separator: ", ")
        log.info(
            "registered \(registration.appName) (\(instance.id), key \(key.map(CurveKeyPair.fingerprint(of:)) ?? "?"), \(whichProcess(registration))): \(intents)\(restricted.isEmpty ? "" : "; restricted while locked: \(restricted.joined(separator: ", "))")",
            metadata: ["app": "\(registration.appName)", "instance": "\(instance.id)"])
    }

    /// The process of a registration as the host knows it: the pid it launched, else the
    /// one the extension says it has (which proves nothing).
    private func whichProcess(_ registration: Registration) -> String {
        if let pid = launches.describe(registration.launchToken).1 { return "pid \(pid)" }
        return "says pid \(registration.processIdentifier.map(String.init) ?? "?")"
    }

    private func reject(
        _ routingID: RoutingID, _ registration: Registration, _ code: Rejection.Code, _ reason: String, key: String?
    ) {
        let time = Date().formatted(.iso8601)
        let (bundle, app) = (PeerNames.loggable(registration.bundleIdentifier), PeerNames.loggable(registration.appName))
        var rejection = Rejection(code: code, reason: reason, bundleIdentifier: bundle, appName: app, time: time)
        rejection.keyFingerprint = key.map(CurveKeyPair.fingerprint(of:))
        registry.reject(rejection)
        HostEvents.registration(app: registry.app(named: registration.appName)?.registration.appName ?? RequestMetrics.other, outcome: code.rawValue)
        drop(routingID, because: "its new registration was rejected")
        log.warning("rejected the registration of \(app) (\(bundle)): \(reason)", metadata: ["app": "\(app)"])
        sendToExtension(routingID, .rejected(code: code.rawValue, reason: reason))
    }

    /// Instances a read may lose (each died while it was in flight to it) before it is
    /// failed instead of sent again: the request itself may be what stops them.
    static let instancesLostPerRead = 2

    /// Forgets an instance. What it was asked and has not answered goes to another
    /// instance (reads, within their deadline, unless they were with
    /// `instancesLostPerRead` instances that went; they wait for one while none is left)
    /// or is answered `outcomeUnknown` (a handle: it may have been done).
    /// `died`: it exited, hung or cannot be reached (not dropped for what it said or a key).
    private func drop(_ routingID: RoutingID, because why: String, died: Bool = false) {
        guard let instance = registry.remove(routingID) else { return }
        let name = instance.registration.appName
        log.warning("\(name) (\(instance.id)) is gone: \(why)", metadata: ["app": "\(name)", "instance": "\(instance.id)"])
        for id in pending.orphan(sentTo: routingID, died: died) {
            guard let entry = pending.entry(id) else { continue }
            if let key = entry.key {
                pending.remove(id)
                count(entry, .outcomeUnknown)
                fail(entry.origin, .outcomeUnknown, Self.unknown(name, "stopped before answering (\(why))", key))
            } else if entry.instancesLost >= Self.instancesLostPerRead {
                // Sent again, it would stop the next instance too, and the next, until its deadline.
                pending.remove(id)
                count(entry, .extensionUnavailable)
                fail(entry.origin, .extensionUnavailable, "\(name) stopped \(entry.instancesLost) times while working on this request (the last: \(why)); "
                    + "it is not sent again, since the request itself may be what stops it; nothing was done")
            } else {
                // A read goes to another instance, admitted again as work that waited is: the
                // lock may have closed since it was sent.
                switch admit(entry.app, entry.intent) {
                case .failure(let refusal):
                    pending.remove(id)
                    fail(entry.origin, refusal)
                case .success(let route):
                    if let app = route.app, dispatch(id, to: app) == .sent { continue }
                    // No other instance may take it now: it waits for one within its deadline.
                    pending.park(id)
                }
            }
        }
    }

    /// Sends the work that waited for an instance of `app`, in the order it came in, now
    /// that one registered: each is admitted again (the lock, the authorization and the
    /// manifest may have changed while it waited) and answered as any request is if not.
    private func resume(_ app: String) {
        for id in pending.unpark(app) {
            guard let work = pending.entry(id) else { continue }
            switch admit(work.app, work.intent) {
            case .failure(let refusal):
                pending.remove(id)
                fail(work.origin, refusal)
            case .success(let route):
                guard let entry = route.app else {
                    pending.park(id)
                    continue
                }
                switch dispatch(id, to: entry) {
                case .sent: break
                case .busy:
                    pending.remove(id)
                    refuse(work.origin, Self.busy(entry.registration.appName))
                case .none: pending.park(id)
                }
            }
        }
    }

    /// Keeps work `id`, which no instance may take now, waiting for one until its deadline,
    /// unless as much waits already as the limits allow: then it is refused (`overloaded`),
    /// as nothing was sent.
    private func wait(_ id: UInt64) {
        guard let work = pending.entry(id) else { return }
        // One that will not come back by itself is no use waiting for: say why at once.
        if let why = notComingBack(work.app) {
            pending.remove(id)
            count(work, .extensionUnavailable)
            fail(work.origin, .extensionUnavailable, why)
            return
        }
        let app = pending.waiting(for: work.app)
        let size = work.body.count
        if pending.waitingCount >= waitingLimits.requests || pending.waitingBytes + size > waitingLimits.bytes
            || app.count >= waitingLimits.requestsPerApp || app.bytes + size > waitingLimits.bytesPerApp
        {
            pending.remove(id)
            inFlight.noteRefused()
            refuse(work.origin, "\(work.app) is not running right now and as many requests as the host holds wait for it; try again shortly")
            return
        }
        pending.park(id)
    }

    /// Why the app `name`, which has no instance now, will not have one until someone acts:
    /// every launch of it was rejected, found its data damaged or could not start, or (not
    /// launched here) a registration from its own trusted key was refused for a changed
    /// manifest while none of it ran. Nil when it may come back.
    private func notComingBack(_ name: String) -> String? {
        guard let app = knownApp(named: name) else { return nil }
        let launches = launcher.board.launches(of: app.appName).filter { $0.target.registration.bundleIdentifier == app.bundleIdentifier }
        if !launches.isEmpty {
            guard launches.allSatisfy({ [.rejected, .unhealthy, .failed].contains($0.state) }) else { return nil }
            let what = switch launches[0].state {
            case .unhealthy: "found its data damaged"
            case .failed: "could not be started"
            default: "was rejected"
            }
            return "\(app.appName) is not running: its extension \(what) and is not restarted until it is fixed "
                + "and `intentctl restart \(app.appName)` (intentctl status says why); nothing was sent to it"
        }
        guard let reason = registry.refusedWhileAway[app.bundleIdentifier] else { return nil }
        return "\(app.appName) is not running: its last registration was refused (\(reason)); nothing was sent to it"
    }

    /// The message of an `extensionUnavailable` answer to work that waited for an instance.
    static func unavailable(_ app: String, _ timeout: Duration) -> String {
        "\(app) is not running right now (it may be restarting) and did not come back within \(timeout); nothing was sent to it"
    }

    /// The message of an `overloaded` answer when every instance is as busy as it may be.
    static func busy(_ app: String) -> String {
        "every instance of \(app) has as many requests as it takes; try again shortly"
    }

    /// The message of an `outcomeUnknown` answer; it ends with the key (wire.md, section 11).
    static func unknown(_ app: String, _ what: String, _ key: String) -> String {
        "\(app) \(what): the handle may or may not have been done; send it again with the same key to find out; idempotency key: \(key)"
    }

    /// A read unanswered this long goes to a second instance as well.
    private var hedgeAfter: Duration { config.requestTimeout / 2 }

    @discardableResult
    private func sendToExtension(_ routingID: RoutingID, _ message: HostToExtension) -> Bool {
        guard send(extensions, to: routingID, message) else {
            drop(routingID, because: "it cannot be reached", died: true)
            return false
        }
        registry.sent(to: routingID, at: clock.now)
        return true
    }

    // MARK: Clients

    private func handleClient(_ frames: ArraySlice<Message>) {
        guard let first = frames.first else { return }
        let routingID = RoutingID(first)
        let body = frames.dropFirst()
        let size = Wire.size(body)
        if size > config.maxMessageBytes {
            let error = ProtocolError.tooLarge(size, limit: config.maxMessageBytes)
            sendError(routingID, Wire.bestEffortRequestID(body), error.code, error.description)
            return
        }
        let message: ClientMessage
        do {
            message = try ClientMessage(frames: body)
        } catch {
            noteMalformed("from a client: \(error)")
            sendError(routingID, Wire.bestEffortRequestID(body), error.code, error.description)
            return
        }
        trace?.received(.client, from: routingID, body)
        if drainDeadline != nil {
            switch message {
            case .stage(let id, _, _, _, _), .submit(let id, _, _, _), .say(let id, _), .restart(let id, _):
                sendError(routingID, id, .shuttingDown, "intentd is shutting down; try again when it is back")
                return
            case .status, .lock, .vocab, .authorize:
                break
            }
        }
        switch message {
        case .status(let id), .restart(let id, _), .authorize(let id, _, _), .vocab(let id, _, _), .lock(let id, _):
            // Not counted in flight, but their answers are held for the client as any are:
            // one that does not read them gets no more until it does.
            if let refusal = unreadRefusal(routingID, in: &inFlight) {
                sendError(routingID, id, refusal.code, refusal.message)
                return
            }
        case .stage, .submit, .say:
            break
        }
        switch message {
        case .status(let id):
            var status = registry.status(locked: lock.locked, sandbox: launches.describe) { zap.trust.bundle(of: $0) == $1 }
            for i in status.extensions.indices {
                status.extensions[i].authorization = authorization.status(of: status.extensions[i].bundleIdentifier)
            }
            let launched = launcher.board.status().map(launches.showing)
            status.launches = launched.isEmpty ? nil : launched
            let waiting = pending.waitingByApp
            status.waitingRequests = waiting.isEmpty ? nil : waiting
            status.http = config.http?.current
            answer(routingID, id, StatusBound.fit(status, within: config.maxMessageBytes))
        case .restart(let id, let app):
            restart(app, routingID, id)
        case .authorize(let id, let app, let body):
            answerForApp(app, routingID, id) { try decide($0, body) }
        case .vocab(let id, let app, let body):
            answerForApp(app, routingID, id) { try changeVocabulary(of: $0, body, by: .client) }
        case .say(let id, let body):
            // A SAY holds a place of its own until its turn goes out (`.turn`): reading text
            // costs, so a client has only so much read at once, and SUBMIT and STAGE keep their room.
            if let refusal = takeOn(routingID, in: &saying) {
                countRefused("", "", "say", refusal.code.rawValue)
                sendError(routingID, id, refusal.code, refusal.message)
                return
            }
            let utterance: Utterance
            do { utterance = try JSON.decode(Utterance.self, from: body.bytes) } catch {
                saying.release(routingID)
                sendError(routingID, id, .malformed, "the SAY body: \(error)")
                return
            }
            let address = ClientAddress(routingID: routingID, requestID: id)
            switch dialog.hear(utterance, from: address, key: frames.last?.property("User-Id")) {
            case .taken: sayingNow[address, default: 0] += 1
            case .answer(let turn):
                saying.release(routingID)
                answer(routingID, id, turn)
            case .error(let code, let message):
                saying.release(routingID)
                if code == .overloaded {
                    saying.noteRefused()
                    countRefused("", "", "say", code.rawValue)
                }
                sendError(routingID, id, code, message)
            }
        case .lock(let id, let locked):
            guard writes.allowClient(now: now) else {
                sendError(routingID, id, .overloaded, "\(PolicyWriteBusy.clients); the device stays \(lock.locked ? "locked" : "unlocked")")
                return
            }
            do {
                try lock.set(locked: locked)
            } catch {
                log.error("\(error); the device stays \(lock.locked ? "locked" : "unlocked")")
                sendError(routingID, id, .stateNotSaved, "\(error); the device stays \(lock.locked ? "locked" : "unlocked")")
                return
            }
            log.info(locked ? "device locked" : "device unlocked")
            answer(routingID, id, LockState(locked: locked))
        case .stage(let id, let app, let intent, let stage, let body):
            // The limits first: refusing for overload must cost next to nothing.
            if let refusal = takeOn(routingID) {
                countRefused(app, intent, "\(stage)", refusal.code.rawValue)
                sendError(routingID, id, refusal.code, refusal.message)
                return
            }
            switch admit(app, intent) {
            case .failure(let refusal):
                inFlight.release(routingID)
                countRefused(app, intent, "\(stage)", refusal.code.rawValue)
                sendError(routingID, id, refusal.code, refusal.message)
            case .success(let route):
                // A body refused from here on gives back the place it was admitted to.
                if body.withUnsafeBytes({ RequestAnnotation.namesDeadline($0) }) {
                    inFlight.release(routingID)
                    sendError(routingID, id, .malformed, "\"deadline\" is the host's member of a REQUEST body; a STAGE body may not name it")
                    return
                }
                var key: String?
                var given = false
                if stage == .handle {
                    switch body.withUnsafeBytes({ RequestAnnotation.key(in: $0) }) {
                    case .failure(let problem):
                        inFlight.release(routingID)
                        sendError(routingID, id, .malformed, "\(problem)")
                        return
                    case .success(let own):
                        key = own ?? keys.make()
                        given = own != nil
                    }
                }
                forward(route, stage: stage, body: body, key: key, keyInBody: given, origin: .client(routingID: routingID, requestID: id))
            }
        case .submit(let id, let app, let intent, let body):
            if let refusal = takeOn(routingID) {
                countRefused(app, intent, "submit", refusal.code.rawValue)
                sendError(routingID, id, refusal.code, refusal.message)
                return
            }
            switch admit(app, intent) {
            case .failure(let refusal):
                inFlight.release(routingID)
                countRefused(app, intent, "submit", refusal.isFailure ? Outcome.Kind.failure.rawValue : Outcome.Kind.refused.rawValue)
                let name = registry.app(named: app)?.registration.appName ?? app
                let session = (try? JSON.decode(Submission.self, from: body.bytes))?.sessionId ?? UUID().uuidString
                answer(routingID, id, Outcome(
                    outcome: refusal.isFailure ? .failure : .refused, code: refusal.code.rawValue, app: name,
                    intent: catalog.intent(intent)?.name ?? intent, sessionId: session, message: refusal.message))
            case .success(let route):
                activeLifecycles += 1
                startLifecycle(LifecycleJob(
                    routingID: routingID, requestID: id, app: route.registration.appName,
                    intent: route.intent, body: body.bytes, batched: route.registration.takesBatches,
                    route: CarriedRoute(route, generation: registry.generation, authorizations: authorizations)))
            }
        }
    }

    /// Admits a lifecycle's stage: on the route it carries while that is still valid (as a
    /// cached route is: it has instances, and none came or went and no authorization changed
    /// since) and the lock allows it, else as any request is, which also says why not.
    private func admit(_ app: String, _ intent: String, carried: CarriedRoute?) -> Result<Route, Refusal> {
        if let carried, carried.generation == registry.generation, carried.authorizations == authorizations,
            let route = carried.route(on: executor), route.app != nil, !(route.restricted && lock.locked)
        {
            return .success(route)
        }
        return admit(app, intent)
    }

    /// Admits (app, intent): from the route cache when nothing has registered or left since,
    /// else through `Admission`, whose answer is cached when it admits.
    private func admit(_ app: String, _ intent: String) -> Result<Route, Refusal> {
        if routesGeneration != registry.generation {
            routes.removeAll(keepingCapacity: true)
            routesGeneration = registry.generation
        }
        let key = RouteKey(app: app, intent: intent)
        if let route = routes[key], !(route.restricted && lock.locked) { return .success(route) }
        let result = Admission.admit(
            app: app, intent: intent, registry: registry, catalog: catalog, lock: lock, authorization: authorization,
            known: knownApp(named:))
        if case .failure(let refusal) = result, refusal.code == .unknownApp, let hint = refusedKeyHint() {
            return .failure(Refusal(code: refusal.code, message: refusal.message + hint))
        }
        if case .success(let route) = result, route.app != nil {
            // Keyed by the names as sent, which a client may spell many ways: bounded.
            if routes.count >= Self.maxCachedRoutes { routes.removeAll() }
            routes[key] = route
        }
        return result
    }

    /// What an app no extension serves may be: an extension refused for its key in the last
    /// ten minutes, which, started by hand, was never trusted.
    private func refusedKeyHint() -> String? {
        guard let (fingerprint, at) = zap.lastRefusedExtension, at.duration(to: .now) < .seconds(600) else { return nil }
        let ago = Int(at.duration(to: .now).components.seconds)
        return "; an extension whose key is not trusted tried to connect \(ago) s ago"
            + (fingerprint.map { " (key \($0))" } ?? "")
            + ": one started by hand is trusted with EXTENSION --print-identity | intentctl extensions trust -"
    }

    /// The app named `name` if the host has known it though no instance serves it now: it
    /// registered in this host's life (and a key may still register it), its manifest is
    /// pinned in the trust store, or this host launches it.
    private func knownApp(named name: String) -> Registration? {
        known.registration(named: name).flatMap { zap.trust.hasKey(for: $0.bundleIdentifier) ? $0 : nil }
            ?? launcher.board.launches(of: name).first?.target.registration
            ?? zap.trust.pinnedRegistration(named: name)
    }

    /// Takes one more request from `client` on, or says why the host cannot now.
    private func takeOn(_ client: RoutingID) -> Refusal? {
        takeOn(client, in: &inFlight)
    }

    /// Takes one more request from `client` on in `ledger` (SAYs have one of their own).
    private func takeOn(_ client: RoutingID, in ledger: inout InFlightLedger) -> Refusal? {
        unreadRefusal(client, in: &ledger) ?? ledger.admit(client)
    }

    /// Why `client` gets nothing more now if it has not read what the host holds for it,
    /// counted as a refusal in `ledger`.
    private func unreadRefusal(_ client: RoutingID, in ledger: inout InFlightLedger) -> Refusal? {
        guard let refusal = replyQueues.refusal(for: client) else { return nil }
        ledger.noteRefused()
        return refusal
    }

    private func answer(_ routingID: RoutingID, _ id: RequestID, _ value: some Encodable) {
        let body = (try? JSON.encode(value)) ?? []
        sendToClient(routingID, HostToClient.result(id, body: Body(body)))
    }

    private func sendError(_ routingID: RoutingID, _ id: RequestID, _ code: ErrorCode, _ message: String) {
        sendToClient(routingID, HostToClient.error(id, code: code.rawValue, message: message))
    }

    // MARK: Routing

    /// Sends one stage to the app's next instance: the body as received, with the deadline
    /// (and, for handle, the idempotency `key`) added as its last members (wire.md, 5a).
    /// When every instance has as many requests as it may take, it is refused (`overloaded`);
    /// while the app has no instance, it waits for one (`wait`).
    private func forward(_ route: Route, stage: Stage, body: Body, key: String?, keyInBody: Bool = false, origin: Origin) {
        let deadline = now + config.requestTimeout
        let wall = RequestAnnotation.wallClockMilliseconds(at: deadline, now: now)
        let added = keyInBody ? nil : key
        let sent = body.withUnsafeBytes { RequestAnnotation.annotate($0, deadline: wall, key: added) }.map(Body.init) ?? Body(body.bytes)
        let name = route.registration.appName
        let id = pending.insert(PendingRequests.Entry(
            origin: origin, app: name, intent: route.intent.name, stage: stage, body: sent, key: key, deadline: deadline))
        guard let entry = route.app else { return wait(id) }
        switch dispatch(id, to: entry) {
        case .sent:
            if let sent = pending.entry(id) { log.debug("sent", metadata: stageMetadata(sent, nil)) }
        case .busy:
            if let failed = pending.remove(id) {
                count(failed, .overloaded)
                refuse(failed.origin, Self.busy(name))
            }
        case .none: wait(id)
        }
    }

    /// How `dispatch` went.
    private enum Dispatched { case sent, busy, none }

    /// Sends work `id` to the app's next instance that does not have it yet and may take
    /// more; `.busy` if every such instance has as many as it may, `.none` if there is none
    /// (a read then waits for an instance until its deadline).
    @discardableResult
    private func dispatch(_ id: UInt64, to app: AppEntry) -> Dispatched {
        var tries = app.instances.count
        var busy = false
        while tries > 0, let instance = app.nextInstance(), let work = pending.entry(id) {
            tries -= 1
            if work.attempts.contains(instance) { continue }
            if pending.count(sentTo: instance) >= instanceLimit {
                busy = true
                continue
            }
            let request = pending.attach(id, to: instance)
            if send(extensions, to: instance, HostToExtension.request(request, work.stage, intent: work.intent, body: work.body)) {
                registry.sent(to: instance, at: now)
                return .sent
            }
            // Take the sending back first, so dropping the instance does not fail the work.
            pending.detach(request)
            drop(instance, because: "it cannot be reached", died: true)
            tries = app.instances.count
        }
        return busy ? .busy : .none
    }

    private func deliver(_ body: Body, to origin: Origin) {
        switch origin {
        case .client(let routingID, let requestID):
            inFlight.release(routingID)
            sendToClient(routingID, HostToClient.result(requestID, body: body))
        case .driver(let reply):
            reply(.reply(body.bytes))
        }
    }

    private func fail(_ origin: Origin, _ code: ErrorCode, _ message: String) {
        switch origin {
        case .client(let routingID, let requestID):
            inFlight.release(routingID)
            sendError(routingID, requestID, code, message)
        case .driver(let reply): reply(.failed(code, message))
        }
    }

    /// Answers work that was admitted again and refused (`Admission`): nothing was sent.
    private func fail(_ origin: Origin, _ refusal: Refusal) {
        switch origin {
        case .client(let routingID, let requestID):
            inFlight.release(routingID)
            sendError(routingID, requestID, refusal.code, refusal.message)
        case .driver(let reply):
            reply(refusal.isFailure ? .failed(refusal.code, refusal.message) : .refused(refusal.code, refusal.message))
        }
    }

    /// Refuses a request the host admitted but no instance may take now: nothing was sent.
    private func refuse(_ origin: Origin, _ message: String) {
        switch origin {
        case .client(let routingID, let requestID):
            inFlight.release(routingID)
            sendError(routingID, requestID, .overloaded, message)
        case .driver(let reply): reply(.refused(.overloaded, message))
        }
    }

    // MARK: Lifecycles and conversations

    /// Runs one stage on the app's extension for a lifecycle or conversation and returns
    /// its reply. `key` is the handle's idempotency key (the body carries it too);
    /// `batched` when the body carries a batch whose last stage is `stage`; `carried`, the
    /// route a SUBMIT was admitted on.
    func stage(
        app: String, intent: String, stage: Stage, body: [UInt8], key: String?, batched: Bool, route carried: CarriedRoute?
    ) async -> StageReply {
        // Once the loop has ended nothing would send it.
        if finishing { return .failed(.shuttingDown, "the host is shutting down") }
        return await withCheckedContinuation { continuation in
            stagesToSend.append(StageToSend(
                app: app, intent: intent, stage: stage, body: body, key: key, batched: batched, route: carried,
                reply: { continuation.resume(returning: $0) }))
        }
    }

    /// Sends the outcomes of the lifecycles that ended, and the stages lifecycles asked for,
    /// while the loop ran a batch of their steps: they leave in one burst, which clients,
    /// extensions and libzmq's I/O thread take with far fewer wake-ups than messages sent one
    /// at a time between the steps (about a quarter less CPU per lifecycle in all processes).
    private func flushBatch() {
        if !outcomesToSend.isEmpty {
            let outcomes = outcomesToSend
            outcomesToSend.removeAll(keepingCapacity: true)
            for (routingID, requestID, body) in outcomes {
                activeLifecycles -= 1
                inFlight.release(routingID)
                sendToClient(routingID, HostToClient.result(requestID, body: Body(body)))
            }
        }
        guard !stagesToSend.isEmpty else { return }
        let stages = stagesToSend
        stagesToSend.removeAll(keepingCapacity: true)
        for s in stages {
            send(app: s.app, intent: s.intent, stage: s.stage, body: s.body, key: s.key, batched: s.batched, route: s.route, reply: s.reply)
        }
    }

    private func send(
        app: String, intent: String, stage: Stage, body: [UInt8], key: String?, batched: Bool, route carried: CarriedRoute?,
        reply: @escaping @Sendable (StageReply) -> Void
    ) {
        if finishing {
            reply(.failed(.shuttingDown, "the host is shutting down"))
            return
        }
        let admitted = admit(app, intent, carried: carried)
        if case .failure(let refusal) = admitted { countRefused(app, intent, "\(stage)", refusal.code.rawValue) }
        switch admitted {
        case .failure(let refusal): fail(.driver(reply), refusal)
        case .success(let route) where batched && !route.registration.takesBatches:
            // Its instances were replaced by ones that take one stage at a time: nothing was sent.
            reply(.failed(.extensionUnavailable, "\(route.registration.appName) no longer takes batched stages"))
        case .success(let route):
            forward(route, stage: stage, body: Body(body), key: key, origin: .driver(reply))
        }
    }

    /// Sends a finished lifecycle's Outcome to its client and gives back its place, at the
    /// end of the loop's current batch (`flushBatch`).
    func finishLifecycle(routingID: RoutingID, requestID: RequestID, body: [UInt8]) {
        outcomesToSend.append((routingID, requestID, body))
    }

    /// Sends a conversation's turn to a client: the answer to a SAY, whose place among the
    /// SAYs being worked on is given back.
    func deliver(_ body: [UInt8], to address: ClientAddress) {
        // Not there once a stop has answered it.
        guard let count = sayingNow[address] else { return }
        sayingNow[address] = count > 1 ? count - 1 : nil
        saying.release(address.routingID)
        sendToClient(address.routingID, HostToClient.result(address.requestID, body: Body(body)))
    }

    /// Records the user's first-use answer about an app, for a conversation.
    func authorizeApp(bundle: String, status: AuthorizationStatus) {
        let app = registry.apps.values.first { $0.registration.bundleIdentifier == bundle }?.registration.appName ?? bundle
        do { try record(status, bundle: bundle, app: app) } catch { log.error("cannot save the authorization of \(bundle): \(error)") }
    }

    // MARK: Mailbox

    private func handle(_ command: BrokerCommand) {
        switch command {
        case .processExited(let token):
            silentLaunches[token] = nil
            // What the process sent before it ended comes first (its DISCONNECT, a last reply).
            try? drain(extensions, handleExtension)
            for instance in registry.instances.values where instance.registration.launchToken == token {
                drop(instance.routingID, because: "its process exited", died: true)
            }
        case .run(let job):
            executor.run(job)
        case .stop:
            if drainDeadline == nil {
                drainDeadline = clock.now + Self.drainGrace
                log.info("stopping: refusing new requests, finishing \(pending.count + activeLifecycles + sayingNow.values.reduce(0, +)) in flight")
            }
        }
    }

    /// What conversations see of the host now: the apps registered, those that registered
    /// before and have no instance now, and those this host launches that have not
    /// registered yet (at start); a conversation with one waits for it as any request does.
    func world() -> DialogWorld {
        // Away, and able to come back: a key may still register it.
        var away = known.all.filter { registry.app(named: $0.appName) == nil && zap.trust.hasKey(for: $0.bundleIdentifier) }
        for launched in launcher.board.registrations()
        where registry.app(named: launched.appName) == nil && !away.contains(where: { $0.bundleIdentifier == launched.bundleIdentifier }) {
            away.append(launched)
        }
        let apps = (registry.apps.values.map(\.registration) + away).map { registration in
            DialogWorld.App(
                registration: registration,
                profile: AppProfile(registration, userVocabulary: vocabulary.terms(of: registration.bundleIdentifier)),
                authorization: authorization.status(of: registration.bundleIdentifier))
        }
        return DialogWorld(apps: apps.sorted { $0.registration.appName < $1.registration.appName }, locked: lock.locked)
    }

    // MARK: Sending

    /// Sends a RESULT or ERROR to a client, counted against the client's queued bytes
    /// until libzmq has written it to the connection (or dropped it with the connection).
    private func sendToClient(_ routingID: RoutingID, _ message: HostToClient) {
        if let trace, let frame = try? message.frame() { trace.sent(.client, to: routingID, [frame.bytes]) }
        do {
            let sent = try message.send(on: clients, to: routingID, wait: false) { _ in replyQueues.queue(for: routingID) }
            if !sent { noteUnread() }
        } catch let error as ZMQError where error.code == EHOSTUNREACH {
            return
        } catch {
            log.error("send failed: \(error)")
        }
    }

    /// A client that does not read lost a reply: said once per hundred, not once each.
    private func noteUnread() {
        unread += 1
        if unread <= 5 || unread % 100 == 0 {
            log.warning("a client is not reading its replies; dropped reply #\(unread) to it")
        }
    }

    /// Sends to a ROUTER peer without ever blocking the broker; false if the peer is gone.
    @discardableResult
    private func send(_ socket: Socket, to routingID: RoutingID, _ message: some OutgoingMessage) -> Bool {
        if let trace, let frame = try? message.frame() {
            trace.sent(socket === clients ? .client : .extensions, to: routingID, [frame.bytes])
        }
        do {
            guard try message.send(on: socket, to: routingID, wait: false) else {
                if socket === clients { noteUnread() } else { log.warning("an extension is not reading; dropped a message to it") }
                return false
            }
            return true
        } catch let error as ZMQError where error.code == EHOSTUNREACH {
            return false
        } catch {
            log.error("send failed: \(error)")
            return false
        }
    }

    /// What the host's lines about one stage request say: the app, intent, stage, the id of
    /// the request to the extension, and the trace id its body carries (wire.md, 5b).
    private func stageMetadata(_ entry: PendingRequests.Entry, _ id: RequestID?) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["app": "\(entry.app)", "intent": "\(entry.intent)", "stage": "\(entry.stage)"]
        if let id { metadata["request"] = "\(id)" }
        if let trace = TraceParent.traceID(in: entry.body.bytes) { metadata["trace"] = "\(trace)" }
        return metadata
    }

    // MARK: Metrics

    /// Counts a request that was sent to an extension and has ended: answered (`code` nil)
    /// or failed with `code`, timed from when the host took it.
    private func count(_ entry: PendingRequests.Entry, _ code: ErrorCode?) {
        let latency = (entry.deadline - config.requestTimeout).duration(to: now)
        metrics.finished(
            app: entry.app, intent: entry.intent, stage: "\(entry.stage)", outcome: code?.rawValue ?? RequestMetrics.answered,
            after: latency)
        traffic.record(app: entry.app, latency: latency, failed: code != nil)
    }

    /// Counts a request refused before it reached an extension; names the host does not
    /// know are counted as `other`.
    private func countRefused(_ app: String, _ intent: String, _ stage: String, _ outcome: String) {
        let known = registry.app(named: app)?.registration.appName ?? knownApp(named: app)?.appName ?? RequestMetrics.other
        metrics.finished(app: known, intent: catalog.intent(intent)?.name ?? RequestMetrics.other, stage: stage, outcome: outcome)
    }

    private func noteMalformed(_ what: String) {
        malformed += 1
        // Say the first few, then one line per hundred, so a flood cannot flood the log.
        if malformed <= 5 || malformed % 100 == 0 {
            log.warning("malformed message #\(malformed) \(what)")
        }
    }
}

extension ExtensionMessage {
    fileprivate var isRegister: Bool {
        if case .register = self { true } else { false }
    }
}

/// A stage a lifecycle or conversation asked for, waiting for the end of the loop's batch.
private struct StageToSend {
    let app: String
    let intent: String
    let stage: Stage
    let body: [UInt8]
    let key: String?
    let batched: Bool
    let route: CarriedRoute?
    let reply: @Sendable (StageReply) -> Void
}
