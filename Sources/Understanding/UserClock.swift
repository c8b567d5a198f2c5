import Foundation

/// The user's clock: what time it is now and the time zone dates are read and shown in.
/// Tests fix it; the host uses the system's.
public struct UserClock: Sendable {
    /// The current instant.
    public var now: @Sendable () -> Date
    /// The zone "tomorrow at 9" is in.
    public var timeZone: TimeZone

    /// A clock.
    public init(now: @escaping @Sendable () -> Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    /// The system's clock and time zone.
    public static var system: UserClock { UserClock(now: { Date() }, timeZone: .current) }

    /// A clock that always says `date`.
    public static func fixed(_ date: Date, in timeZone: TimeZone) -> UserClock {
        UserClock(now: { date }, timeZone: timeZone)
    }

    /// A Gregorian calendar in the clock's zone.
    var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
