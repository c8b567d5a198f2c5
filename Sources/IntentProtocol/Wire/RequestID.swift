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
        var bytes = [UInt8](repeating: 0, count: 8)
        bytes.withUnsafeMutableBytes { write(into: $0, at: 0) }
        return bytes
    }

    /// Writes the 8 bytes, big-endian, at `offset` of `buffer`, without allocating.
    public func write(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        for i in 0..<8 { buffer[offset + i] = UInt8(truncatingIfNeeded: value >> (56 - 8 * i)) }
    }

    public var description: String { String(value, radix: 16) }
}
