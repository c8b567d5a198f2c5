import CZeroMQ

/// A libzmq context: the owner of I/O threads and of every socket made from it.
///
/// A context is safe to share between threads; the sockets made from it are not.
public final class Context: @unchecked Sendable {
    // libzmq documents the context as thread-safe; the pointer never changes.
    let handle: UnsafeMutableRawPointer

    /// Creates a context with libzmq's defaults (one I/O thread).
    public init(ioThreads: Int32 = 1) throws(ZMQError) {
        guard let handle = zmq_ctx_new() else {
            throw ZMQError(code: zmq_errno(), operation: "zmq_ctx_new")
        }
        self.handle = handle
        if ioThreads != 1 { zmq_ctx_set(handle, ZMQ_IO_THREADS, ioThreads) }
    }

    /// Makes every blocking call on this context's sockets return `ETERM`.
    public func shutdown() {
        zmq_ctx_shutdown(handle)
    }

    deinit {
        // Sockets hold a strong reference to their context, so all are closed by now.
        while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
    }

    /// The libzmq version, such as `4.3.4`.
    public static var version: String {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }

    /// Whether libzmq was built with a capability, such as `"curve"` or `"ipc"`.
    public static func has(_ capability: String) -> Bool {
        zmq_has(capability) == 1
    }
}
