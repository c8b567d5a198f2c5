import CZeroMQ
import Synchronization

/// A libzmq context: the owner of I/O threads and of every socket made from it.
///
/// A context is safe to share between threads; the sockets made from it are not.
public final class Context: @unchecked Sendable {
    // libzmq documents the context as thread-safe; the pointer never changes, and is used
    // only while `terminated` says it is still valid.
    let handle: UnsafeMutableRawPointer
    private let terminated = Mutex(false)

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

    /// Ends the context once every one of its sockets is closed: waits while the sockets
    /// closed with a linger still have messages to send (up to that linger), then frees it.
    /// Blocks for good if a socket is still open. Sockets made after it fail with `ETERM`.
    public func terminate() {
        terminated.withLock { done in
            guard !done else { return }
            while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
            done = true
        }
    }

    /// Makes a socket of `type`, unless the context has been terminated.
    func makeSocket(_ type: Int32) throws(ZMQError) -> UnsafeMutableRawPointer {
        let made = terminated.withLock { done -> Result<UnsafeMutableRawPointer, ZMQError> in
            if done { return .failure(ZMQError(code: ETERM, operation: "zmq_socket")) }
            guard let socket = zmq_socket(handle, type) else { return .failure(ZMQError(code: zmq_errno(), operation: "zmq_socket")) }
            return .success(socket)
        }
        return try made.get()
    }

    deinit {
        // Sockets hold a strong reference to their context, so all are closed by now.
        terminate()
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
