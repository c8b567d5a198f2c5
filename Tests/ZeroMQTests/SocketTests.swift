import CZeroMQ
import Foundation
import Synchronization
import Testing
@testable import ZeroMQ

@Suite("ZeroMQ sockets")
struct SocketTests {
    let context: Context

    init() throws { context = try Context() }

    func pair(_ endpoint: String) throws -> (Socket, Socket) {
        let a = try Socket(context, .pair)
        try a.bind(endpoint)
        let b = try Socket(context, .pair)
        try b.connect(endpoint)
        return (a, b)
    }

    @Test("A multipart message crosses an inproc pair intact, empty frames included")
    func multipartOverInproc() throws {
        let (a, b) = try pair("inproc://multipart")
        let frames = [Message(string: "intentd/1"), Message(bytes: [0x10]), Message(bytes: []), Message(string: "héllo")]
        try a.send(frames: frames)
        let received = try #require(try b.receiveFrames())
        #expect(received.map(\.bytes) == [Array("intentd/1".utf8), [0x10], [], Array("héllo".utf8)])
        #expect(received.last?.string == "héllo")
        #expect(received.last?.hasMore == false)
        #expect(received.first?.hasMore == true)
    }

    @Test("A ROUTER learns a DEALER's routing id over ipc and answers it")
    func routerAnswersDealerOverIPC() throws {
        let path = "/tmp/zmq-test-\(getpid()).sock"
        defer { unlink(path) }
        let router = try Socket(context, .router)
        try router.bind("ipc://\(path)")
        let dealer = try Socket(context, .dealer)
        try dealer.connect("ipc://\(path)")
        try dealer.send("ping")
        let request = try #require(try router.receiveFrames())
        #expect(request.count == 2)
        #expect(request[1].string == "ping")
        try router.send(frames: [request[0], Message(string: "pong")])
        #expect(try dealer.receive()?.string == "pong")
    }

