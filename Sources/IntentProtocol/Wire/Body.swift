import ZeroMQ

/// What follows a message's header and names: a JSON body or a text.
///
/// A received body is a view of the frame it came in, read without a copy; it is valid
/// until that frame is received into again. A body to send holds its own bytes.
public struct Body: Sendable {
    private enum Storage {
        case frame(Message, offset: Int)
        case bytes([UInt8])
    }

    private let storage: Storage

    /// A body holding `bytes`.
    public init(_ bytes: [UInt8]) { storage = .bytes(bytes) }

    /// A body holding the UTF-8 bytes of `text`.
    public init(text: String) { storage = .bytes(Array(text.utf8)) }

    /// The bytes of `frame` from `offset` on.
    init(frame: Message, offset: Int) { storage = .frame(frame, offset: offset) }

    /// Calls `body` with the bytes, valid only during the call.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        switch storage {
        case .bytes(let bytes):
            return try withBytes(bytes, body)
        case .frame(let frame, let offset):
            return try frame.withUnsafeBytes { (raw) throws(E) in try body(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
        }
    }

    /// The size in bytes.
    public var count: Int { withUnsafeBytes { $0.count } }

    /// A copy of the bytes.
    public var bytes: [UInt8] {
        switch storage {
        case .bytes(let bytes): bytes
        case .frame: withUnsafeBytes { Array($0) }
        }
    }

    /// The bytes as UTF-8 text, or `nil` if they are not valid UTF-8.
    public var string: String? { withUnsafeBytes { Wire.text($0) } }
}
