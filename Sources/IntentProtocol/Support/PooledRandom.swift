#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Random numbers from the kernel's cryptographic generator, drawn 4 KiB at a time: three
/// system calls per 512 numbers instead of one per number. For the ids every lifecycle makes
/// (session ids, idempotency keys, trace ids), which must stay unguessable: a key another
/// client could guess would let it read that client's recorded handle.
public struct PooledRandom: RandomNumberGenerator, Sendable {
    private struct Pool {
        var numbers = [UInt64](repeating: 0, count: 512)
        var used = 512

        mutating func next() -> UInt64 {
            if used == numbers.count { refill() }
            used += 1
            return numbers[used - 1]
        }

        private mutating func refill() {
            if !numbers.withUnsafeMutableBytes(Self.fill) {
                // /dev/urandom could not be read (no device node, no file descriptor left):
                // the standard library's generator, one system call per number.
                var system = SystemRandomNumberGenerator()
                for i in numbers.indices { numbers[i] = system.next() }
            }
            used = 0
        }

        /// Fills `buffer` from `/dev/urandom` (the same generator as getrandom), three
        /// system calls per refill.
        private static func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
            #if canImport(Glibc)
            let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
            guard fd >= 0, let base = buffer.baseAddress else { return false }
            defer { close(fd) }
            var offset = 0
            while offset < buffer.count {
                let n = read(fd, base + offset, buffer.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
            #else
            return false
            #endif
        }
    }

    private static let pool = Mutex(Pool())

    /// A generator drawing from the process's pool.
    public init() {}

    /// The next random number.
    public mutating func next() -> UInt64 { Self.pool.withLock { $0.next() } }

    /// A new random (version 4) UUID in its usual upper-case text form.
    public static func uuidString() -> String {
        var random = PooledRandom()
        let high = (random.next() & ~0xF000) | 0x4000  // version 4
        let low = (random.next() & ~(0xC000 << 48)) | (0x8000 << 48)  // variant 10
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var at = 0
            func group(_ value: UInt64, _ digits: Int) {
                if at > 0 {
                    buffer[at] = UInt8(ascii: "-")
                    at += 1
                }
                writeHex(value, digits, upper: true, into: UnsafeMutableBufferPointer(rebasing: buffer[at...]))
                at += digits
            }
            group(high >> 32, 8)
            group(high >> 16 & 0xFFFF, 4)
            group(high & 0xFFFF, 4)
            group(low >> 48, 4)
            group(low & 0xFFFF_FFFF_FFFF, 12)
            return at
        }
    }

    /// `value`'s lowest `digits` hex digits, zero-padded.
    static func hex(_ value: UInt64, _ digits: Int, upper: Bool = true) -> String {
        String(unsafeUninitializedCapacity: digits) { buffer in
            writeHex(value, digits, upper: upper, into: buffer)
            return digits
        }
    }

    private static func writeHex(_ value: UInt64, _ digits: Int, upper: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        let alphabet: StaticString = upper ? "0123456789ABCDEF" : "0123456789abcdef"
        alphabet.withUTF8Buffer { letters in
            for i in 0..<digits {
                buffer[i] = letters[Int(value >> UInt64(4 * (digits - 1 - i)) & 0xF)]
            }
        }
    }
}
