#if canImport(Glibc)
import Glibc
#endif

/// Finds a byte string in a body without parsing it, for the members the host looks for in
/// every request (`deadline`, `idempotencyKey`, `traceparent`): memchr finds each candidate
/// first byte, and only there are the bytes compared.
enum ByteSearch {
    /// The offset of the first occurrence of `needle` in `haystack`, if any.
    static func firstOffset(of needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, let base = haystack.baseAddress else { return nil }
        return needle.withUnsafeBytes { needleBytes -> Int? in
            guard let needleBase = needleBytes.baseAddress else { return nil }
            let head = Int32(needle[0])
            let last = haystack.count - needle.count
            var i = 0
            while i <= last {
                guard let hit = memchr(base + i, head, last - i + 1) else { return nil }
                i = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + i, needleBase, needle.count) == 0 { return i }
                i += 1
            }
            return nil
        }
    }
}
