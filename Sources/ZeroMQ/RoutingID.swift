/// The id a ROUTER socket gives each peer connection, received as the first frame of
/// every message from that peer and sent first to reach it again.
///
/// libzmq's own ids are 5 bytes; ids of up to 16 bytes are kept inline, so passing one
/// around, hashing it or comparing it allocates nothing. Longer ones (a peer may choose
/// its own, up to 255 bytes) are kept in an array.
public struct RoutingID: Hashable, Sendable, CustomStringConvertible {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    private var count: UInt8 = 0
    private var long: [UInt8]?

    /// The id held in `bytes`.
    public init(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= 16 else {
            long = Array(bytes)
            return
        }
        count = UInt8(bytes.count)
        withUnsafeMutableBytes(of: &low) { raw in
            for i in 0..<min(8, bytes.count) { raw[i] = bytes[i] }
        }
        withUnsafeMutableBytes(of: &high) { raw in
            for i in 8..<max(8, bytes.count) { raw[i - 8] = bytes[i] }
        }
    }

    /// The id held in `bytes`.
    public init(_ bytes: [UInt8]) { self = bytes.withUnsafeBytes { RoutingID($0) } }

    /// The id in a received frame.
    public init(_ frame: Message) { self = frame.withUnsafeBytes { RoutingID($0) } }

    /// Calls `body` with the id's bytes, valid only during the call.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        if let long { return try withBytes(long, body) }
        var words = (low, high)
        let result: Result<R, E> = Swift.withUnsafeBytes(of: &words) { raw in
            Result { () throws(E) in try body(UnsafeRawBufferPointer(rebasing: raw[..<Int(count)])) }
        }
        return try result.get()
    }

    /// The id's bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    public var description: String { bytes.map { String($0, radix: 16) }.joined() }
}

extension RoutingID: ExpressibleByArrayLiteral {
    /// An id written as its bytes, as tests do: `[0, 0, 0, 0, 1]`.
    public init(arrayLiteral bytes: UInt8...) { self.init(bytes) }
}
