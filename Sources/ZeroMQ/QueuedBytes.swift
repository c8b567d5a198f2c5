import CZeroMQ
import Glibc
import Synchronization

/// Bytes of messages handed to libzmq and not yet released by it: a message is released
/// once libzmq has written it to the connection, or dropped it with the connection. libzmq's
/// high-water marks count messages; this counts bytes, for one peer.
public final class QueuedBytes: Sendable {
    private let value = Atomic<Int>(0)

    /// Creates a gauge at zero.
    public init() {}

    /// The bytes still held by libzmq.
    public var count: Int { value.load(ordering: .relaxed) }

    fileprivate func add(_ n: Int) { value.add(n, ordering: .relaxed) }
    fileprivate func subtract(_ n: Int) { value.subtract(n, ordering: .relaxed) }

    /// Room before the data for its size, so the release callback knows what to subtract.
    fileprivate static let header = 16
}

/// libzmq's free function for a counted message: called once, on whichever thread releases it.
private let releaseCounted: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { data, hint in
    guard let data, let hint else { return }
    let start = data - QueuedBytes.header
    let gauge = Unmanaged<QueuedBytes>.fromOpaque(hint).takeRetainedValue()
    gauge.subtract(start.load(as: Int.self))
    free(start)
}

extension Socket {
    /// Sends one frame of `count` bytes that `fill` writes in place, counted in `gauge`
    /// until libzmq releases it. Returns `false` if `wait` is false and the socket cannot
    /// take it now (the count is then given back at once).
    @discardableResult
    public func send(
        count: Int, more: Bool = false, wait: Bool = true, counting gauge: QueuedBytes,
        _ fill: (UnsafeMutableRawBufferPointer) -> Void
    ) throws(ZMQError) -> Bool {
        guard let start = malloc(count + QueuedBytes.header) else { throw ZMQError(code: ENOMEM, operation: "malloc") }
        start.storeBytes(of: count, as: Int.self)
        let data = start + QueuedBytes.header
        fill(UnsafeMutableRawBufferPointer(start: data, count: count))
        gauge.add(count)
        let hint = Unmanaged.passRetained(gauge).toOpaque()
        var message = zmq_msg_t()
        return try withUnsafeMutablePointer(to: &message) { (pointer) throws(ZMQError) -> Bool in
            guard zmq_msg_init_data(pointer, data, count, releaseCounted, hint) == 0 else {
                releaseCounted(data, hint)
                throw ZMQError(code: zmq_errno(), operation: "zmq_msg_init_data")
            }
            // On failure the message is still ours to close, which releases it.
            let flags = (more ? ZMQ_SNDMORE : 0) | (wait ? 0 : ZMQ_DONTWAIT)
            let sent = Result { () throws(ZMQError) in
                try retrying("zmq_msg_send") { Int(zmq_msg_send(pointer, handle, flags)) } != nil
            }
            if case .success(true) = sent { return true }
            zmq_msg_close(pointer)
            return try sent.get()
        }
    }
}
