import CZeroMQ

/// Waits on several sockets and file descriptors at once with `zmq_poll`, which is
/// level-triggered: a socket stays readable until it has been drained.
public struct Poller {
    private var items: [zmq_pollitem_t] = []
    private var sockets: [Socket] = []

    /// Creates an empty poller.
    public init() {}

    /// Watches `socket` for input and returns its index.
    @discardableResult
    public mutating func add(_ socket: Socket) -> Int {
        sockets.append(socket)
        items.append(zmq_pollitem_t(socket: socket.rawHandle, fd: -1, events: Int16(ZMQ_POLLIN), revents: 0))
        return items.count - 1
    }

    /// Watches a plain file descriptor (such as a `Wakeup`) for input and returns its index.
    @discardableResult
    public mutating func add(fileDescriptor: Int32) -> Int {
        items.append(zmq_pollitem_t(socket: nil, fd: fileDescriptor, events: Int16(ZMQ_POLLIN), revents: 0))
        return items.count - 1
    }

    /// Blocks until something is readable or `timeout` milliseconds pass (-1: forever).
    /// Returns how many items are readable.
    @discardableResult
    public mutating func poll(timeout: Int) throws(ZMQError) -> Int {
        let count = items.count
        return try items.withUnsafeMutableBufferPointer { (buffer) throws(ZMQError) -> Int in
            try retrying("zmq_poll") { Int(zmq_poll(buffer.baseAddress, Int32(count), timeout)) } ?? 0
        }
    }

    /// Whether the item at `index` was readable after the last `poll`.
    public func isReadable(_ index: Int) -> Bool {
        items[index].revents & Int16(ZMQ_POLLIN) != 0
    }
}
