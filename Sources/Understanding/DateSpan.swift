import Foundation
import IntentProtocol

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
        /// Calendar years.
        case year
    }

    /// The unit.
    var unit: Unit
    /// Units from the current one: 0 this week, 1 next week, -1 last week.
    var offset: Int?
    /// How many units it covers, from the one `offset` says (default 1): "the past week"
    /// is 7 days from 6 days ago.
    var count: Int?
    /// From today on only ("the rest of the week").
    var rest: Bool?
    /// For a phrase with `{n}` (a number, "the next {n} days"): how many units each one
    /// counted is (7 days a week); the span is `{n}` times that many.
    var each: Int?
    /// Ends with the current unit, going back: "the past {n} days" is today and the days
    /// before it.
    var back: Bool?
    /// Weeks, months or years counted from today, not from the start of the current one:
    /// "the next 3 months" is today up to the same day 3 months on; with `back`, "the past
    /// month" is the days after the same day a month ago, through today.
    var fromToday: Bool?
}

/// A span found in words: where, and the days it means.
struct FoundSpan {
    /// The tokens it takes, with a word that leads into it.
    let range: Range<Int>
    /// The first instant in it and the first after it.
    let start: Date, end: Date
    /// The catalog's range value, "START/END".
    let value: String
}

/// A phrase of `DateWords.spans` in words, read once: the words before its `{n}` (all of
/// them when it has none) and after it.
struct SpanPhrase: Sendable {
    let before: [String]
    let after: [String]?
    let span: DateSpan

    /// Every phrase of `spans`, in the order of their text (so that of two as long, the same
    /// one is taken every time).
    static func all(_ spans: [String: DateSpan]?) -> [SpanPhrase] {
        (spans ?? [:]).sorted { $0.key < $1.key }.map { phrase, span in
            let parts = phrase.components(separatedBy: "{n}")
            func words(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }
            return SpanPhrase(before: words(parts[0]), after: parts.count > 1 ? words(parts[1...].joined(separator: " ")) : nil, span: span)
        }
    }
}

extension DateReader {
    /// The longest span said in `tokens` (with a one-word introducer before it that leads
    /// into it: "due this week", "in next month"), as a token range and its days: a phrase
    /// of `spans`; unless `onlyPhrases`, also a month after a word that leads into a span
    /// ("in december"; after `monthLeadsUnlessName` only when `isName` says it is no name)
    /// or days between bounds ("between monday and friday", "since tuesday", "by friday").
    /// One followed by a word that goes on from it names what follows ("the weekend list").
    /// `past`: for a search of what was ("what did Coco say over the weekend" said on a
    /// Monday is the weekend just gone), where a span wholly to come is none.
    func span(in tokens: ArraySlice<Token>, past: Bool = false, onlyPhrases: Bool = false, isName: (Token) -> Bool = { _ in false }) -> FoundSpan? {
        guard !spanPhrases.isEmpty else { return nil }
        var best: (range: Range<Int>, days: (start: Date, end: Date))?
        func consider(_ start: Int, _ end: Int, _ days: () -> (start: Date, end: Date)?) {
            guard end - start > best?.range.count ?? 0, end == tokens.endIndex || tokens[end - 1].endsClause || goesOn.contains(tokens[end].word),
                let days = days()
            else { return }
            best = (start..<end, days)
        }
        // After "from", a month is one only said in full and when no contact has its name
        // ("messages from jan" are Jan's).
        func mayBeName(_ token: Token) -> Bool { isName(token) || !words.monthNames.contains { $0.lowercased() == token.word } }
        for start in tokens.indices {
            for said in phrases(tokens, at: start) {
                consider(start, said.end) { days(of: said.phrase.span, counted: said.count, past: past) }
            }
            if onlyPhrases { continue }
            // A month after a word that leads into one: "in june"; "from june" unless a name;
            // of the year said after it ("in january 2028").
            if start > tokens.startIndex, let unlessName = monthLeadUnlessName(tokens[start - 1].word),
                let month = month(tokens[start], unlessName: unlessName, mayBeName)
            {
                if let year = year(tokens, at: start + 1) { consider(start, start + 2) { days(ofMonth: month, year: year) } }
                consider(start, start + 1) { days(ofMonth: month, past: past) }
            }
            if let (end, days) = bounded(tokens, from: start, past: past, mayBeName: mayBeName) { consider(start, end) { days } }
        }
        guard let best, !(past && best.days.start > clock.now()) else { return nil }
        let lower = best.range.lowerBound
        let led = lower > tokens.startIndex && (words.introducers.contains(tokens[lower - 1].word) || words.spanLeads?.contains(tokens[lower - 1].word) == true)
        let (start, end) = best.days
        return FoundSpan(range: (led ? lower - 1 : lower)..<best.range.upperBound, start: start, end: end, value: format(start) + "/" + format(end))
    }

