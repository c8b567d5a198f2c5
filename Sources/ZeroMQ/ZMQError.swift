import CZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// An error reported by libzmq or by a system call made on its behalf.
public struct ZMQError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errno` value.
    public let code: Int32
    /// The call that failed, such as `zmq_bind`.
    public let operation: String

    /// Creates an error for a failed call.
    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// The context was terminated; every blocking call returns this once.
    public var isTerminated: Bool { code == ETERM }

    public var description: String {
        "\(operation) failed: \(String(cString: zmq_strerror(code))) (errno \(code))"
    }
}

/// The one error policy for every libzmq and system call in this module:
/// retry `EINTR`, report `EAGAIN` as `nil` (a normal outcome of non-blocking calls,
/// even right after a poll said ready), and throw everything else.
@inline(__always)
func retrying(_ operation: StaticString, errno read: () -> Int32 = zmq_errno, _ call: () -> Int) throws(ZMQError) -> Int? {
    while true {
        let result = call()
        if result >= 0 { return result }
        let code = read()
        if code == EINTR { continue }
        if code == EAGAIN { return nil }
        throw ZMQError(code: code, operation: "\(operation)")
    }
}

/// The same policy for calls that report failure through the C `errno`, not `zmq_errno()`.
@inline(__always)
func retryingSystemCall(_ operation: StaticString, _ call: () -> Int) throws(ZMQError) -> Int? {
    try retrying(operation, errno: { errno }, call)
}
