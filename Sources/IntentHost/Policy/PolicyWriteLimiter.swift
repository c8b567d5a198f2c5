import ZeroMQ

/// Bounds how often peers make the host save its policy state (the lock, authorizations,
/// user vocabulary): each change is a durable write, two `fsync`s on the broker thread. Per
/// second: clients' changes together, each extension connection's, and all extensions'.
/// Past a bound a client's change is refused `overloaded` (nothing changed) and an
/// extension's is dropped and logged, so a flood of changes cannot stall routing.
struct PolicyWriteLimiter {
    /// Changes from all clients together in one second.
    static let clientsPerSecond = 64
    /// Changes from one extension connection in one second (one vocabulary type each: an
    /// app that sets all 32 types it may have at start fits).
    static let perExtension = 64
    /// Changes from all extensions together in one second.
    static let extensionsPerSecond = 256

    private var clients = PerSecondBudget<Bool>(total: clientsPerSecond, perKey: clientsPerSecond)
    private var extensions = PerSecondBudget<RoutingID>(total: extensionsPerSecond, perKey: perExtension)
    /// Extension changes dropped since the host started.
    private(set) var dropped = 0

    /// Whether a client's change may be saved now.
    mutating func allowClient(now: ContinuousClock.Instant) -> Bool {
        clients.take(true, now: now)
    }

    /// Whether a change from the extension connection `routingID` may be saved now.
    mutating func allowExtension(_ routingID: RoutingID, now: ContinuousClock.Instant) -> Bool {
        guard extensions.take(routingID, now: now) else {
            dropped += 1
            return false
        }
        return true
    }
}

/// Who asks for a change of policy state.
enum PolicyWriter {
    case client
    case `extension`(RoutingID)
}

/// A change of policy state refused by `PolicyWriteLimiter`; nothing was changed.
enum PolicyWriteBusy: Error, CustomStringConvertible {
    case clients, `extension`

    var description: String {
        switch self {
        case .clients:
            "intentd is saving as many changes of the lock, authorizations and vocabulary as it takes in a second (\(PolicyWriteLimiter.clientsPerSecond)); nothing was changed, try again shortly"
        case .extension:
            "more than \(PolicyWriteLimiter.perExtension) vocabulary changes in a second from this extension; nothing was changed"
        }
    }
}