    /// The phrases of `spanPhrases` said from `start`, in their order: where each ends (past
    /// `start`) and the number its `{n}` read.
    private func phrases(_ tokens: ArraySlice<Token>, at start: Int) -> [(end: Int, phrase: SpanPhrase, count: Int?)] {
        spanPhrases.compactMap { phrase in
            guard let (end, count) = spanPhraseEnd(phrase, tokens, start), end > start else { return nil }
            return (end, phrase, count)
        }
    }

    /// Whether a month said after `word` is one: always ("in june": false), only when it is
    /// no name ("from june": true), or not (nil).
    private func monthLeadUnlessName(_ word: String) -> Bool? {
        if words.spanLeads?.contains(word) == true { return false }
        return words.monthLeadsUnlessName?.contains(word) == true ? true : nil
    }

    /// The month `token` says (1 to 12), unless `unlessName` and it may be a name.
    private func month(_ token: Token, unlessName: Bool, _ mayBeName: (Token) -> Bool) -> Int? {
        guard let month = words.months[token.word], (1...12).contains(month), !(unlessName && mayBeName(token)) else { return nil }
        return month
    }

    /// Where `phrase` said from `start` ends, and the number its `{n}` read (1 to 1,000).
    private func spanPhraseEnd(_ phrase: SpanPhrase, _ tokens: ArraySlice<Token>, _ start: Int) -> (Int, Int?)? {
        func end(of words: [String], from at: Int) -> Int? {
            guard at + words.count <= tokens.endIndex else { return nil }
            for (offset, word) in words.enumerated() where tokens[at + offset].word != word { return nil }
            return at + words.count
        }
        guard let at = end(of: phrase.before, from: start) else { return nil }
        guard let after = phrase.after else { return (at, nil) }
        guard at < tokens.endIndex, let n = number(tokens[at].word), (1...1_000).contains(n), let end = end(of: after, from: at + 1) else { return nil }
        return (end, n)
    }

    /// Days between bounds said from `start`: "between monday and friday" or "from december
    /// to may" (both in), "since tuesday" or "since last month" (to today), "before friday"
    /// and "by june" (from today); where the words end and the days. A bound is a day, a
    /// month or a span phrase: "from 9am to 5pm" is none.
    private func bounded(_ tokens: ArraySlice<Token>, from start: Int, past: Bool, mayBeName: (Token) -> Bool) -> (Int, (start: Date, end: Date))? {
        guard start + 1 < tokens.endIndex else { return nil }
        let word = tokens[start].word
        let joiners = words.spanBetween?[word], since = words.spanSince?.contains(word) == true, through = past ? nil : words.spanUntil?[word]
        guard joiners != nil || since || through != nil else { return nil }
        let calendar = clock.calendar
        let today = calendar.startOfDay(for: clock.now())
        guard let tomorrow = calendar.date(byAdding: .day, value: 1, to: today).map(calendar.startOfDay) else { return nil }
        // After "from" a month may be a name ("from june to august", June and August contacts).
        let names = words.monthLeadsUnlessName?.contains(word) == true
        func said(at: Int) -> Bound? { bound(tokens, at: at, monthsMayBeNames: names, mayBeName) }
        if let joiners {
            // The first may be now: "between now and friday".
            let now = words.now?.contains(tokens[start + 1].word) == true
            let first = now ? nil : said(at: start + 1)
            let firsts = now ? [(start + 2, today, tomorrow)] : [first.flatMap { days(of: $0, back: past) }, first.flatMap { days(of: $0, back: !past) }].compactMap { $0 }
            guard let middle = firsts.first?.0, middle < tokens.endIndex, joiners.contains(tokens[middle].word) else { return nil }
            // Each end as the search's tense reads it first, then the other way, where those
            // are the wrong way round ("between monday and friday" said on a Wednesday).
            let last = said(at: middle + 1)
            let lasts = [last.flatMap { days(of: $0, back: past) }, last.flatMap { days(of: $0, back: !past) }].compactMap { $0 }
            for first in firsts {
                for last in lasts where first.1 <= last.1 { return (last.0, (first.1, last.2)) }
            }
            return nil
        }
        if since {
            guard let (end, from, _) = said(at: start + 1).flatMap({ days(of: $0, back: true) }), from < tomorrow else { return nil }
            return (end, (from, tomorrow))
        }
        guard let through, let (end, first, after) = said(at: start + 1).flatMap({ days(of: $0, back: false) }), case let last = through ? after : first,
            last > today
        else { return nil }
        return (end, (today, last))
    }

