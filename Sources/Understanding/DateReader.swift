import Foundation
import IntentProtocol

/// Reads date and time expressions ("tomorrow at 9", "in twenty minutes", "next Monday",
/// "on March 3rd at 5 pm") into the catalog's `dateTime` value, relative to the user's
/// clock, and shows such values back in words ("tomorrow at 9:00 AM"). Every word comes
/// from the language file's `dates` section.
struct DateReader: Sendable {
    let words: DateWords
    let numbers: [String: Int]
    let clock: UserClock
    /// Words said before a request that leave the request's first words its first
    /// ("please remind me tomorrow to …").
    let fillers: Set<String>
    /// Courtesies said after an answer ("now please").
    let trailing: Set<String>
    /// The language's "and", which joins two counts of a duration ("an hour and 15 minutes").
    let and: String?
    /// `words.fromNow`, the longest phrase first.
    private let fromNow: [(key: String, value: Int)]
    /// `words.spans`, each phrase in words.
    let spanPhrases: [SpanPhrase]
    /// Words that may follow a span without making it a name: "due this week at 5",
    /// "since monday about pizza", "this week please".
    let goesOn: Set<String>
    /// The words of `words` an expression can start with (`DateWords.startingWords`);
    /// nil tries every word.
    let starts: Set<String>?

    /// A reader of `words`, with the language's number words, against `clock`; the other
    /// words as `init(pack:clock:)` takes them from a language, and `spanPhrases` read from
    /// `words` when not given.
    init(
        words: DateWords, numbers: [String: Int], clock: UserClock, spanPhrases: [SpanPhrase]? = nil,
        fillers: Set<String> = [], trailing: Set<String> = [], and: String? = nil, starts: Set<String>? = nil
    ) {
        self.words = words
        self.numbers = numbers
        self.clock = clock
        self.fillers = fillers
        self.trailing = trailing
        self.and = and
        self.starts = starts
        // (Minutes past about two years are none: counted and made seconds, they could not be added up.)
        fromNow = words.fromNow.filter { (-Self.mostMinutes...Self.mostMinutes).contains($0.value) }.sorted { $0.key.count > $1.key.count }
        self.spanPhrases = spanPhrases ?? SpanPhrase.all(words.spans)
        goesOn = Set(words.introducers + words.on + words.at + words.within + (words.spanFollowers ?? [])).union(trailing).union(and.map { [$0] } ?? [])
    }

    /// The reader of `pack`'s date words, against `clock`.
    init(pack: LanguagePack, clock: UserClock) {
        self.init(
            words: pack.dates, numbers: pack.words.numbers, clock: clock, spanPhrases: pack.spanPhrases,
            fillers: pack.words.fillers, trailing: pack.words.trailing, and: pack.words.and, starts: pack.dateStarts)
    }

    /// The most minutes a unit or a phrase of `fromNow` may be (about two years).
    static let mostMinutes = 1_000_000

    /// Which weekend a weekend word said.
    enum Weekend { case underWay, following }

    /// What a date expression said, before it is resolved against the clock.
    struct Said {
        var days: Int?
        var weekday: Int?
        var month: Int?
        var day: Int?
        /// Said with a month and day ("January 15, 2028"); else the next such day, or the last.
        var year: Int?
        /// The weekday was said as a weekend: the one under way ("this weekend") or the one
        /// after it ("next weekend"), when said on a weekend.
        var weekend: Weekend?
        /// Minutes after midnight.
        var time: Int?
        /// The hour was given with am or pm, or as a part of the day.
        var certain = false
        /// Minutes from now.
        var offset: Int?
        /// The part of the day said ("tonight", "in the evening"), which an hour said
        /// without am or pm falls in: "tonight at 11" is at 23:00.
        var partOfDay: Int?
    }

    // MARK: Finding

