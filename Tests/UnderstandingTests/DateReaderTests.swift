import Foundation
import IntentProtocol
import Testing
@testable import Understanding

/// Dates and times read and shown at a fixed clock: Monday 23 November 2026, 10:00 in
/// San Francisco (UTC-8).
@Suite("Reading and showing dates and times")
struct DateReaderTests {
    let dates: DateReader

    init() throws {
        let pack = try Fixture.pack()
        dates = DateReader(words: pack.dates, numbers: pack.words.numbers, clock: Fixture.clock)
    }

    func read(_ text: String) -> String? { dates.read(Token.split(text)[...]) }

    @Test("A date is written in the catalog's form exactly as a date formatter writes it, in every zone and across changes of daylight saving time")
    func catalogForm() throws {
        let zones = ["America/Los_Angeles", "UTC", "Asia/Kolkata", "Asia/Kathmandu", "America/St_Johns", "Australia/Lord_Howe", "Pacific/Chatham", "Europe/Berlin"]
        // Around 2026's changes in Europe and the US, the turn of a year, and odd seconds.
        let instants: [TimeInterval] = [1_774_746_000, 1_774_749_600, 1_793_494_800, 1_793_498_400, 1_798_761_599, 1_798_761_600, 1_795_456_837, 0]
        for identifier in zones {
            let zone = try #require(TimeZone(identifier: identifier))
            let reader = DateReader(words: dates.words, numbers: [:], clock: .fixed(Date(), in: zone))
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
            for instant in instants.flatMap({ [$0, $0 + 1_800, $0 - 3_600] }) {
                let date = Date(timeIntervalSince1970: instant)
                #expect(reader.format(date) == formatter.string(from: date), "\(identifier) \(instant)")
            }
        }
    }

    @Test("Every expression people use for a reminder is read relative to the user's clock and zone", arguments: [
        ("later", "2026-11-23T13:00:00-08:00"),
        ("tonight", "2026-11-23T20:00:00-08:00"),
        ("this evening", "2026-11-23T18:00:00-08:00"),
        ("tomorrow at 9", "2026-11-24T09:00:00-08:00"),
        ("at noon", "2026-11-23T12:00:00-08:00"),
        ("in 2 hours", "2026-11-23T12:00:00-08:00"),
        ("in twenty minutes", "2026-11-23T10:20:00-08:00"),
        ("in twenty five minutes", "2026-11-23T10:25:00-08:00"),
        ("in half an hour", "2026-11-23T10:30:00-08:00"),
        ("for 10 more minutes", "2026-11-23T10:10:00-08:00"),
        ("for another hour", "2026-11-23T11:00:00-08:00"),
        ("in another 10 minutes", "2026-11-23T10:10:00-08:00"),
        ("next Monday", "2026-11-30T09:00:00-08:00"),
        // Today's weekday is today while its time is to come, else a week on.
        ("monday at noon", "2026-11-23T12:00:00-08:00"),
        ("monday at 3", "2026-11-23T15:00:00-08:00"),
        ("monday at 9am", "2026-11-30T09:00:00-08:00"),
        ("on Friday at 4 pm", "2026-11-27T16:00:00-08:00"),
        ("on March 3rd at 5 pm", "2027-03-03T17:00:00-08:00"),
        ("the 5th of December", "2026-12-05T09:00:00-08:00"),
        ("the day after tomorrow", "2026-11-25T09:00:00-08:00"),
        ("tomorrow morning", "2026-11-24T09:00:00-08:00"),
        ("tomorrow at 3", "2026-11-24T15:00:00-08:00"),
        ("at 9", "2026-11-23T21:00:00-08:00"),
        // "until" and "till" mark a bare hour as a time, as "at" does ("snooze it until 11").
        ("until 11", "2026-11-23T11:00:00-08:00"),
        ("till 4", "2026-11-23T16:00:00-08:00"),
        ("at 3", "2026-11-23T15:00:00-08:00"),
        ("at 7:30am", "2026-11-24T07:30:00-08:00"),
        ("noon tomorrow", "2026-11-24T12:00:00-08:00"),
        ("tonight at 11", "2026-11-23T23:00:00-08:00"),
        ("tomorrow evening at 7", "2026-11-24T19:00:00-08:00"),
        ("tomorrow morning at 8", "2026-11-24T08:00:00-08:00"),
        ("at 7 tomorrow evening", "2026-11-24T19:00:00-08:00"),
        ("yesterday", "2026-11-22T09:00:00-08:00"),
        ("in an hour and a half", "2026-11-23T11:30:00-08:00"),
        ("in 2 hours and a half", "2026-11-23T12:30:00-08:00"),
        ("in 1.5 hours", "2026-11-23T11:30:00-08:00"),
        ("in 0.25 hours", "2026-11-23T10:15:00-08:00"),
        // A day of the month alone is the next such day: this month's, else the next
        // month's that has it.
        ("on the 1st", "2026-12-01T09:00:00-08:00"),
        ("on the 25th at 6pm", "2026-11-25T18:00:00-08:00"),
        ("on the 31st", "2026-12-31T09:00:00-08:00"),
        ("on the 23rd", "2026-12-23T09:00:00-08:00"),
        ("on the 23rd at 5pm", "2026-11-23T17:00:00-08:00"),
        ("in 2 and a half hours", "2026-11-23T12:30:00-08:00"),
        ("in a couple of hours", "2026-11-23T12:00:00-08:00"),
        ("in a couple hours", "2026-11-23T12:00:00-08:00"),
        ("in a couple of minutes", "2026-11-23T10:02:00-08:00"),
        ("in a few minutes", "2026-11-23T10:05:00-08:00"),
        ("in a few hours", "2026-11-23T13:00:00-08:00"),
    ])
    func expressions(text: String, value: String) {
        #expect(read(text) == value, "\(text)")
    }