    @Test("Routing ids short and long survive as values and route answers back", arguments: [0, 5, 8, 16, 17, 200])
    func routingIDsRouteBack(length: Int) throws {
        let chosen = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 1) }
        let same = RoutingID(chosen)
        #expect(same.bytes == chosen && same == RoutingID(chosen) && same.hashValue == RoutingID(chosen).hashValue)
        #expect(same != RoutingID(chosen + [9]))
        guard length > 0 else { return }  // libzmq refuses an empty routing id
        let router = try Socket(context, .router)
        try router.bind("inproc://routing-\(length)")
        let dealer = try Socket(context, .dealer)
        try dealer.set(ZMQ_ROUTING_ID, bytes: chosen)
        try dealer.connect("inproc://routing-\(length)")
        try dealer.send("ping")
        let request = try #require(try router.receiveFrames())
        let id = RoutingID(request[0])
        #expect(id == same)
        try router.send(id, more: true)
        try router.send("pong")
        #expect(try dealer.receive()?.string == "pong")
    }

    @Test("A non-blocking receive with nothing queued returns nil instead of throwing")
    func nonBlockingReceiveIsNil() throws {
        let (_, b) = try pair("inproc://empty")
        #expect(try b.receive(wait: false) == nil)
        #expect(try b.receiveFrames(wait: false) == nil)
    }

    @Test("Sending a message hands its content to libzmq and leaves it empty")
    func sendingEmptiesTheMessage() throws {
        let (a, b) = try pair("inproc://handover")
        let big = Message(bytes: [UInt8](repeating: 7, count: 4096))
        try a.send(big)
        #expect(big.count == 0)
        #expect(try b.receive()?.count == 4096)
    }

    @Test("The poller reports a socket readable only while a message waits")
    func pollerIsLevelTriggered() throws {
        let (a, b) = try pair("inproc://poll")
        var poller = Poller()
        let index = poller.add(b)
        #expect(try poller.poll(timeout: 0) == 0)
        try a.send("x")
        #expect(try poller.poll(timeout: 1000) == 1)
        #expect(poller.isReadable(index))
        _ = try b.receive()
        #expect(try poller.poll(timeout: 0) == 0)
    }

    @Test("A mailbox wakes a thread blocked in poll from another thread, and drains in order")
    func mailboxWakesThePoller() throws {
        let mailbox = try Mailbox<Int>()
        var poller = Poller()
        let index = poller.add(fileDescriptor: mailbox.wakeup.fileDescriptor)
        Thread.detachNewThread {
            usleep(50_000)
            for i in 1...3 { mailbox.post(i) }
        }
        #expect(try poller.poll(timeout: 5000) == 1)
        #expect(poller.isReadable(index))
        usleep(50_000)
        #expect(mailbox.drain() == [1, 2, 3])
        #expect(try poller.poll(timeout: 0) == 0, "draining clears the wake-up")
    }

    @Test("Errors carry errno and the call that failed")
    func errorsNameTheCall() throws {
        let socket = try Socket(context, .router)
        #expect(throws: ZMQError.self) { try socket.bind("nonsense://here") }
        do {
            try socket.bind("nonsense://here")
        } catch {
            #expect(error.operation == "zmq_bind")
            #expect(error.code == EPROTONOSUPPORT)
        }
    }

    @Test("A ROUTER with mandatory routing reports a message to an unknown peer")
    func mandatoryRoutingReportsUnknownPeers() throws {
        let router = try Socket(context, .router)
        try router.setRouterMandatory(true)
        try router.bind("inproc://mandatory")
        #expect(throws: ZMQError(code: EHOSTUNREACH, operation: "zmq_send")) {
            try router.send(Array("nobody".utf8), more: true, wait: false)
        }
    }

    @Test("CURVE: a client holding the server's key is heard; one with a wrong key is not")
    func curveAuthenticatesTheServer() throws {
        #expect(Context.has("curve"))
        let server = try CurveKeyPair.generate()
        let impostor = try CurveKeyPair.generate()
        #expect(server.publicKey.utf8.count == 40)

        let router = try Socket(context, .router)
        try router.makeCurveServer(secretKey: server.secretKey)
        try router.bind("tcp://127.0.0.1:*")
        let endpoint = router.lastEndpoint

        let good = try Socket(context, .dealer)
        try good.makeCurveClient(try CurveKeyPair.generate(), serverKey: server.publicKey)
        try good.connect(endpoint)
        try good.send("hello")
        var poller = Poller()
        poller.add(router)
        #expect(try poller.poll(timeout: 5000) == 1)
        #expect(try router.receiveFrames(wait: false)?.last?.string == "hello")

        let bad = try Socket(context, .dealer)
        try bad.makeCurveClient(try CurveKeyPair.generate(), serverKey: impostor.publicKey)
        try bad.connect(endpoint)
        try bad.send("let me in", wait: false)
        #expect(try poller.poll(timeout: 500) == 0, "the handshake fails, so nothing arrives")
    }

    @Test("ZAP: without a handler libzmq admits any CURVE key; with one bound first, a refused key gets nothing and an admitted one carries its User-Id")
    func zapDecidesWhoIsAdmitted() throws {
        let context = try Context()
        let server = try CurveKeyPair.generate()
        let admitted = try CurveKeyPair.generate()
        // tcp: inproc has no handshake, so no mechanism and no ZAP.
        func serve() throws -> (Socket, String) {
            let router = try Socket(context, .router)
            try router.makeCurveServer(secretKey: server.secretKey)
            try router.setZAPDomain("test")
            try router.bind("tcp://127.0.0.1:*")
            return (router, router.lastEndpoint)
        }
        func say(_ keys: CurveKeyPair, to endpoint: String) throws -> Socket {
            let dealer = try Socket(context, .dealer)
            try dealer.makeCurveClient(keys, serverKey: server.publicKey)
            try dealer.connect(endpoint)
            try dealer.send("hello", wait: false)
            return dealer
        }
        // The pitfall: no handler yet, and a stranger's key gets in.
        let (open, openEndpoint) = try serve()
        let stranger = try say(try CurveKeyPair.generate(), to: openEndpoint)
        var poller = Poller()
        poller.add(open)
        #expect(try poller.poll(timeout: 5000) == 1, "libzmq lets CURVE peers in when no ZAP handler is bound")
        _ = stranger

        // A handler (bound before the server socket) that admits one key.
        let zap = try Socket(context, .router)
        try zap.bind("inproc://zeromq.zap.01")
        let (guarded, guardedEndpoint) = try serve()
        let refused = try say(try CurveKeyPair.generate(), to: guardedEndpoint)
        let welcome = try say(admitted, to: guardedEndpoint)
        var answered = 0
        var zapPoller = Poller()
        zapPoller.add(zap)
        while answered < 2, try zapPoller.poll(timeout: 5000) > 0 {
            let f = try #require(try zap.receiveFrames(wait: false))
            let key = CurveKeyPair.encode(f[8].bytes)
            let ok = key == admitted.publicKey
            try zap.send(frames: [f[0], Message(), Message(string: "1.0"), f[3], Message(string: ok ? "200" : "400"),
                Message(string: ok ? "OK" : "no"), Message(string: ok ? key ?? "" : ""), Message()])
            answered += 1
        }
        var guardedPoller = Poller()
        guardedPoller.add(guarded)
        #expect(try guardedPoller.poll(timeout: 5000) == 1)
        let frames = try #require(try guarded.receiveFrames(wait: false))
        #expect(frames.last?.string == "hello")
        #expect(frames.last?.property("User-Id") == admitted.publicKey)
        #expect(frames.last?.property("User-Id", is: admitted.publicKey) == true)
        #expect(frames.last?.property("User-Id", is: String(admitted.publicKey.dropLast())) == false, "compared whole, not as a prefix")
        #expect(frames.last?.property("User-Id", is: nil) == false)
        #expect(frames.last?.property("No-Such-Property", is: nil) == true)
        #expect(try guardedPoller.poll(timeout: 300) == 0, "the refused key's message never arrives")
        _ = (refused, welcome)
    }

    @Test("A message sent just before its socket is closed with a linger leaves while the context is terminated, though the socket object lives on; the closed socket then fails with ENOTSOCK")
    func closeWithLingerDeliversOnTerminate() throws {
        let path = "/tmp/zmq-linger-\(getpid()).sock"
        defer { unlink(path) }
        let sending = try Context()
        let dealer = try Socket(sending, .dealer)
        try dealer.connect("ipc://\(path)")
        // Nobody listens yet: the message waits in the socket's queue.
        try dealer.send("last words")
        dealer.close(linger: 5000)
        #expect(throws: ZMQError.self) { try dealer.send("after close") }

        // A listener comes up a moment later, in a context and on a thread of its own.
        let heard = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        let listening = Thread {
            defer { done.signal() }
            Thread.sleep(forTimeInterval: 0.2)
            guard let receiving = try? Context(), let router = try? Socket(receiving, .router) else { return }
            try? router.bind("ipc://\(path)")
            var poller = Poller()
            poller.add(router)
            guard (try? poller.poll(timeout: 3000)) == 1 else { return }
            let frames = try? router.receiveFrames(wait: false)
            heard.withLock { $0 = frames?.last?.string }
        }
        listening.start()
        // Returns once the message has left, long before the linger is over.
        sending.terminate()
        done.wait()
        #expect(heard.withLock { $0 } == "last words")
        #expect(throws: ZMQError.self) { try Socket(sending, .dealer) }
        _ = dealer
    }
}