    /// The longest date expression in `tokens`, with the words that lead into it
    /// ("remind me", "until"), as a token range and its value: the next such time, and the
    /// last (`past`, for a search of what was: "on Monday" said on a Wednesday).
    func find(in said: ArraySlice<Token>) -> (range: Range<Int>, value: String, past: String)? {
        let tokens = withoutPossessive(said)
        var best: (range: Range<Int>, said: Said)?
        for start in tokens.indices where mayStart(tokens[start].word) {
            guard let (end, said) = expression(tokens, from: start) else { continue }
            if end - start > best?.range.count ?? 0 { best = (start..<end, said) }
        }
        guard let best, let value = resolve(best.said) else { return nil }
        let past = resolve(best.said, back: true) ?? value
        var lower = best.range.lowerBound
        var stripped = true
        // An introducer that opens the request is its verb: "remind me tomorrow to call Mom".
        let opening = tokens.firstIndex { !fillers.contains($0.word) } ?? tokens.startIndex
        // One that runs from the opening to the date, or its start does, ("set a reminder
        // for 3pm", "set a reminder at 3pm", "set a reminder tomorrow" to call Bob) is the
        // verb: the date takes only a last word that leads into a date alone.
        let run = opening < lower ? tokens[opening..<lower].map(\.word) : []
        let dateTakes = words.introducers.lazy.compactMap { phrase -> Int? in
            let stem = phrase.split(separator: " ").dropLast().map(String.init)
            guard stem.count > 1, run.starts(with: stem) else { return nil }
            if run.count == stem.count { return 0 }
            return run.count == stem.count + 1 && words.introducers.contains(run[stem.count]) ? 1 : nil
        }.first
        if let dateTakes { return (lower - dateTakes..<best.range.upperBound, value, past) }
        while stripped {
            stripped = false
            for phrase in words.introducers {
                let parts = phrase.split(separator: " ").map(String.init)
                let from = lower - parts.count
                guard from > opening || (from == opening && parts.count == 1), from >= tokens.startIndex,
                    tokens[from..<lower].map(\.word) == parts
                else { continue }
                lower = from
                stripped = true
                break
            }
        }
        return (lower..<best.range.upperBound, value, past)
    }