    @Test("Looking back (a search of what was sent), a day or time said without which is the last one, and a day said outright stays", arguments: [
        ("on monday", "2026-11-23T09:00:00-08:00"),
        ("on friday", "2026-11-20T09:00:00-08:00"),
        ("sunday", "2026-11-22T09:00:00-08:00"),
        ("on January 1", "2026-01-01T09:00:00-08:00"),
        ("on December 25th", "2025-12-25T09:00:00-08:00"),
        ("on the 23rd", "2026-11-23T09:00:00-08:00"),
        ("on the 25th", "2026-10-25T09:00:00-07:00"),
        ("at 9", "2026-11-23T09:00:00-08:00"),
        ("at 11", "2026-11-22T23:00:00-08:00"),
        ("yesterday", "2026-11-22T09:00:00-08:00"),
        ("tomorrow", "2026-11-24T09:00:00-08:00"),
    ])
    func lookingBack(text: String, value: String) {
        #expect(dates.read(Token.split(text)[...], back: true) == value, "\(text)")
    }

    @Test("Words that are no date, or a date that does not exist, read as nothing")
    func notDates() {
        #expect(read("the bananas") == nil)
        #expect(read("for two") == nil)
        #expect(read("February 30th") == nil)
        #expect(read("at 25") == nil)
        // "more" and "another" make a time only after "for", "in" or "by".
        #expect(read("I'll need one more day") == nil)
        #expect(read("I need another hour") == nil)
        // A day of the month alone is one only said with "on" and as an ordinal.
        #expect(read("the 3rd book") == nil)
        #expect(read("on 3") == nil)
        #expect(read("on 9th street") == nil)
    }

