import CZeroMQ

/// A libzmq socket. Not thread-safe: a socket stays on the thread that uses it.
///
/// Every send and receive takes `wait`: with `false` the call never blocks and reports
/// "would block" as `false` or `nil` instead of an error.
public final class Socket {
    /// nil once closed: libzmq answers every call on a null socket with `ENOTSOCK`, so a
    /// closed socket fails each use with an error instead of touching freed memory.
    private(set) var handle: UnsafeMutableRawPointer?
    /// Keeps the context alive for as long as the socket is open.
    public let context: Context
    /// The socket's type.
    public let type: SocketType

    /// Opens a socket with linger 0, so closing never blocks on unsent messages.
    public init(_ context: Context, _ type: SocketType) throws(ZMQError) {
        handle = try context.makeSocket(type.raw)
        self.context = context
        self.type = type
        try set(ZMQ_LINGER, 0 as Int32)
    }

    deinit {
        if let handle { zmq_close(handle) }
    }

    /// Closes the socket now, keeping unsent messages for up to `linger` milliseconds (they
    /// leave when the context is terminated). Later calls fail with `ENOTSOCK`.
    public func close(linger: Int32 = 0) {
        guard let handle else { return }
        try? set(ZMQ_LINGER, linger)
        zmq_close(handle)
        self.handle = nil
    }

    // MARK: Endpoints

    /// Binds to an endpoint such as `ipc:///run/intentd/client.sock` or `tcp://127.0.0.1:5555`.
    public func bind(_ endpoint: String) throws(ZMQError) {
        _ = try retrying("zmq_bind") { Int(zmq_bind(handle, endpoint)) }
    }

    /// Connects to an endpoint; libzmq reconnects by itself if the peer goes away.
    public func connect(_ endpoint: String) throws(ZMQError) {
        _ = try retrying("zmq_connect") { Int(zmq_connect(handle, endpoint)) }
    }

    /// Undoes a `connect`.
    public func disconnect(_ endpoint: String) throws(ZMQError) {
        _ = try retrying("zmq_disconnect") { Int(zmq_disconnect(handle, endpoint)) }
    }