    /// A bound of a span, as said and before a tense reads it (`days(of:back:)`).
    private enum Bound {
        /// A whole day ("friday", "june 3", today's weekday at any hour), said up to `end`.
        case day(Said, end: Int)
        /// A month ("june").
        case month(Int, end: Int)
        /// Span phrases ("last month"), in the order of `spanPhrases`.
        case phrases([(end: Int, phrase: SpanPhrase, count: Int?)])
    }

    /// The bound said at `at`: a day, a month unless `monthsMayBeNames` and `mayBeName`, or
    /// span phrases.
    private func bound(_ tokens: ArraySlice<Token>, at: Int, monthsMayBeNames: Bool, _ mayBeName: (Token) -> Bool) -> Bound? {
        guard at < tokens.endIndex else { return nil }
        if let (end, said) = expression(tokens, from: at) {
            guard said.offset == nil, said.days != nil || said.weekday != nil || said.day != nil else { return nil }
            var wholeDay = said
            wholeDay.time = 24 * 60 - 1
            wholeDay.certain = true
            return .day(wholeDay, end: end)
        }
        if let month = month(tokens[at], unlessName: monthsMayBeNames, mayBeName) { return .month(month, end: at + 1) }
        let phrases = phrases(tokens, at: at)
        return phrases.isEmpty ? nil : .phrases(phrases)
    }

    /// The days `bound` covers, read as the last such (`back`) or the next (of phrases, the
    /// longest with such days): where its words end, its first midnight and the one after.
    private func days(of bound: Bound, back: Bool) -> (Int, Date, Date)? {
        switch bound {
        case .day(let said, let end):
            let calendar = clock.calendar
            guard let day = resolve(said, back: back).flatMap(DateTimeText.instant).map(calendar.startOfDay),
                let after = calendar.date(byAdding: .day, value: 1, to: day).map(calendar.startOfDay)
            else { return nil }
            return (end, day, after)
        case .month(let month, let end):
            return days(ofMonth: month, past: back).map { (end, $0.start, $0.end) }
        case .phrases(let phrases):
            var longest: (Int, Date, Date)?
            for said in phrases {
                guard said.end > longest?.0 ?? 0, let (start, after) = days(of: said.phrase.span, counted: said.count, past: back) else { continue }
                longest = (said.end, start, after)
            }
            return longest
        }
    }

    /// The span `tokens` are and nothing more, but courtesies after it (an answer: "this
    /// week please").
    func readSpan(_ tokens: ArraySlice<Token>, past: Bool = false) -> String? {
        guard let found = span(in: tokens, past: past), found.range.lowerBound == tokens.startIndex,
            tokens[found.range.upperBound...].allSatisfy({ trailing.contains($0.word) })
        else { return nil }
        return found.value
    }

