import Foundation
import IntentProtocol

/// A `dateTime` value as the host sends it (ISO 8601), with the time zone it was written in
/// ("-08:00"; "Z" and a date alone are UTC), so that days are counted as the user counts them.
public struct IntentMoment: Sendable, Equatable {
    /// The instant (a date alone: its midnight).
    public let date: Date
    /// The zone the value was written in.
    public let timeZone: TimeZone

    /// Reads `text`; nil when it is no single `dateTime` (a range "START/END" is read by
    /// `IntentDateRange`).
    public init?(_ text: String) {
        guard DateTimeText.isValid(text) else { return nil }
        if text.utf8.count == 10, let day = try? Date(text, strategy: .iso8601.year().month().day()) {
            (date, timeZone) = (day, .gmt)
            return
        }
        guard let date = try? Date(text, strategy: .iso8601) else { return nil }
        self.date = date
        let suffix = text.suffix(6)
        guard let sign = suffix.first, sign == "+" || sign == "-", suffix.dropFirst(3).first == ":",
            let hours = Int(suffix.dropFirst().prefix(2)), let minutes = Int(suffix.suffix(2)),
            let zone = TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
        else {
            timeZone = .gmt
            return
        }
        timeZone = zone
    }

    /// Whether `other` falls on this moment's calendar day, in this moment's zone.
    public func isSameDay(as other: Date) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.isDate(other, inSameDayAs: date)
    }
}