    @Test("\"This weekend\" said on the weekend is that weekend while any of it is to come; \"next weekend\" is the one after", arguments: [
        // Saturday 28 November 2026 at 8:00 and 13:00, Sunday at 8:00 and 13:00 (UTC-8).
        (1_795_881_600, "2026-11-28T09:00:00-08:00", "2026-12-05T09:00:00-08:00"),
        (1_795_899_600, "2026-11-29T09:00:00-08:00", "2026-12-05T09:00:00-08:00"),
        (1_795_968_000, "2026-11-29T09:00:00-08:00", "2026-12-05T09:00:00-08:00"),
        (1_795_986_000, "2026-12-05T09:00:00-08:00", "2026-12-05T09:00:00-08:00"),
    ])
    func weekendOnTheWeekend(_ instant: TimeInterval, this: String, next: String) {
        let reader = DateReader(words: dates.words, numbers: [:], clock: .fixed(Date(timeIntervalSince1970: instant), in: Fixture.zone))
        #expect(reader.read(Token.split("this weekend")[...]) == this)
        #expect(reader.read(Token.split("next weekend")[...]) == next)
    }

    @Test("A bare hour is the next such hour today; on another day, one before 7 is the afternoon's")
    func bareHours() throws {
        let pack = try Fixture.pack()
        func read(_ text: String, at seconds: TimeInterval) -> String? {
            DateReader(words: pack.dates, numbers: pack.words.numbers, clock: .fixed(Date(timeIntervalSince1970: seconds), in: Fixture.clock.timeZone))
                .read(Token.split(text)[...])
        }
        let tenAM = Fixture.clock.now().timeIntervalSince1970
        #expect(read("till 3", at: tenAM + 41_460) == "2026-11-24T15:00:00-08:00", "said at 21:31, not 3 in the night")
        #expect(read("at 6", at: tenAM - 18_000) == "2026-11-23T06:00:00-08:00", "said at 5:00, within the hour")
        #expect(read("at 9", at: tenAM + 46_800) == "2026-11-24T09:00:00-08:00", "said at 23:00, tomorrow morning")
    }

    @Test("The same words are read in the user's own time zone")
    func timeZone() throws {
        let pack = try Fixture.pack()
        let zurich = try #require(TimeZone(identifier: "Europe/Zurich"))
        let clock = UserClock.fixed(Date(timeIntervalSince1970: 1_795_456_800), in: zurich)
        let there = DateReader(words: pack.dates, numbers: pack.words.numbers, clock: clock)
        #expect(there.read(Token.split("tomorrow at 9")[...]) == "2026-11-24T09:00:00+01:00")
    }

    @Test("A date value is shown back in words relative to the clock", arguments: [
        ("2026-11-23T20:00:00-08:00", "today at 8:00 PM"),
        ("2026-11-24T09:00:00-08:00", "tomorrow at 9:00 AM"),
        ("2026-11-24T17:00:00Z", "tomorrow at 9:00 AM"),
        ("2026-11-27T16:30:00-08:00", "Friday at 4:30 PM"),
        ("2026-12-05T09:00:00-08:00", "December 5 at 9:00 AM"),
        ("2027-03-03T17:00:00-08:00", "March 3, 2027 at 5:00 PM"),
        ("2026-11-24T00:05:00-08:00", "tomorrow at 12:05 AM"),
        ("2026-11-24T12:00:00-08:00", "tomorrow at 12:00 PM"),
        ("2026-11-24", "tomorrow"),
    ])
    func spoken(value: String, words: String) {
        #expect(dates.spoken(value) == words)
    }

    @Test("A language that says nothing of how a time is shown shows it on the 24-hour clock")
    func spokenWithoutTimeFormat() throws {
        let url = Fixture.root.appendingPathComponent("Protocols/languages/en.json")
        var file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var dates = try #require(file["dates"] as? [String: Any])
        var shown = try #require(dates["shown"] as? [String: Any])
        for key in ["time", "am", "pm"] { shown[key] = nil }
        dates["shown"] = shown
        file["dates"] = dates
        let pack = try LanguagePack(data: try JSONSerialization.data(withJSONObject: file))
        let reader = DateReader(words: pack.dates, numbers: pack.words.numbers, clock: Fixture.clock)
        #expect(reader.spoken("2026-11-23T20:05:00-08:00") == "today at 20:05")
        #expect(reader.spoken("2026-11-24T09:00:00-08:00") == "tomorrow at 9:00")
    }

