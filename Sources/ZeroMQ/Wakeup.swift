import CZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// An `eventfd` that wakes a thread blocked in `zmq_poll` from any other thread.
public final class Wakeup: Sendable {
    /// The descriptor to add to a `Poller`.
    public let fileDescriptor: Int32

    /// Creates a non-blocking eventfd.
    public init() throws(ZMQError) {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { throw ZMQError(code: errno, operation: "eventfd") }
        fileDescriptor = fd
    }

    deinit {
        close(fileDescriptor)
    }

    /// Wakes the polling thread. Never blocks: a wake-up already pending is enough.
    public func signal() {
        var one: UInt64 = 1
        _ = try? retryingSystemCall("write") { write(fileDescriptor, &one, 8) }
    }

    /// Clears pending wake-ups; call before taking the work they announce.
    public func drain() {
        var count: UInt64 = 0
        _ = try? retryingSystemCall("read") { read(fileDescriptor, &count, 8) }
    }
}
