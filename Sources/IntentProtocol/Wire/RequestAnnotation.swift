import Foundation

/// What the host adds to a REQUEST body it sends: the deadline, and for handle the
/// idempotency key (`Protocols/wire.md`, section 5a). Both go in as the last members of
/// the JSON object, so they win over members of the same name a client put in a STAGE
/// body (the last of repeated names wins), and the body is otherwise passed on unread.
public enum RequestAnnotation {
    /// The longest idempotency key, in bytes.
    public static let maxKeyBytes = 128

    /// Why `key` cannot be an idempotency key, or `nil` if it can: 1 to 128 ASCII letters,
    /// digits, `-`, `_`, `.` and `:`, so that it is safe as a file name, log text or map key.
    public static func problem(withKey key: String) -> String? {
        guard (1...maxKeyBytes).contains(key.utf8.count) else {
            return "an idempotency key is 1 to \(maxKeyBytes) characters, not \(key.utf8.count)"
        }
        let allowed = key.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)
                || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || b == UInt8(ascii: ":")
        }
        return allowed ? nil : "an idempotency key may hold only letters, digits, '-', '_', '.' and ':'"
    }

    /// A new idempotency key, for a handle whose client gave none.
    public static func makeKey() -> String { PooledRandom.uuidString() }

    /// Words said as a request that is said again with its key compares them: but for case
    /// and spaces (`intentctl chat` keeps a key for the same words; the host holds them to it).
    public static func saidAlike(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Makes keys cheaply: a random prefix per generator (so per host run), then a counter.
    public struct KeyMaker: Sendable {
        private let prefix = String(UInt64.random(in: .min ... .max), radix: 36) + "-"
        private var next: UInt64 = 0

        /// A generator with a fresh random prefix.
        public init() {}

        /// The next key.
        public mutating func make() -> String {
            next &+= 1
            return prefix + String(next, radix: 36)
        }
    }

    /// Milliseconds since 1970 (UTC) at `instant` of the continuous clock.
    public static func wallClockMilliseconds(at instant: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Int64 {
        let left = now.duration(to: instant)
        let (seconds, attoseconds) = left.components
        let leftMilliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int64((Date().timeIntervalSince1970 * 1000).rounded()) + leftMilliseconds
    }

    /// The top-level `idempotencyKey` of a JSON object body: `.success(nil)` when it names
    /// none (or is not an object the host can read), `.failure` with the problem when it
    /// names one that is not a valid key.
    public static func key(in body: UnsafeRawBufferPointer) -> Result<String?, ProtocolError> {
        // Most bodies name none: one scan for the member's name saves a parse.
        guard contains(body, Self.keyName) else { return .success(nil) }
        var found: JSONValue?
        do {
            try JSONParser.visitMembers(body) { (name, range) throws(ProtocolError) in
                if name == "idempotencyKey" { found = try JSONParser.parse(UnsafeRawBufferPointer(rebasing: body[range])) }
            }
        } catch {
            return .success(nil)
        }
        switch found {
        case nil, .null?: return .success(nil)
        case .string(let key)?:
            if let problem = problem(withKey: key) { return .failure(.malformedBody(problem)) }
            return .success(key)
        default: return .failure(.malformedBody("idempotencyKey must be a string"))
        }
    }

    /// Whether a JSON object body names a top-level `deadline` itself: the host's member,
    /// which a client may not send (repeated member names are malformed).
    public static func namesDeadline(_ body: UnsafeRawBufferPointer) -> Bool {
        guard contains(body, deadlineKey) else { return false }
        var found = false
        try? JSONParser.visitMembers(body) { (name, _) throws(ProtocolError) in
            if name == "deadline" { found = true }
        }
        return found
    }

    /// `body` with `"deadline":N` (and `"idempotencyKey":"K"` when `key` is given) added as
    /// its last members, or `nil` if it is not a JSON object (no `{` first, `}` last).
    public static func annotate(_ body: UnsafeRawBufferPointer, deadline: Int64, key: String?) -> [UInt8]? {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0a || b == 0x0d || b == 0x09 }
        guard let first = body.firstIndex(where: { !isSpace($0) }), body[first] == UInt8(ascii: "{"),
            let last = body.lastIndex(where: { !isSpace($0) }), last > first, body[last] == UInt8(ascii: "}")
        else { return nil }
        let inside = body[(first + 1)..<last].contains { !isSpace($0) }
        var out = [UInt8]()
        out.reserveCapacity(body.count + 64 + (key?.utf8.count ?? 0))
        out.append(contentsOf: body[..<last])
        if inside { out.append(UInt8(ascii: ",")) }
        out.append(contentsOf: deadlineName)
        appendDecimal(deadline, to: &out)
        if let key {
            out.append(contentsOf: keyMember)
            out.append(contentsOf: key.utf8)
            out.append(UInt8(ascii: "\""))
        }
        out.append(contentsOf: body[last...])
        return out
    }

    private static let keyName = Array("\"idempotencyKey\"".utf8)
    private static let deadlineName = Array("\"deadline\":".utf8)
    private static let deadlineKey = Array("\"deadline\"".utf8)
    private static let keyMember = Array(",\"idempotencyKey\":\"".utf8)

    private static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: [UInt8] = []
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out.append(contentsOf: digits.reversed())
    }

    private static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        ByteSearch.firstOffset(of: needle, in: haystack) != nil
    }
}