    /// Whether a date expression can start with `word`: one of `starts`, or a word read as
    /// a number (a digit or a sign first, for `Int`) or with an am or pm ending ("fivepm").
    private func mayStart(_ word: String) -> Bool {
        guard let starts, !starts.contains(word) else { return true }
        if let first = word.utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            return true
        }
        return (words.am + words.pm).contains { word.count > $0.count && word.hasSuffix($0) }
    }

    /// `tokens` with possessive endings dropped ("tomorrow's" as "tomorrow"), in place.
    private func withoutPossessive(_ tokens: ArraySlice<Token>) -> ArraySlice<Token> {
        guard let endings = words.possessive, !endings.isEmpty else { return tokens }
        var plain = tokens
        for i in plain.indices {
            for ending in endings where plain[i].word.count > ending.count && plain[i].word.hasSuffix(ending) {
                plain[i].word = String(plain[i].word.dropLast(ending.count))
            }
        }
        return plain
    }

    /// The value of `tokens` when they are a date expression and nothing more (an answer);
    /// `back`: the last such time, not the next.
    func read(_ tokens: ArraySlice<Token>, back: Bool = false) -> String? {
        // "now", "right now please": a phrase for the present and courtesies after it.
        if let now = words.now, tokens.indices.contains(where: { end in
            now.contains(tokens[..<(end + 1)].map(\.word).joined(separator: " ")) && tokens[(end + 1)...].allSatisfy { trailing.contains($0.word) }
        }) {
            let moment = clock.now()
            return format(clock.calendar.dateInterval(of: .minute, for: moment)?.start ?? moment)
        }
        guard let found = find(in: tokens), found.range == tokens.startIndex..<tokens.endIndex else { return nil }
        return back ? found.past : found.value
    }

    /// A date expression starting at `start`: where it ends and what it said.
    func expression(_ tokens: ArraySlice<Token>, from start: Int) -> (Int, Said)? {
        var said = Said()
        var at = start
        if var (end, minutes) = duration(tokens, at) {
            // "in an hour and 15 minutes": a second count of a smaller unit after "and".
            if let and, let next = anyPhrase([and], tokens, end), let (more, extra) = duration(tokens, next), extra < minutes {
                end = more
                minutes += extra
            }
            return (end, Said(offset: minutes))
        }
        var sawDay = false, times = 0
        while at < tokens.endIndex {
            // A part of the day may be followed by the hour in it ("this evening at 8"), an
            // hour by the part of the day it is in ("at 7 tomorrow morning").
            let onlyPart = said.partOfDay != nil && said.time == said.partOfDay
            if !sawDay, let end = day(tokens, at, &said) {
                at = end
                sawDay = true
            } else if times == 0 || times == 1, let end = time(tokens, at, &said, again: times == 1 && !onlyPart) {
                at = end
                times += 1
            } else {
                break
            }
        }
        return at > start ? (at, said) : nil
    }

    /// "in 2 hours", "in twenty minutes", "for an hour", "half an hour", "later".
    private func duration(_ tokens: ArraySlice<Token>, _ start: Int) -> (Int, Int)? {
        for (phrase, minutes) in fromNow {
            if let end = phraseEnd(phrase, tokens, start) { return (end, minutes) }
        }
        var at = start
        if let end = anyPhrase(words.within, tokens, at) { at = end }
        // "for another hour", "in 5 more minutes": only after "for", "in" or "by", since a
        // message's "I need one more day" is no time.
        let led = at > start
        // "half an hour"
        if at + 2 < tokens.endIndex, words.half.contains(tokens[at].word), let unit = words.units[tokens[at + 2].word] {
            return (at + 3, unit / 2)
        }
        // "another hour", "another 10 minutes"
        let another = led && at < tokens.endIndex && words.another?.contains(tokens[at].word) == true
        if another { at += 1 }
        // "a couple of hours": the article before a count said as a word is no count.
        if at + 1 < tokens.endIndex, number(tokens[at].word) == 1, tokens[at + 1].word.allSatisfy(\.isLetter), number(tokens[at + 1].word) != nil {
            at += 1
        }
        // "1.5 hours": the count's fraction, of a unit.
        let fraction = at < tokens.endIndex ? self.fraction(tokens[at].word) : nil
        let counted = at < tokens.endIndex ? number(tokens[at].word) ?? fraction.map(\.whole) : nil
        guard var count = counted ?? (another ? 1 : nil) else { return nil }
        var numberEnd = counted == nil ? at : at + 1
        // "twenty five"
        if numberEnd < tokens.endIndex, count >= 20, count % 10 == 0, let ones = number(tokens[numberEnd].word), ones < 10 {
            count += ones
            numberEnd += 1
        }
        // "10 more minutes"
        if led, numberEnd < tokens.endIndex, words.more?.contains(tokens[numberEnd].word) == true { numberEnd += 1 }
        // "a couple of hours"
        if counted != nil, tokens[at].word.allSatisfy(\.isLetter), let end = anyPhrase(words.countOf ?? [], tokens, numberEnd) { numberEnd = end }
        // "2 and a half hours"
        var half = false
        if fraction == nil, counted != nil, let end = anyPhrase(words.andAHalf ?? [], tokens, numberEnd) {
            numberEnd = end
            half = true
        }
        guard numberEnd < tokens.endIndex, let unit = words.units[tokens[numberEnd].word], (0...Self.mostMinutes).contains(unit) else { return nil }
        let part = half ? unit / 2 : Int(((fraction?.part ?? 0) * Double(unit)).rounded())
        // "an hour and a half"
        if fraction == nil, !half, let end = anyPhrase(words.andAHalf ?? [], tokens, numberEnd + 1) { return (end, count * unit + unit / 2) }
        return (numberEnd + 1, count * unit + part)
    }

    /// "1.5": its whole part and its fraction, for a count with a decimal point.
    private func fraction(_ word: String) -> (whole: Int, part: Double)? {
        guard word.contains("."), let value = Double(word), value.isFinite, value > 0, value < 10_000 else { return nil }
        let whole = value.rounded(.down)
        return (Int(whole), value - whole)
    }

    /// "tomorrow", "the day after tomorrow", "tonight", "next Monday", "on March 3rd",
    /// "the 5th of December", "this evening".
    private func day(_ tokens: ArraySlice<Token>, _ start: Int, _ said: inout Said) -> Int? {
        if let end = anyPhrase(words.dayAfterTomorrow, tokens, start) { said.days = 2; return end }
        if let end = anyPhrase(words.tomorrow, tokens, start) { said.days = 1; return end }
        if let end = anyPhrase(words.today, tokens, start) { said.days = 0; return end }
        if let end = anyPhrase(words.yesterday ?? [], tokens, start) { said.days = -1; return end }
        for (phrase, minutes) in words.todayAt {
            if let end = phraseEnd(phrase, tokens, start) {
                said.days = 0
                if said.time == nil { said.time = minutes; said.certain = true; said.partOfDay = minutes }
                return end
            }
        }
        var at = start
        if let end = anyPhrase(words.on + words.next, tokens, at) { at = end }
        if at < tokens.endIndex, let weekday = words.weekdays[tokens[at].word] {
            said.weekday = weekday
            return at + 1
        }
        if at > start, at < tokens.endIndex, let weekday = words.weekend?[tokens[at].word] {
            said.weekday = weekday
            said.weekend = anyPhrase(words.followingWeekend ?? [], tokens, start) == nil ? .underWay : .following
            return at + 1
        }
        // "this evening"
        if at > start, at < tokens.endIndex, let minutes = words.partsOfDay[tokens[at].word], said.time == nil {
            said.days = 0
            said.time = minutes
            said.certain = true
            said.partOfDay = minutes
            return at + 1
        }
        // "March 3rd", "3 March", "the 3rd of March"
        if at < tokens.endIndex, let month = words.months[tokens[at].word], at + 1 < tokens.endIndex, let day = dayOfMonth(tokens[at + 1].word) {
            said.month = month
            said.day = day
            return year(tokens, at + 2, &said)
        }
        if at < tokens.endIndex, let day = dayOfMonth(tokens[at].word) {
            var next = at + 1
            if next < tokens.endIndex, tokens[next].word == "of" { next += 1 }
            if next < tokens.endIndex, let month = words.months[tokens[next].word] {
                said.month = month
                said.day = day
                return year(tokens, next + 1, &said)
            }
            // "on the 1st": the next such day, said with an ordinal after a word of `on`
            // that ends none of its phrases ("on", not "the": "the 3rd book" is no date),
            // and last or before a date, a filler or a courtesy ("on 9th street" is a place).
            let lead = tokens[start].word
            let after = next < tokens.endIndex && !tokens[at].endsClause ? tokens[next].word : nil
            if at > start, Int(tokens[at].word) == nil, words.on.contains(lead), !words.on.contains(where: { $0.hasSuffix(" " + lead) }),
                after.map({ mayStart($0) || fillers.contains($0) || trailing.contains($0) }) ?? true
            {
                said.day = day
                return at + 1
            }
        }
        return nil
    }

    /// A year after a month and day ("January 15, 2028"), 1970 to 2199; where the date ends.
    private func year(_ tokens: ArraySlice<Token>, _ at: Int, _ said: inout Said) -> Int {
        guard let year = year(tokens, at: at) else { return at }
        said.year = year
        return at + 1
    }

    /// The year said at `at` in four digits, 1970 to 2199.
    func year(_ tokens: ArraySlice<Token>, at: Int) -> Int? {
        guard at < tokens.endIndex, tokens[at].word.count == 4, let year = Int(tokens[at].word), (1970...2199).contains(year) else { return nil }
        return year
    }

    /// "at 9", "5 pm", "5:30", "at noon", "in the morning", "at five o'clock". `again`:
    /// an hour was said already, and only the part of the day it is in may follow.
    private func time(_ tokens: ArraySlice<Token>, _ start: Int, _ said: inout Said, again: Bool = false) -> Int? {
        var at = start
        var marked = false
        if let end = anyPhrase(words.at, tokens, at) { at = end; marked = true }
        guard at < tokens.endIndex else { return nil }
        let word = tokens[at].word
        if again {
            guard !marked, let hour = said.time, let part = words.partsOfDay[word], !words.standalone.contains(word) else { return nil }
            if !said.certain, hour < 12 * 60, part >= 12 * 60 { said.time = hour + 12 * 60 }
            said.certain = true
            return at + 1
        }
        let dated = said.days != nil || said.weekday != nil || said.month != nil || said.day != nil
        if let minutes = words.partsOfDay[word], marked || dated || words.standalone.contains(word) {
            said.time = minutes
            said.certain = true
            said.partOfDay = minutes
            return at + 1
        }
        // "in the morning" (looked for only where a lead word is said)
        let leads = marked ? [] : words.within.filter { lead in
            let first = lead.drop { $0 == " " }.prefix { $0 != " " }
            return first.isEmpty || first == word
        }
        for (part, minutes) in words.partsOfDay where !leads.isEmpty {
            for lead in leads {
                if let end = phraseEnd("\(lead) the \(part)", tokens, at) {
                    said.time = minutes
                    said.certain = true
                    said.partOfDay = minutes
                    return end
                }
            }
        }
        // "5", "5:30", "5pm", "5:30pm", "five"
        var typed = word
        var suffix: Bool? = nil
        for (list, pm) in [(words.am, false), (words.pm, true)] {
            for ending in list where typed.count > ending.count && typed.hasSuffix(ending) {
                typed = String(typed.dropLast(ending.count))
                suffix = pm
            }
        }
        var hour: Int?
        var minute = 0
        let parts = typed.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), parts[1].count == 2 {
            hour = h
            minute = m
        } else if parts.count == 1 {
            hour = Int(typed) ?? numbers[typed]
        }
        guard let hour, (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        var end = at + 1
        var pm = suffix
        if pm == nil {
            if let after = anyPhrase(words.am, tokens, end) { pm = false; end = after }
            else if let after = anyPhrase(words.pm, tokens, end) { pm = true; end = after }
        }
        var clock = false
        if let after = anyPhrase(words.oClock, tokens, end) { end = after; clock = true }
        // A bare number is a time only after "at" or with am, pm or o'clock.
        guard marked || pm != nil || clock || parts.count == 2 else { return nil }
        // "tonight at 11": the part of the day said before tells am from pm.
        if pm == nil, let part = said.partOfDay, (1...11).contains(hour), part != 0 { pm = part >= 12 * 60 }
        var h = hour
        if let pm {
            guard (1...12).contains(hour) else { return nil }
            h = hour % 12 + (pm ? 12 : 0)
        }
        said.time = h * 60 + minute
        said.certain = pm != nil || hour > 12 || hour == 0
        return end
    }

    // MARK: Resolving

    /// The instant `said` means now, in the catalog's form: a day or time said without
    /// which ("on Monday", "March 3rd", "at 9") is the next, or with `back` the last.
    func resolve(_ said: Said, back: Bool = false) -> String? {
        let calendar = clock.calendar
        let now = clock.now()
        if let offset = said.offset {
            let minute = calendar.dateInterval(of: .minute, for: now)?.start ?? now
            return format(minute.addingTimeInterval(TimeInterval(offset * 60)))
        }
        let today = calendar.startOfDay(for: now)
        // The time on a day said, "tomorrow at 3" in the afternoon; without a time, the default.
        let timeOnDay = said.time.map { !said.certain && $0 < 7 * 60 ? $0 + 12 * 60 : $0 } ?? words.defaultTime
        var day: Date?
        if let days = said.days {
            day = calendar.date(byAdding: .day, value: days, to: today)
        } else if let weekday = said.weekday {
            let current = calendar.component(.weekday, from: today)
            if back { return resolved(calendar.date(byAdding: .day, value: -((current - weekday + 7) % 7), to: today), at: timeOnDay, calendar) }
            let ahead = (weekday - current + 7) % 7
            // Today's weekday is today while its time is still to come ("friday at noon",
            // said on a Friday morning), else a week on.
            let later = ahead == 0 && at(timeOnDay, on: today, calendar) > now
            var days = ahead == 0 && !later ? 7 : ahead
            // Said on a weekend (its first day, or its second: a day after the weekday the
            // weekend words mean), "this weekend" is its next day whose time is to come, and
            // "next weekend" the one after.
            if let weekend = said.weekend, ahead == 0 || current == weekday % 7 + 1 {
                let secondDayLater = ahead != 0 && at(timeOnDay, on: today, calendar) > now
                switch weekend {
                case .underWay: days = ahead == 0 ? (later ? 0 : 1) : (secondDayLater ? 0 : ahead)
                case .following: days = ahead == 0 ? 7 : ahead
                }
            }
            day = calendar.date(byAdding: .day, value: days, to: today)
        } else if let month = said.month, let dayOfMonth = said.day {
            let year = calendar.component(.year, from: today)
            // A year said is that year's day, gone or to come.
            for candidate in said.year.map({ [$0] }) ?? (back ? [year, year - 1] : [year, year + 1]) {
                guard let date = calendar.date(from: DateComponents(year: candidate, month: month, day: dayOfMonth)),
                    calendar.component(.day, from: date) == dayOfMonth
                else { return nil }
                if said.year != nil || (back ? date <= today : date >= today) { day = date; break }
            }
        } else if let dayOfMonth = said.day {
            // The next month from this one that has the day, still to come at the time said
            // ("on the 27th" on the 27th at noon, for 9:00 AM, is next month's).
            for ahead in 0..<12 {
                guard let month = calendar.date(byAdding: .month, value: back ? -ahead : ahead, to: today) else { return nil }
                var parts = calendar.dateComponents([.year, .month], from: month)
                parts.day = dayOfMonth
                guard let date = calendar.date(from: parts), calendar.component(.day, from: date) == dayOfMonth else { continue }
                if back ? date <= today : date >= today && at(timeOnDay, on: date, calendar) > now { day = date; break }
            }
        }
        if said.time == nil || day != nil { return resolved(day, at: timeOnDay, calendar) }
        guard let time = said.time else { return nil }
        // "at 9" is the next 9 o'clock (with `back`, the last). On another day, an hour before 7
        // is the afternoon's, as on a day said ("tomorrow at 3"): "till 3" said at night is not
        // 3 in the night, while "at 6" said at 5 in the morning is within the hour.
        let hours = !said.certain && time < 12 * 60 ? [time, time + 12 * 60] : [time]
        for minutes in back ? hours.reversed() : hours {
            let candidate = at(minutes, on: today, calendar)
            if back ? candidate <= now : candidate > now { return format(candidate) }
        }
        guard let next = calendar.date(byAdding: .day, value: back ? -1 : 1, to: today) else { return nil }
        return format(at(back ? hours[hours.count - 1] : timeOnDay, on: next, calendar))
    }

    /// `day` at `minutes` past midnight, in the catalog's form.
    private func resolved(_ day: Date?, at minutes: Int, _ calendar: Calendar) -> String? {
        day.map { format(at(minutes, on: $0, calendar)) }
    }

    private func at(_ minutes: Int, on day: Date, _ calendar: Calendar) -> Date {
        calendar.date(bySettingHour: minutes / 60, minute: minutes % 60, second: 0, of: day) ?? day
    }

    /// `date` in the catalog's form (`yyyy-MM-dd'T'HH:mm:ssxxx`) in the clock's zone:
    /// "2026-11-27T09:00:00-08:00". Written out by hand: a date formatter made for each
    /// date read cost more than the rest of reading it.
    func format(_ date: Date) -> String {
        let parts = clock.calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = clock.timeZone.secondsFromGMT(for: date)
        func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : String(value ?? 0) }
        let year = String(parts.year ?? 0)
        let zone = (offset < 0 ? "-" : "+") + two(abs(offset) / 3600) + ":" + two(abs(offset) % 3600 / 60)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(parts.month) + "-" + two(parts.day)
            + "T" + two(parts.hour) + ":" + two(parts.minute) + ":" + two(parts.second) + zone
    }

    // MARK: Showing

    /// A catalog date value in words, relative to the clock: "tomorrow at 9:00 AM"; with
    /// `dayOnly`, its day alone ("tomorrow"). `pastWeekday`: a day of the last week by its
    /// weekday ("last Friday"), not its date.
    func spoken(_ value: String, dayOnly: Bool = false, pastWeekday: Bool = true) -> String? {
        guard DateTimeText.isValid(value) else { return nil }
        let calendar = clock.calendar
        let date: Date
        var hasTime = true
        if let full = ISO8601DateFormatter().date(from: value) {
            date = full
        } else {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let fractional = formatter.date(from: value) {
                date = fractional
            } else {
                let dayOnly = DateFormatter()
                dayOnly.locale = Locale(identifier: "en_US_POSIX")
                dayOnly.timeZone = clock.timeZone
                dayOnly.dateFormat = "yyyy-MM-dd"
                guard let parsed = dayOnly.date(from: value) else { return nil }
                date = parsed
                hasTime = false
            }
        }
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: clock.now()), to: calendar.startOfDay(for: date)).day ?? 99
        var key: String
        switch days {
        case 0: key = "today"
        case 1: key = "tomorrow"
        case 2...6: key = "weekday"
        case -1: key = "yesterday"
        case -6...(-2) where pastWeekday: key = "pastWeekday"
        default: key = ""
        }
        // A language without words for a day gone says its date.
        if key.isEmpty || words.shown[key] == nil { key = parts.year == calendar.component(.year, from: clock.now()) ? "date" : "dateInYear" }
        guard var text = words.shown[hasTime && !dayOnly ? key : key + "Only"] ?? words.shown[key] else { return nil }
        let fields = [
            "time": time(hour: parts.hour ?? 0, minute: parts.minute ?? 0),
            "weekday": words.weekdayNames.indices.contains((parts.weekday ?? 1) - 1) ? words.weekdayNames[(parts.weekday ?? 1) - 1] : "",
            "month": words.monthNames.indices.contains((parts.month ?? 1) - 1) ? words.monthNames[(parts.month ?? 1) - 1] : "",
            "day": String(parts.day ?? 1), "year": String(parts.year ?? 0),
        ]
        for (name, field) in fields { text = text.replacingOccurrences(of: "{\(name)}", with: field) }
        return text
    }

    /// A time of day as the language shows it: "8:05 PM" in English, "20:05" by default.
    private func time(hour: Int, minute: Int) -> String {
        let fields = [
            "hour": String(hour), "hour12": String(hour % 12 == 0 ? 12 : hour % 12),
            "minute": (minute < 10 ? "0" : "") + String(minute), "ampm": words.shown[hour < 12 ? "am" : "pm"] ?? "",
        ]
        var text = words.shown["time"] ?? "{hour}:{minute}"
        for (name, field) in fields { text = text.replacingOccurrences(of: "{\(name)}", with: field) }
        return text
    }

    // MARK: Words

    func number(_ word: String) -> Int? {
        if let n = Int(word), n >= 0, n < 10_000 { return n }
        return numbers[word]
    }

    /// "3", "3rd", "third".
    private func dayOfMonth(_ word: String) -> Int? {
        var digits = word
        for ending in ["st", "nd", "rd", "th"] where digits.hasSuffix(ending) { digits = String(digits.dropLast(2)) }
        guard let n = Int(digits), (1...31).contains(n) else { return nil }
        return n
    }

    /// Where `phrase` (words between spaces) ends when it is said from `start`, or nil.
    /// Runs for every word of every request: it reads the phrase in place.
    func phraseEnd(_ phrase: String, _ tokens: ArraySlice<Token>, _ start: Int) -> Int? {
        var at = start
        var rest = phrase[...]
        while true {
            rest = rest.drop { $0 == " " }
            if rest.isEmpty { return at }
            let part = rest.prefix { $0 != " " }
            guard at < tokens.endIndex, tokens[at].word == part else { return nil }
            at += 1
            rest = rest[part.endIndex...]
        }
    }

    private func anyPhrase(_ phrases: [String], _ tokens: ArraySlice<Token>, _ start: Int) -> Int? {
        var longest: Int?
        for phrase in phrases {
            if let end = phraseEnd(phrase, tokens, start), end > longest ?? Int.min { longest = end }
        }
        return longest
    }
}
