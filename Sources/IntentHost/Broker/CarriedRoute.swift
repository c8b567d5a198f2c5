/// The route a SUBMIT was admitted on, carried with its lifecycle so that each stage
/// need not look it up again by name. It stays valid while no instance has come or gone
/// and no authorization has changed since (the stamps); the lock is checked again on every
/// stage all the same.
///
/// `Route` belongs to the broker thread; this box may travel with the lifecycle's task,
/// but opens only on the broker thread.
final class CarriedRoute: @unchecked Sendable {
    private let route: Route
    /// `ExtensionRegistry.generation` when it was admitted.
    let generation: Int
    /// The broker's count of authorization changes when it was admitted.
    let authorizations: Int

    init(_ route: Route, generation: Int, authorizations: Int) {
        self.route = route
        self.generation = generation
        self.authorizations = authorizations
    }

    /// The route, on the broker thread; nil anywhere else.
    func route(on executor: BrokerExecutor) -> Route? {
        executor.isOnBrokerThread ? route : nil
    }
}