    @Test("A snooze request carries its time; a message that mentions a time keeps it as text")
    func inRequests() throws {
        let reader = try Fixture.reader()
        let apps = try Fixture.apps()
        guard case .request(let snooze) = reader.read("snooze take out the trash until tomorrow at 9", apps: apps) else {
            Issue.record("not understood")
            return
        }
        #expect(snooze.intent == "SnoozeTasks")
        #expect(snooze.parameters["nextTriggerTime"] == "2026-11-24T09:00:00-08:00")
        #expect(snooze.parameters["tasks"] == .array(["take out the trash"]))
        guard case .request(let message) = reader.read("text Kiki see you tomorrow at 9", apps: apps) else {
            Issue.record("not understood")
            return
        }
        #expect(message.intent == "SendMessage")
        #expect(message.parameters["content"] == "see you tomorrow at 9")
    }

    @Test("An answer to \"when?\" is read as a date")
    func answers() throws {
        let catalog = try Catalog(directory: Fixture.root.appendingPathComponent("Protocols/domains"))
        let parameter = try #require(catalog.intent("SnoozeTasks")?.parameter("nextTriggerTime"))
        let answers = AnswerReader(pack: try Fixture.pack(), clock: Fixture.clock)
        #expect(answers.value("in an hour", for: parameter, intent: "SnoozeTasks", apps: []) == "2026-11-23T11:00:00-08:00")
        #expect(answers.value("whenever", for: parameter, intent: "SnoozeTasks", apps: []) == nil)
    }

    @Test("\"Now\" is the present minute as a whole answer, and no date inside a request")
    func now() throws {
        #expect(read("now") == "2026-11-23T10:00:00-08:00")
        #expect(read("right now") == "2026-11-23T10:00:00-08:00")
        #expect(read("ASAP") == "2026-11-23T10:00:00-08:00")
        #expect(dates.find(in: Token.split("book a ride now")[...]) == nil)
        let catalog = try Catalog(directory: Fixture.root.appendingPathComponent("Protocols/domains"))
        let parameter = try #require(catalog.intent("RequestRide")?.parameter("scheduledPickupTime"))
        let answers = AnswerReader(pack: try Fixture.pack(), clock: Fixture.clock)
        #expect(answers.value("right now please", for: parameter, intent: "RequestRide", apps: []) == "2026-11-23T10:00:00-08:00")
        #expect(answers.value("now or later", for: parameter, intent: "RequestRide", apps: []) == nil)
    }

    @Test("Confirmations show a reminder in words")
    func confirmation() throws {
        let words = Phrasebook(pack: try Fixture.pack(), clock: Fixture.clock)
        let said = words.result(of: "SnoozeTasks", ["tasks": .array(["take out the trash"]), "nextTriggerTime": "2026-11-24T09:00:00-08:00"])
        #expect(said == "I snoozed take out the trash until tomorrow at 9:00 AM.")
    }

    @Test("A date said before the request's first word that is no filler reads without a fault (found by the fuzzer)")
    func dateBeforeTheOpening() throws {
        let reader = try Fixture.reader()
        let found = "SSAgYSB0b25pZ2h0IGZyb20gdGhldCAgIG9vLwAAMW5hLm0gdG8gc2VlIHJpZGUgb3BvZWVkIHRlIHJpZGUgb3B0dGlvbnMgZnJvbSBHb2xhaWRlcmlkZSBvcG9lZWQgdGUgcmlkZSBvcHR0aW9ucyBmIG9wdHRmaWlvbnMgZnJvbSBvcHR0aW9ucyBmcm9tIEdvbGQObiBHWmlwcHldXV1dZXM="
        let text = String(decoding: try #require(Data(base64Encoded: found)), as: UTF8.self)
        _ = reader.read(text, apps: try Fixture.apps())
        _ = reader.read("a tonight", apps: try Fixture.apps())
    }
}
