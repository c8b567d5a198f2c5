/// The history file earlier versions of the chat wrote through libedit: a first line
/// `_HiStOrY_V2_`, then one line per entry, each byte that is not printable written as
/// vis(3) writes it (`\040` for a space, `\\` for a backslash, `\M-C` or `\M-^X` for a
/// byte past ASCII, `\^X` for a control character). Read here rather than by libedit,
/// whose reader wrote past its buffer for a line of 1,024 bytes.
enum LibeditHistoryFile {
    static let header = Array("_HiStOrY_V2_".utf8)

    /// The entries of `data`, oldest first; nil if it is not such a file. An entry that is
    /// not escaped as vis(3) escapes is left out.
    static func lines(_ data: some Collection<UInt8>) -> [String]? {
        guard data.starts(with: header) else { return nil }
        return data.split(separator: UInt8(ascii: "\n")).dropFirst().compactMap { row in
            unescaped(Array(row)).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The bytes `row` stands for.
    static func unescaped(_ row: [UInt8]) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = 0
        func next() -> UInt8? {
            guard index < row.count else { return nil }
            defer { index += 1 }
            return row[index]
        }
        while let byte = next() {
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                continue
            }
            guard var escaped = next() else { return nil }
            var meta: UInt8 = 0
            if escaped == UInt8(ascii: "M") {
                guard next() == UInt8(ascii: "-"), let after = next() else { return nil }
                meta = 0x80
                escaped = after
                // "\M-^X": a control character with the meta bit.
                if escaped == UInt8(ascii: "^"), let control = next() {
                    bytes.append(meta | (control == UInt8(ascii: "?") ? 0x7F : control & 0x1F))
                    continue
                }
                bytes.append(meta | escaped)
                continue
            }
            switch escaped {
            case UInt8(ascii: "\\"): bytes.append(escaped)
            case UInt8(ascii: "^"):
                guard let control = next() else { return nil }
                bytes.append(control == UInt8(ascii: "?") ? 0x7F : control & 0x1F)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(escaped - UInt8(ascii: "0"))
                for _ in 0..<2 {
                    guard let digit = next(), (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else { return nil }
                    value = value * 8 + Int(digit - UInt8(ascii: "0"))
                }
                guard value <= 0xFF else { return nil }
                bytes.append(UInt8(value))
            default: return nil
            }
        }
        return bytes
    }
}
