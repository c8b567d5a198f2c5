import Foundation
import IntentExtensionKit
import Testing

@Suite("A dateTime value with the zone it was said in")
struct IntentMomentTests {
    @Test("Days are counted in the zone the value was written in, and a date alone is that day")
    func daysAreTheUsers() throws {
        let evening = try #require(IntentMoment("2026-11-23T21:00:00-08:00"))
        #expect(evening.timeZone.secondsFromGMT() == -8 * 3600)
        // 05:00 UTC on the 24th is still the 23rd in San Francisco.
        #expect(evening.isSameDay(as: try #require(IntentMoment("2026-11-24T05:00:00Z")).date))
        #expect(!evening.isSameDay(as: try #require(IntentMoment("2026-11-24T08:00:00Z")).date))
        let day = try #require(IntentMoment("2026-01-01"))
        #expect(day.isSameDay(as: try #require(IntentMoment("2026-01-01T09:00:00Z")).date))
        #expect(IntentMoment("2026-13-01") == nil)
        #expect(IntentMoment("next tuesday") == nil)
        #expect(IntentMoment("2026-11-22T00:00:00-08:00/2026-11-29T00:00:00-08:00") == nil, "a range is no single moment")
        #expect(IntentMoment("2026-11-22junk") == nil)
    }

    @Test("A date range covers a day or time's whole day in its zone, or a range from its start up to its end")
    func rangesCoverTheirTime() throws {
        let evening = try #require(IntentDateRange("2026-11-23T21:00:00-08:00"))
        #expect(evening.contains(try #require(IntentMoment("2026-11-24T05:00:00Z")).date))
        #expect(!evening.contains(try #require(IntentMoment("2026-11-24T08:00:00Z")).date))
        let week = try #require(IntentDateRange("2026-11-22T00:00:00-08:00/2026-11-29T00:00:00-08:00"))
        #expect(week.contains(try #require(IntentMoment("2026-11-22T00:00:00-08:00")).date))
        #expect(week.contains(try #require(IntentMoment("2026-11-28T23:59:00-08:00")).date))
        #expect(!week.contains(try #require(IntentMoment("2026-11-29T00:00:00-08:00")).date), "the end is not in it")
        #expect(IntentDateRange("2026-11-29T00:00:00Z/2026-11-22T00:00:00Z") == nil)
        #expect(IntentDateRange("2026-11-22/someday") == nil)
        #expect(IntentDateRange("someday") == nil)
    }
}
