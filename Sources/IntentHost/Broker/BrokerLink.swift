import Synchronization

/// The broker, for what is made before it (the lifecycle driver's stage sender, the
/// conversations' host): set once the broker exists, cleared when its loop has ended, so
/// that what outlives it gets a clear answer instead of a broker that no longer listens.
final class BrokerLink: Sendable {
    private let held = Mutex<Broker?>(nil)

    init() {}

    /// The broker, while it runs.
    var broker: Broker? { held.withLock { $0 } }

    /// Links `broker`, or unlinks with nil.
    func set(_ broker: Broker?) {
        held.withLock { $0 = broker }
    }
}