    /// `span` on the clock, `counted` times its `each` units when its phrase has `{n}`: its
    /// first instant and the first after it, both midnights in the user's zone; `past`, the
    /// last such weekend when none is under way.
    func days(of span: DateSpan, counted: Int? = nil, past: Bool = false) -> (start: Date, end: Date)? {
        var calendar = clock.calendar
        calendar.firstWeekday = words.firstWeekday ?? 1
        let now = clock.now()
        // (Counts and offsets of more than ten thousand units are none, and could not be added up.)
        let units = 1...10_000
        let count = max(1, counted.map { $0 * min(max(span.each ?? 1, 1), units.upperBound) } ?? span.count ?? 1)
        let offset = span.back == true ? 1 - count : span.offset ?? 0
        guard units.contains(count), (-units.upperBound...units.upperBound).contains(offset) else { return nil }
        let start: Date?, end: Date?
        switch span.unit {
        case .day:
            let today = calendar.startOfDay(for: now)
            start = calendar.date(byAdding: .day, value: offset, to: today)
            end = start.flatMap { calendar.date(byAdding: .day, value: count, to: $0) }
        case .week, .month, .year:
            let component: Calendar.Component = span.unit == .week ? .weekOfYear : span.unit == .month ? .month : .year
            let today = calendar.startOfDay(for: now)
            switch (span.fromToday == true, span.back == true) {
            case (true, true):
                start = calendar.date(byAdding: component, value: -count, to: today).flatMap { calendar.date(byAdding: .day, value: 1, to: $0) }
                end = calendar.date(byAdding: .day, value: 1, to: today)
            case (true, false):
                start = today
                end = calendar.date(byAdding: component, value: count, to: today)
            default:
                start = calendar.dateInterval(of: component, for: now).flatMap { calendar.date(byAdding: component, value: offset, to: $0.start) }
                end = start.flatMap { calendar.date(byAdding: component, value: count, to: $0) }
            }
        case .weekend:
            // Days from today to the first day of the weekend under way (back to it on its
            // second day) or, on a weekday, of the coming one.
            let first = words.weekend?.values.first ?? 7
            let today = calendar.startOfDay(for: now)
            let ahead = (first - calendar.component(.weekday, from: now) + 7) % 7
            let underWay = ahead == 0 || ahead == 6
            var days = ahead == 6 ? -1 : ahead
            // "Next weekend" said on a weekday is the coming one; "the weekend" asked of what
            // was, the one just gone.
            days += 7 * (offset > 0 && !underWay ? offset - 1 : offset)
            if past, !underWay, offset == 0 { days -= 7 }
            start = calendar.date(byAdding: .day, value: days, to: today)
            end = start.flatMap { calendar.date(byAdding: .day, value: 2 + 7 * (count - 1), to: $0) }
        }
        // Midnights, also where a day starts at 01:00 (a change to summer time at midnight):
        // adding days keeps the time of day.
        guard let start, let end else { return nil }
        let first = span.rest == true ? max(start, calendar.startOfDay(for: now)) : start
        return (calendar.startOfDay(for: first), calendar.startOfDay(for: end))
    }

    /// The days of `month` (January = 1): this month's, or the next such (`past`: the last).
    func days(ofMonth month: Int, past: Bool) -> (start: Date, end: Date)? {
        guard (1...12).contains(month) else { return nil }
        var offset = month - clock.calendar.component(.month, from: clock.now())
        if past, offset > 0 { offset -= 12 }
        if !past, offset < 0 { offset += 12 }
        return days(of: DateSpan(unit: .month, offset: offset))
    }

    /// The days of `month` (January = 1) of `year`.
    func days(ofMonth month: Int, year: Int) -> (start: Date, end: Date)? {
        let now = clock.calendar.dateComponents([.year, .month], from: clock.now())
        guard (1...12).contains(month), let thisYear = now.year, let thisMonth = now.month else { return nil }
        return days(of: DateSpan(unit: .month, offset: (year - thisYear) * 12 + month - thisMonth))
    }

    /// The first day of `span` at the time a day said alone means (`defaultTime`), for a
    /// parameter that takes one moment ("remind me next week"); nil when that has passed.
    func firstMoment(of span: FoundSpan) -> String? {
        let calendar = clock.calendar
        guard let moment = calendar.date(byAdding: .minute, value: words.defaultTime, to: span.start), moment > clock.now() else { return nil }
        return format(moment)
    }

    /// A range value ("START/END") in words: "between tomorrow and December 5" (a day of
    /// the last week by its date: "between November 15 and November 21"), or the one day it
    /// covers; nil when `value` is no range.
    func spokenSpan(_ value: String) -> String? {
        let ends = value.split(separator: "/", omittingEmptySubsequences: false)
        guard ends.count == 2, let start = DateTimeText.instant(String(ends[0])), let end = DateTimeText.instant(String(ends[1])),
            start < end, let from = spoken(format(start), dayOnly: true, pastWeekday: false),
            let through = spoken(format(end.addingTimeInterval(-1)), dayOnly: true, pastWeekday: false)
        else { return nil }
        if from == through { return from }
        let template = words.shown["span"] ?? "{start} – {end}"
        return template.replacingOccurrences(of: "{start}", with: from).replacingOccurrences(of: "{end}", with: through)
    }
}
