import IntentProtocol
import ZeroMQ

/// What threads that are not tasks ask of the broker thread, through its mailbox; tasks
/// call the `Broker` actor instead.
enum BrokerCommand: Sendable {
    /// A launched extension process ended: the launch token it was given.
    case processExited(String)
    /// Close the sockets and return from `run`.
    case stop
    /// Run a task's job on the broker thread (see `BrokerExecutor`).
    case run(UnownedJob)
}

/// A SUBMIT the broker admitted, handed to the lifecycle driver.
struct LifecycleJob: Sendable {
    let routingID: RoutingID
    let requestID: RequestID
    let app: String
    let intent: IntentDefinition
    let body: [UInt8]
    /// Whether the app's extension takes batches (wire.md, section 5b).
    let batched: Bool
    /// The route it was admitted on, for each of its stages.
    let route: CarriedRoute
}
