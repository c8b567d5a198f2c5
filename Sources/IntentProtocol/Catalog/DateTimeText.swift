import Foundation

/// A `dateTime` value as text (wire.md, section 15), checked and read in one place, for the
/// host, the SDK and the reader alike.
public enum DateTimeText {
    /// The instant `text` names, if `isValid` accepts it (a date alone: its midnight, UTC).
    public static func instant(_ text: String) -> Date? {
        guard isValid(text) else { return nil }
        if text.utf8.count == 10 { return try? Date(text, strategy: .iso8601.year().month().day()) }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// Whether `text` is an ISO 8601 date (`2026-11-22`) or a date and time with a zone
    /// (`2026-11-22T09:30:00Z`, `2026-11-22T09:30:00.250+01:00`), with every field in range
    /// and nothing before or after.
    public static func isValid(_ text: String) -> Bool {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for byte in b[from..<(from + count)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func at(_ i: Int, _ c: Character) -> Bool { i < b.count && b[i] == c.asciiValue }
        guard let year = number(0, 4), at(4, "-"), let month = number(5, 2), at(7, "-"), let day = number(8, 2),
            (1...12).contains(month)
        else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return false }
        if b.count == 10 { return true }
        guard at(10, "T"), let hour = number(11, 2), at(13, ":"), let minute = number(14, 2), at(16, ":"),
            let second = number(17, 2), hour < 24, minute < 60, second < 61
        else { return false }
        var i = 19
        if at(i, ".") {
            i += 1
            let start = i
            while i < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) { i += 1 }
            guard i > start else { return false }
        }
        if at(i, "Z") { return i + 1 == b.count }
        guard at(i, "+") || at(i, "-"), let zoneHour = number(i + 1, 2), at(i + 3, ":"), let zoneMinute = number(i + 4, 2),
            zoneHour < 24, zoneMinute < 60
        else { return false }
        return i + 6 == b.count
    }
}
