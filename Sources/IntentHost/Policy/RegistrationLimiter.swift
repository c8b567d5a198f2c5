import ZeroMQ

/// Bounds how many REGISTER messages the host reads: per connection and in all, each per
/// second. Registrations over either bound are dropped unread, so a flood costs the host
/// a counter, never a registry entry, a rejection or a log line per message.
struct RegistrationLimiter {
    /// Registrations accepted for reading from all connections in one second.
    static let perSecond = 200
    /// Registrations accepted for reading from one connection in one second.
    static let perConnection = 5

    private var budget = PerSecondBudget<RoutingID>(total: perSecond, perKey: perConnection)
    /// Registrations dropped since the host started.
    private(set) var dropped = 0

    /// Whether a registration from `routingID` may be read now.
    mutating func allow(_ routingID: RoutingID, now: ContinuousClock.Instant) -> Bool {
        guard budget.take(routingID, now: now) else {
            dropped += 1
            return false
        }
        return true
    }
}