    /// The endpoint the socket was last bound to, with any wildcard port resolved.
    public var lastEndpoint: String {
        var buffer = [CChar](repeating: 0, count: 1024)
        var size = buffer.count
        zmq_getsockopt(handle, ZMQ_LAST_ENDPOINT, &buffer, &size)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Sending

    /// Sends one frame, handing the message's content to libzmq without a copy.
    /// Returns `false` if `wait` is false and the socket cannot take it now.
    @discardableResult
    public func send(_ message: Message, more: Bool = false, wait: Bool = true) throws(ZMQError) -> Bool {
        let flags = (more ? ZMQ_SNDMORE : 0) | (wait ? 0 : ZMQ_DONTWAIT)
        return try retrying("zmq_msg_send") { Int(zmq_msg_send(message.pointer, handle, flags)) } != nil
    }

    /// Sends one frame of `count` bytes that `fill` writes in place, in a message libzmq
    /// owns from the start: no copy and no allocation beyond libzmq's own.
    @discardableResult
    public func send(
        count: Int, more: Bool = false, wait: Bool = true, _ fill: (UnsafeMutableRawBufferPointer) -> Void
    ) throws(ZMQError) -> Bool {
        var message = zmq_msg_t()
        let result = withUnsafeMutablePointer(to: &message) { pointer in
            Result { () throws(ZMQError) -> Bool in
                guard zmq_msg_init_size(pointer, count) == 0 else { throw ZMQError(code: zmq_errno(), operation: "zmq_msg_init_size") }
                fill(UnsafeMutableRawBufferPointer(start: zmq_msg_data(pointer), count: count))
                let flags = (more ? ZMQ_SNDMORE : 0) | (wait ? 0 : ZMQ_DONTWAIT)
                // On failure the message is still ours to close.
                let sent = Result { () throws(ZMQError) in try retrying("zmq_msg_send") { Int(zmq_msg_send(pointer, handle, flags)) } }
                if case .success(.some) = sent { return true }
                zmq_msg_close(pointer)
                return try sent.get() != nil
            }
        }
        return try result.get()
    }

    /// Sends one frame copied from `bytes`: the cheapest way to send a small header.
    @discardableResult
    public func send(bytes: UnsafeRawBufferPointer, more: Bool = false, wait: Bool = true) throws(ZMQError) -> Bool {
        let flags = (more ? ZMQ_SNDMORE : 0) | (wait ? 0 : ZMQ_DONTWAIT)
        return try retrying("zmq_send") { Int(zmq_send(handle, bytes.baseAddress, bytes.count, flags)) } != nil
    }

    /// Sends a routing id as one frame: for a ROUTER, the first frame of a message to that peer.
    @discardableResult
    public func send(_ routingID: RoutingID, more: Bool = true, wait: Bool = true) throws(ZMQError) -> Bool {
        try routingID.withUnsafeBytes { (raw) throws(ZMQError) in try send(bytes: raw, more: more, wait: wait) }
    }

    /// Sends one frame copied from `bytes`.
    @discardableResult
    public func send(_ bytes: [UInt8], more: Bool = false, wait: Bool = true) throws(ZMQError) -> Bool {
        try withBytes(bytes) { (raw) throws(ZMQError) in try send(bytes: raw, more: more, wait: wait) }
    }

    /// Sends one frame holding the UTF-8 bytes of `string`, without an intermediate array.
    @discardableResult
    public func send(_ string: String, more: Bool = false, wait: Bool = true) throws(ZMQError) -> Bool {
        var string = string
        let result: Result<Bool, ZMQError> = string.withUTF8 { utf8 in
            Result { () throws(ZMQError) in try send(bytes: UnsafeRawBufferPointer(utf8), more: more, wait: wait) }
        }
        return try result.get()
    }

    /// Sends every frame as one multipart message. Once the first frame is accepted the
    /// rest are sent blocking, as libzmq delivers a multipart message whole or not at all.
    @discardableResult
    public func send(frames: [Message], wait: Bool = true) throws(ZMQError) -> Bool {
        for (index, frame) in frames.enumerated() {
            let more = index < frames.count - 1
            if !(try send(frame, more: more, wait: wait || index > 0)) { return false }
        }
        return true
    }

    // MARK: Receiving

    /// Receives one frame, or `nil` if `wait` is false and none is queued.
    public func receive(wait: Bool = true) throws(ZMQError) -> Message? {
        let message = Message()
        let flags = wait ? 0 : ZMQ_DONTWAIT
        guard try retrying("zmq_msg_recv", { Int(zmq_msg_recv(message.pointer, handle, flags)) }) != nil else {
            return nil
        }
        return message
    }

    /// Receives every frame of one multipart message, or `nil` if `wait` is false and none
    /// is queued. The frames after the first are already queued and never block.
    public func receiveFrames(wait: Bool = true) throws(ZMQError) -> [Message]? {
        guard let first = try receive(wait: wait) else { return nil }
        var frames = [first]
        var last = first
        while last.hasMore {
            guard let next = try receive(wait: true) else { break }
            frames.append(next)
            last = next
        }
        return frames
    }

    /// Receives every frame of one multipart message into `frames`, reusing the messages
    /// already there (libzmq releases their old content) and adding more as needed.
    /// Returns the frame count, or `nil` if `wait` is false and none is queued.
    /// Frames past the count keep stale content: use only `frames[..<count]`.
    public func receiveFrames(into frames: inout [Message], wait: Bool = true) throws(ZMQError) -> Int? {
        var count = 0
        var flags = wait ? 0 : ZMQ_DONTWAIT
        repeat {
            if count == frames.count { frames.append(Message()) }
            let frame = frames[count]
            guard try retrying("zmq_msg_recv", { Int(zmq_msg_recv(frame.pointer, handle, flags)) }) != nil else {
                return count == 0 ? nil : count
            }
            count += 1
            flags = 0
        } while frames[count - 1].hasMore
        return count
    }

    // MARK: Options

    /// Sets an integer option such as `ZMQ_SNDHWM`.
    public func set(_ option: Int32, _ value: Int32) throws(ZMQError) {
        var value = value
        _ = try retrying("zmq_setsockopt") { Int(zmq_setsockopt(handle, option, &value, MemoryLayout<Int32>.size)) }
    }

    /// Sets a 64-bit integer option such as `ZMQ_MAXMSGSIZE`.
    public func set(_ option: Int32, _ value: Int64) throws(ZMQError) {
        var value = value
        _ = try retrying("zmq_setsockopt") { Int(zmq_setsockopt(handle, option, &value, MemoryLayout<Int64>.size)) }
    }

    /// Sets a binary or text option such as `ZMQ_ROUTING_ID` or `ZMQ_CURVE_SERVERKEY`.
    public func set(_ option: Int32, bytes: [UInt8]) throws(ZMQError) {
        _ = try withBytes(bytes) { (raw) throws(ZMQError) in
            try retrying("zmq_setsockopt") { Int(zmq_setsockopt(handle, option, raw.baseAddress, raw.count)) }
        }
    }

    /// Reads an integer option.
    public func get(_ option: Int32) throws(ZMQError) -> Int32 {
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        _ = try retrying("zmq_getsockopt") { Int(zmq_getsockopt(handle, option, &value, &size)) }
        return value
    }

    /// High-water marks for both directions; 0 means no limit.
    public func setHighWaterMark(_ messages: Int32) throws(ZMQError) {
        try set(ZMQ_SNDHWM, messages)
        try set(ZMQ_RCVHWM, messages)
    }

    /// The largest inbound message libzmq accepts; a peer that sends more is disconnected.
    public func setMaximumMessageSize(_ bytes: Int64) throws(ZMQError) {
        try set(ZMQ_MAXMSGSIZE, bytes)
    }

    /// ZMTP heartbeats: a PING every `interval`, and the connection is dropped when nothing
    /// arrives for `timeout` (libzmq then reconnects, for connecting sockets).
    public func setHeartbeat(interval: Duration, timeout: Duration) throws(ZMQError) {
        try set(ZMQ_HEARTBEAT_IVL, Int32(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000))
        try set(ZMQ_HEARTBEAT_TIMEOUT, Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
    }

    /// For ROUTER sockets: report unroutable messages as `EHOSTUNREACH` instead of dropping them.
    public func setRouterMandatory(_ on: Bool) throws(ZMQError) {
        try set(ZMQ_ROUTER_MANDATORY, Int32(on ? 1 : 0))
    }

    /// For SUB sockets: receive messages whose first frame starts with `prefix` (empty: all).
    public func subscribe(_ prefix: [UInt8] = []) throws(ZMQError) {
        try set(ZMQ_SUBSCRIBE, bytes: prefix)
    }

    /// Makes this socket a CURVE server holding `secretKey` (40 Z85 characters).
    public func makeCurveServer(secretKey: String) throws(ZMQError) {
        try set(ZMQ_CURVE_SERVER, 1 as Int32)
        try set(ZMQ_CURVE_SECRETKEY, bytes: Array(secretKey.utf8))
    }

    /// Makes this socket a CURVE client of the server whose public key is `serverKey`.
    public func makeCurveClient(_ keys: CurveKeyPair, serverKey: String) throws(ZMQError) {
        try set(ZMQ_CURVE_SERVERKEY, bytes: Array(serverKey.utf8))
        try set(ZMQ_CURVE_PUBLICKEY, bytes: Array(keys.publicKey.utf8))
        try set(ZMQ_CURVE_SECRETKEY, bytes: Array(keys.secretKey.utf8))
    }

    /// Makes this socket a PLAIN server: every peer sends a user name and password, which
    /// only a ZAP handler can check (without one, libzmq lets every peer in).
    public func makePlainServer() throws(ZMQError) {
        try set(ZMQ_PLAIN_SERVER, 1 as Int32)
    }

    /// Makes this socket a PLAIN client with `username` and `password` (each at most 255
    /// bytes). PLAIN sends both in the clear: use it only where the kernel keeps the bytes
    /// private, such as an ipc endpoint.
    public func makePlainClient(username: String, password: String) throws(ZMQError) {
        try set(ZMQ_PLAIN_USERNAME, bytes: Array(username.utf8))
        try set(ZMQ_PLAIN_PASSWORD, bytes: Array(password.utf8))
    }

    /// Sets the ZAP domain: a server socket with a domain asks the ZAP handler about every
    /// connection, even with the NULL mechanism.
    public func setZAPDomain(_ domain: String) throws(ZMQError) {
        try set(ZMQ_ZAP_DOMAIN, bytes: Array(domain.utf8))
    }

    /// The raw handle, for `Poller`.
    var rawHandle: UnsafeMutableRawPointer? { handle }
}
