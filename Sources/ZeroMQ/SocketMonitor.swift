import CZeroMQ

/// A socket's connection events (libzmq's `zmq_socket_monitor`), read from a PAIR socket
/// that a `Poller` can wait on beside the socket itself.
public final class SocketMonitor {
    /// One event: its kind (`ZMQ_EVENT_*`) and value (a file descriptor or an error number).
    public struct Event: Sendable, Equatable {
        /// The kind, such as `ZMQ_EVENT_DISCONNECTED`.
        public let kind: Int32
        /// The event's value.
        public let value: UInt32
    }

    /// The connection was closed by the peer or lost.
    public static let disconnected = ZMQ_EVENT_DISCONNECTED
    /// A connection was made.
    public static let connected = ZMQ_EVENT_CONNECTED
    /// The connection's handshake completed: messages go through it from now on.
    public static let handshakeSucceeded = ZMQ_EVENT_HANDSHAKE_SUCCEEDED
    /// The peer refused this side's credentials (the value is the ZAP status code).
    public static let authenticationFailed = ZMQ_EVENT_HANDSHAKE_FAILED_AUTH

    /// The socket to poll for events.
    public let socket: Socket
    private let watched: Socket

    /// Starts reporting `events` (a mask of `ZMQ_EVENT_*`) of `watched`, which must stay on
    /// this thread, as must the monitor.
    public init(_ watched: Socket, events: Int32) throws(ZMQError) {
        let endpoint = "inproc://intentd-monitor-\(UInt(bitPattern: watched.handle))"
        _ = try retrying("zmq_socket_monitor") { Int(zmq_socket_monitor(watched.handle, endpoint, events)) }
        self.watched = watched
        socket = try Socket(watched.context, .pair)
        try socket.connect(endpoint)
    }

    deinit {
        zmq_socket_monitor(watched.handle, nil, 0)
    }

    /// Stops reporting and closes the monitor's socket, before the watched socket closes (so
    /// that its context can end).
    public func close() {
        zmq_socket_monitor(watched.handle, nil, 0)
        socket.close()
    }

    /// Every event waiting, oldest first; never blocks.
    public func drain() throws(ZMQError) -> [Event] {
        var events: [Event] = []
        while let event = try next() { events.append(event) }
        return events
    }

    /// The next event, if one is waiting; never blocks.
    private func next() throws(ZMQError) -> Event? {
        guard let frames = try socket.receiveFrames(wait: false), let first = frames.first, first.count >= 6 else { return nil }
        return first.withUnsafeBytes { raw in
            Event(kind: Int32(raw.loadUnaligned(as: UInt16.self)), value: raw.loadUnaligned(fromByteOffset: 2, as: UInt32.self))
        }
    }
}
