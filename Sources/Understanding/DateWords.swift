/// The words a language reads dates and times with, and the templates it shows them in;
/// the `dates` section of a language file. Times of day are minutes after midnight.
struct DateWords: Sendable, Decodable {
    /// Words that lead into a date and go with it ("remind me", "until").
    var introducers: [String]
    var today: [String]
    /// "yesterday", for searches of what came before.
    var yesterday: [String]?
    var tomorrow: [String]
    /// Endings that make a date word possessive ("yesterday's messages"), read as the
    /// date word itself.
    var possessive: [String]?
    var dayAfterTomorrow: [String]
    /// "next Monday", "this Friday".
    var next: [String]
    /// "at 9".
    var at: [String]
    /// "on Friday", "on the 3rd".
    var on: [String]
    /// "in 2 hours".
    var within: [String]
    var oClock: [String]
    var am: [String]
    var pm: [String]
    /// "half an hour".
    var half: [String]
    /// "an hour and a half": after a count and its unit, half a unit more.
    var andAHalf: [String]?
    /// "10 more minutes": words between a count and its unit that add nothing to it.
    var more: [String]?
    /// "a couple of hours": words between a count said as a word and its unit.
    var countOf: [String]?
    /// "another hour": words that count one more of a unit, or open a count ("another 10 minutes").
    var another: [String]?
    /// Parts of the day and their time ("evening": 1080), also "tonight" for today's.
    var partsOfDay: [String: Int]
    /// Words that mean the present moment, but only as a whole answer ("now", "right now"
    /// to "When should it pick you up?"); in a request they are fillers.
    var now: [String]?
    /// Parts of the day that are a time on their own, without "at" ("until noon").
    var standalone: [String]
    /// Words that say "today" and a part of it ("tonight").
    var todayAt: [String: Int]
    /// Phrases that mean some minutes from now ("later": 180).
    var fromNow: [String: Int]
    /// Units of duration in minutes.
    var units: [String: Int]
    /// Weekday words, Sunday = 1.
    var weekdays: [String: Int]
    /// Words for a weekend and the weekday it means ("this weekend" is its Saturday), read
    /// only after an `on` or `next` word: "Weekend chores" is a name.
    var weekend: [String: Int]?
    /// Words before a weekend word that mean the weekend after the one under way ("next
    /// weekend" said on a Saturday); any other `next` word ("this weekend") means the one
    /// under way while any of it is to come.
    var followingWeekend: [String]?
    /// Words after which a day said last that is a name an app taught (a list's, say) is
    /// that name, not a date ("add streamers to saturday").
    var destination: [String]?
    /// Phrases that say a stretch of days ("this week", "next month"), read only for a
    /// `dateTime` parameter that takes a range.
    var spans: [String: DateSpan]?
    /// Words besides the introducers that lead into a span and go with it ("in the last few
    /// days", "during next week").
    var spanLeads: [String]?
    /// Words that may follow a span, besides those that lead into a date: what a search
    /// looks for ("in the past 2 weeks about pizza"); any other word after a span makes it
    /// a name ("the weekend list").
    var spanFollowers: [String]?
    /// Words that lead into a month unless it is a name an app taught ("messages from
    /// january"; "from june" is from June where June is a contact).
    var monthLeadsUnlessName: [String]?
    /// Words that open a span between two days, each with the words between the days
    /// ("between": ["and"], "from": ["to", "through"]); both days are in it.
    var spanBetween: [String: [String]]?
    /// Words that open a span from a day said to today ("since").
    var spanSince: [String]?
    /// Words that open a span from today to a day said, with whether that day is in it
    /// ("by": true, "before": false).
    var spanUntil: [String: Bool]?
    /// The day weeks start on, Sunday = 1 (default): "this week" is the calendar week.
    var firstWeekday: Int?
    /// Month words, January = 1.
    var months: [String: Int]
    /// The time a day said without a time means.
    var defaultTime: Int
    var weekdayNames: [String]
    var monthNames: [String]
    /// How a date is shown: keys `today`, `tomorrow`, `weekday`, `yesterday`, `pastWeekday`
    /// (2 to 6 days ago; without these two, a day gone is shown by `date`), `date`, `dateInYear`,
    /// with `{time}`, `{weekday}`, `{month}`, `{day}`, `{year}`; and `time`, how its
    /// `{time}` is shown, with `{hour}` (0 to 23), `{hour12}` (1 to 12), `{minute}` (two
    /// digits) and `{ampm}` (the key `am` or `pm`). Without `time`: "{hour}:{minute}". A
    /// range is shown by `span`, with `{start}` and `{end}` (its first and last days).
    var shown: [String: String]
}

extension DateWords {
    /// The words a date expression can start with: the first word of each phrase that can
    /// open one, the weekdays, months, parts of the day and number words. A word read as a
    /// number or with an am or pm ending is not among them (the reader checks those
    /// itself). Nil when a phrase is empty, since then any word may start one.
    func startingWords(numbers: [String: Int]) -> Set<String>? {
        let phrases = Array(fromNow.keys) + Array(todayAt.keys) + within + half + dayAfterTomorrow + tomorrow + today
            + (yesterday ?? []) + on + next + at
        var starts = Set(numbers.keys).union(weekdays.keys).union(months.keys).union(partsOfDay.keys)
        for phrase in phrases {
            guard let first = phrase.split(separator: " ").first else { return nil }
            starts.insert(String(first))
        }
        return starts
    }
}
