import CZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// One frame, owning a `zmq_msg_t` at a stable heap address.
///
/// libzmq keeps small payloads inside the `zmq_msg_t` itself, so the struct is never copied
/// or moved after `zmq_msg_init`: it lives in its own allocation for the life of this object.
/// Sending a message hands its content to libzmq without a copy and leaves it empty.
/// A message may be handed from one thread to another, but never used by two at once.
public final class Message: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<zmq_msg_t>

    /// Creates an empty message, ready to receive into.
    public init() {
        pointer = .allocate(capacity: 1)
        zmq_msg_init(pointer)
    }

    /// Creates a message with room for `count` bytes, to be filled through `withUnsafeMutableBytes`.
    public init(count: Int) {
        pointer = .allocate(capacity: 1)
        zmq_msg_init_size(pointer, count)
    }

    /// Creates a message holding a copy of `bytes`.
    public convenience init(_ bytes: UnsafeRawBufferPointer) {
        self.init(count: bytes.count)
        fill(from: bytes)
    }

    /// Creates a message holding a copy of `bytes`.
    public convenience init(bytes: some Sequence<UInt8>) {
        let array = Array(bytes)
        self.init(count: array.count)
        array.withUnsafeBytes { fill(from: $0) }
    }

    /// Creates a message holding the UTF-8 bytes of `string`.
    public convenience init(string: String) {
        var string = string
        self.init(count: string.utf8.count)
        string.withUTF8 { fill(from: UnsafeRawBufferPointer($0)) }
    }

    private func fill(from bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress, bytes.count > 0 {
            zmq_msg_data(pointer).copyMemory(from: base, byteCount: bytes.count)
        }
    }

    deinit {
        zmq_msg_close(pointer)
        pointer.deallocate()
    }

    /// The payload size in bytes.
    public var count: Int { zmq_msg_size(pointer) }

    /// Whether more frames of the same multipart message follow this one (after receiving).
    public var hasMore: Bool { zmq_msg_more(pointer) == 1 }

    /// Calls `body` with the payload, valid only during the call.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: zmq_msg_data(pointer), count: zmq_msg_size(pointer)))
    }

    /// Calls `body` with the writable payload, valid only during the call.
    public func withUnsafeMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeMutableRawBufferPointer(start: zmq_msg_data(pointer), count: zmq_msg_size(pointer)))
    }

    /// A property of the connection the message came from, such as `User-Id` (what the
    /// ZAP handler said the peer is) or `Peer-Address`; `nil` if it has none.
    public func property(_ name: String) -> String? {
        guard let value = zmq_msg_gets(pointer, name) else { return nil }
        return String(cString: value)
    }

    /// Whether the property `name` is `value` (both absent counts), compared where libzmq
    /// keeps it, without a copy: for a check made on every message.
    public func property(_ name: String, is value: String?) -> Bool {
        let found = zmq_msg_gets(pointer, name)
        guard let found, let value else { return found == nil && value == nil }
        return value.withCString { strcmp(found, $0) == 0 }
    }

    /// A copy of the payload.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The payload as UTF-8 text, or `nil` if it is not valid UTF-8.
    public var string: String? {
        withUnsafeBytes { raw in
            // ASCII, the usual case for names, needs no validation.
            if !raw.contains(where: { $0 >= 0x80 }) { return String(decoding: raw, as: UTF8.self) }
            return String(validating: raw.bindMemory(to: UInt8.self), as: UTF8.self)
        }
    }
}
