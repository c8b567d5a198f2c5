import Foundation

/// A stretch of days a phrase says ("this week", "next month", "the past week"), for a
/// `dateTime` parameter that takes a range (`range` in its domain): the language file's
/// `dates.spans`, by phrase.
struct DateSpan: Sendable, Decodable, Equatable {
    /// What the span counts in.
    enum Unit: String, Sendable, Decodable {
        /// Days from today.
        case day
        /// Calendar weeks, from the language's `firstWeekday`.
        case week
        /// Weekends (from the `dates.weekend` day to the end of the next): the one under way
        /// or, on a weekday, the coming one; an offset of 1 said on a weekend is the one after.
        case weekend
        /// Calendar months.
        case month
    }

    /// The unit.
    var unit: Unit
    /// Units from the current one: 0 this week, 1 next week, -1 last week.
    var offset: Int?
    /// How many units it covers, from the one `offset` says (default 1): "the past week"
    /// is 7 days from 6 days ago.
    var count: Int?
}

extension DateReader {
    /// The longest span phrase said in `tokens` (with a one-word introducer before it that
    /// leads into it: "due this week", "for next month"), as a token range and its value.
    /// One followed by a word that goes on from it names what follows ("the weekend list").
    func span(in tokens: ArraySlice<Token>) -> (range: Range<Int>, value: String)? {
        guard let spans = words.spans, !spans.isEmpty else { return nil }
        let goesOn = Set(words.introducers + words.on + words.at + words.within).union(trailing).union(and.map { [$0] } ?? [])
        var best: (range: Range<Int>, span: DateSpan)?
        for start in tokens.indices {
            for (phrase, span) in spans {
                guard let end = phraseEnd(phrase, tokens, start), end - start > best?.range.count ?? 0,
                    end == tokens.endIndex || tokens[end - 1].endsClause || goesOn.contains(tokens[end].word)
                else { continue }
                best = (start..<end, span)
            }
        }
        guard let best, let value = value(of: best.span) else { return nil }
        let lower = best.range.lowerBound
        let led = lower > tokens.startIndex && words.introducers.contains(tokens[lower - 1].word)
        return ((led ? lower - 1 : lower)..<best.range.upperBound, value)
    }

    /// The span `tokens` are and nothing more, but courtesies after it (an answer: "this
    /// week please").
    func readSpan(_ tokens: ArraySlice<Token>) -> String? {
        guard let found = span(in: tokens), found.range.lowerBound == tokens.startIndex,
            tokens[found.range.upperBound...].allSatisfy({ trailing.contains($0.word) })
        else { return nil }
        return found.value
    }

    /// `span` on the clock: an ISO 8601 range "START/END", the start in it and the end not,
    /// both midnights in the user's zone.
    func value(of span: DateSpan) -> String? {
        var calendar = clock.calendar
        calendar.firstWeekday = words.firstWeekday ?? 1
        let now = clock.now()
        let offset = span.offset ?? 0, count = max(1, span.count ?? 1)
        let start: Date?, end: Date?
        switch span.unit {
        case .day:
            let today = calendar.startOfDay(for: now)
            start = calendar.date(byAdding: .day, value: offset, to: today)
            end = start.flatMap { calendar.date(byAdding: .day, value: count, to: $0) }
        case .week, .month:
            let component: Calendar.Component = span.unit == .week ? .weekOfYear : .month
            start = calendar.dateInterval(of: component, for: now).flatMap { calendar.date(byAdding: component, value: offset, to: $0.start) }
            end = start.flatMap { calendar.date(byAdding: component, value: count, to: $0) }
        case .weekend:
            // Days from today to the first day of the weekend under way (back to it on its
            // second day) or, on a weekday, of the coming one.
            let first = words.weekend?.values.first ?? 7
            let today = calendar.startOfDay(for: now)
            let ahead = (first - calendar.component(.weekday, from: now) + 7) % 7
            let underWay = ahead == 0 || ahead == 6
            var days = ahead == 6 ? -1 : ahead
            // "Next weekend" said on a weekday is the coming one.
            days += 7 * (offset > 0 && !underWay ? offset - 1 : offset)
            start = calendar.date(byAdding: .day, value: days, to: today)
            end = start.flatMap { calendar.date(byAdding: .day, value: 2 + 7 * (count - 1), to: $0) }
        }
        guard let start, let end else { return nil }
        return format(start) + "/" + format(end)
    }

    /// A range value ("START/END") in words: "between tomorrow and December 5", or the one
    /// day it covers; nil when `value` is no range.
    func spokenSpan(_ value: String) -> String? {
        let ends = value.split(separator: "/", omittingEmptySubsequences: false)
        guard ends.count == 2, let from = spoken(String(ends[0]), dayOnly: true),
            let endDate = ISO8601DateFormatter().date(from: String(ends[1]))
        else { return nil }
        let last = endDate.addingTimeInterval(-1)
        guard let through = spoken(ISO8601DateFormatter().string(from: last), dayOnly: true) else { return nil }
        if from == through { return from }
        let template = words.shown["span"] ?? "{start} – {end}"
        return template.replacingOccurrences(of: "{start}", with: from).replacingOccurrences(of: "{end}", with: through)
    }
}
