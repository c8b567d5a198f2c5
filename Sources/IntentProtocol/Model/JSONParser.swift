/// A strict RFC 8259 parser straight into `JSONValue`: one pass over the bytes, no
/// intermediate objects, a depth limit so hostile input cannot exhaust the stack, and no
/// object with a member name twice (at any depth), so that no two readers of one body can
/// disagree about which of two values counts.
struct JSONParser {
    /// The deepest nesting accepted.
    static let maximumDepth = 128

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0

    /// Parses one JSON document; trailing non-space bytes are an error.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(ProtocolError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// Checks one JSON object without building it, and calls `visit` with each top-level
    /// member's name and the byte range of its value (duplicates: each one, in order).
    static func visitMembers(
        _ bytes: UnsafeRawBufferPointer, _ visit: (String, Range<Int>) throws(ProtocolError) -> Void
    ) throws(ProtocolError) {
        var parser = JSONParser(bytes: bytes)
        parser.skipSpace()
        guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") else {
            throw parser.error("expected a JSON object")
        }
        try parser.walkObject(names: true) { (parser, key) throws(ProtocolError) in
            let start = parser.index
            try parser.skip()
            try visit(key, start..<parser.index)
        }
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
    }

    private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Moves past one value, checking it as `value()` would, without building it.
    private mutating func skip() throws(ProtocolError) {
        guard index < bytes.count else { throw error("unexpected end of JSON") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try walkObject(names: false) { (parser, _) throws(ProtocolError) in try parser.skip() }
        case UInt8(ascii: "["): try walkArray { (parser) throws(ProtocolError) in try parser.skip() }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
        default: throw error("unexpected character")
        }
    }

    /// Walks the object that starts at `index`, calling `member` positioned at each value,
    /// which it must consume. Member names are built only when `names` is true.
    /// With `checkNames` it refuses a name the object already has; `object()` leaves that
    /// to its dictionary.
    private mutating func walkObject(
        names build: Bool, checkNames: Bool = true, _ member: (inout JSONParser, String) throws(ProtocolError) -> Void
    ) throws(ProtocolError) {
        try enter()
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        var plain = PlainNames()
        var seen: Set<String>?
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            var key = ""
            if checkNames {
                key = try memberName(build: build, plain: &plain, seen: &seen)
            } else if build {
                key = try string()
            } else {
                try skipString()
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipSpace()
            try member(&self, key)
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of JSON") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            index += 1
            depth -= 1
            return
        }
    }

    /// Reads the member name at `index` (built only when `build` is true or the check needs
    /// it) and refuses it if its object already has it: among the names in `plain` while
    /// they are few and plain, else in `seen`.
    private mutating func memberName(build: Bool, plain: inout PlainNames, seen: inout Set<String>?) throws(ProtocolError) -> String {
        let start = index + 1
        let end = plainRun(from: start)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\""), seen == nil, plain.count < PlainNames.capacity, end <= UInt32.max {
            let length = end - start
            for i in 0..<plain.count {
                let (earlier, earlierLength) = plain.name(i)
                if earlierLength == length && same(earlier, start, length) { throw error("a member name repeated in one object") }
            }
            plain.append(start, length)
            index = end + 1
            return build ? String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) : ""
        }
        // Many members, or a name with escapes or non-ASCII bytes: compare the decoded names.
        if seen == nil {
            var names = Set<String>()
            for i in 0..<plain.count {
                let (earlier, length) = plain.name(i)
                names.insert(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[earlier..<earlier + length]), as: UTF8.self))
            }
            seen = names
        }
        let key = try string()
        guard seen?.insert(key).inserted == true else { throw error("a member name repeated in one object") }
        return key
    }

    /// Whether the `length` bytes at `a` and at `b` are the same.
    private func same(_ a: Int, _ b: Int, _ length: Int) -> Bool {
        var i = 0
        while i < length {
            if bytes[a + i] != bytes[b + i] { return false }
            i += 1
        }
        return true
    }

    /// Walks the array that starts at `index`, calling `element` positioned at each value,
    /// which it must consume.
    private mutating func walkArray(_ element: (inout JSONParser) throws(ProtocolError) -> Void) throws(ProtocolError) {
        try enter()
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipSpace()
            try element(&self)
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of JSON") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            index += 1
            depth -= 1
            return
        }
    }

    /// Moves past one string; only strings with escapes or non-ASCII bytes are built, to check them.
    private mutating func skipString() throws(ProtocolError) {
        let end = plainRun(from: index + 1)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            index = end + 1
            return
        }
        _ = try string()
    }

    /// The index of the first byte from `start` on that ends a plain run inside a string:
    /// a quote, a backslash, a control character or a non-ASCII byte (or the end). Eight
    /// bytes at a time while none of them is one.
    private func plainRun(from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let count = bytes.count
        var i = start
        while i + 8 <= count {
            let x = (base + i).loadUnaligned(as: UInt64.self)
            // Per byte, the top bit of each term is set where the byte is non-ASCII, a
            // control character, a quote or a backslash (a zero byte after the xor).
            let quote = x ^ 0x2222_2222_2222_2222, backslash = x ^ 0x5C5C_5C5C_5C5C_5C5C
            let special = x | ((x &- 0x2020_2020_2020_2020) & ~x)
                | ((quote &- 0x0101_0101_0101_0101) & ~quote) | ((backslash &- 0x0101_0101_0101_0101) & ~backslash)
            if special & 0x8080_8080_8080_8080 != 0 { break }
            i += 8
        }
        while i < count {
            let byte = base.load(fromByteOffset: i, as: UInt8.self)
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return i }
            i += 1
        }
        return i
    }

    private func error(_ what: String) -> ProtocolError {
        .malformedBody("\(what) at byte \(index)")
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws(ProtocolError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of JSON") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(ProtocolError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of JSON") }
        for i in 0..<count where bytes[index + i] != word.utf8Start[i] { throw error("invalid literal") }
        index += count
    }

    private mutating func enter() throws(ProtocolError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func object() throws(ProtocolError) -> JSONValue {
        var members = [String: JSONValue](minimumCapacity: 8)
        try walkObject(names: true, checkNames: false) { (parser, key) throws(ProtocolError) in
            let at = parser.index
            if members.updateValue(try parser.value(), forKey: key) != nil {
                parser.index = at
                throw parser.error("a member name repeated in one object")
            }
        }
        return .object(members)
    }

    private mutating func array() throws(ProtocolError) -> JSONValue {
        var elements: [JSONValue] = []
        try walkArray { (parser) throws(ProtocolError) in elements.append(try parser.value()) }
        return .array(elements)
    }

    private mutating func string() throws(ProtocolError) -> String {
        index += 1
        let start = index
        index = plainRun(from: index)
        var ascii = true
        // Fast path: no escapes; ASCII needs no UTF-8 validation.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice.bindMemory(to: UInt8.self), as: UTF8.self) else {
                    throw error("a string is not valid UTF-8")
                }
                return text
            }
            if byte >= 0x80 { ascii = false }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character inside a string") }
            index += 1
        }
        var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw error("a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw error("unexpected end of JSON") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("a lone surrogate in a \\u escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
                    utf8.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    throw error("an invalid escape")
                }
            default:
                if byte < 0x20 { throw error("a control character inside a string") }
                utf8.append(byte)
            }
        }
        throw error("an unterminated string")
    }

    private mutating func hex4() throws(ProtocolError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of JSON") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("an invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func number() throws(ProtocolError) -> Double {
        let start = index
        try scanNumber()
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if integral(start), let whole = Int64(text) { return Double(whole) }
        guard let value = Double(text), value.isFinite else { throw error("a number out of range") }
        return value
    }

    /// Whether the number that starts at `start` and ends at `index` has no fraction or exponent.
    private func integral(_ start: Int) -> Bool {
        !bytes[start..<index].contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// Moves past one number, refusing what `number()` refuses: only a number with an
    /// exponent or of many digits can be out of range, so only those are converted.
    private mutating func skipNumber() throws(ProtocolError) {
        let start = index
        try scanNumber()
        let text = bytes[start..<index]
        guard text.count > 300 || text.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else { return }
        index = start
        _ = try number()
    }

    /// Moves past one number, checking its grammar.
    private mutating func scanNumber() throws(ProtocolError) {
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("unexpected end of JSON") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw error("an invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("an invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("an invalid number") }
        }
    }
}

