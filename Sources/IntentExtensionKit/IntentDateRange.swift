import Foundation

/// A `dateTime` value as the time it covers, the way a search is asked: a date or time
/// alone covers its whole day (in the zone it was written in), and a range "START/END",
/// which a parameter with `range` in its domain may take ("this week"), covers from its
/// start up to, not including, its end.
public struct IntentDateRange: Sendable, Equatable {
    /// The first instant covered.
    public let start: Date
    /// The first instant after it.
    public let end: Date

    /// Reads `text`; nil when it is no `dateTime` value, or a range that ends before it starts.
    public init?(_ text: String) {
        if let slash = text.firstIndex(of: "/") {
            guard let start = IntentMoment(String(text[..<slash])), let end = IntentMoment(String(text[text.index(after: slash)...])),
                start.date < end.date
            else { return nil }
            (self.start, self.end) = (start.date, end.date)
            return
        }
        guard let moment = IntentMoment(text) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = moment.timeZone
        guard let day = calendar.dateInterval(of: .day, for: moment.date) else { return nil }
        (start, end) = (day.start, day.end)
    }

    /// Whether `date` is in the time covered.
    public func contains(_ date: Date) -> Bool {
        start <= date && date < end
    }
}
