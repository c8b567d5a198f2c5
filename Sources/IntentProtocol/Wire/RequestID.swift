/// A request id: 8 bytes on the wire, big-endian, chosen by whoever sends the request.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    /// The numeric value.
    public var value: UInt64

    /// Wraps a value.
    public init(_ value: UInt64) { self.value = value }

    /// Parses exactly 8 bytes.
    public init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 8 else { return nil }
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        self.value = value
    }

    /// The 8 bytes, big-endian.
    public var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }

    public var description: String { String(value, radix: 16) }
}