/// The first member names of one object, as where they start and how long they are, kept
/// on the stack: checking a small object's names for repeats allocates nothing. Up to
/// `capacity` names, each compared byte by byte with the earlier ones; beyond that (or once
/// a name has escapes or non-ASCII bytes) the parser compares decoded names in a set.
struct PlainNames {
    static let capacity = 16
    private(set) var count = 0
    private var storage: (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// Name `i`: its first byte's index and its length. (Mutating only to read the
    /// storage in place instead of copying it.)
    mutating func name(_ i: Int) -> (start: Int, length: Int) {
        let packed = withUnsafeBytes(of: &storage) { $0.load(fromByteOffset: i * 8, as: UInt64.self) }
        return (Int(packed >> 32), Int(packed & 0xFFFF_FFFF))
    }

    /// Adds a name; `start` and `length` below 2^32, at most `capacity` names.
    mutating func append(_ start: Int, _ length: Int) {
        let packed = UInt64(start) << 32 | UInt64(length)
        let offset = count * 8
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: packed, toByteOffset: offset, as: UInt64.self) }
        count += 1
    }
}

/// Writes `JSONValue`s as compact UTF-8 JSON with sorted keys, as `JSON.encode` does.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let b): raw(b ? "true" : "false")
        case .number(let n): write(number: n)
        case .string(let s): write(string: s)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            if members.count == 1, let (key, member) = members.first {
                write(string: key)
                bytes.append(UInt8(ascii: ":"))
                write(member)
            } else {
                for (i, (key, member)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                    if i > 0 { bytes.append(UInt8(ascii: ",")) }
                    write(string: key)
                    bytes.append(UInt8(ascii: ":"))
                    write(member)
                }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `text` as it is.
    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func write(number n: Double) {
        guard n.isFinite else { return raw("null") }
        if n.rounded() == n, abs(n) < 1e15 {
            bytes.append(contentsOf: String(Int64(n)).utf8)
        } else {
            bytes.append(contentsOf: n.description.utf8)
        }
    }

    private mutating func write(string: String) {
        bytes.append(UInt8(ascii: "\""))
        // Fast path: copy the whole string when nothing in it needs escaping.
        let copied: Bool? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
