import IntentProtocol
import ZeroMQ

/// What other threads ask of the broker thread, through its mailbox.
enum BrokerCommand: Sendable {
    /// Run one stage on the app's extension, for the lifecycle driver; `key` is the
    /// handle's idempotency key (the body carries it too); `batched` when the body carries
    /// a batch whose last stage is `stage`; `route`, the one a SUBMIT was admitted on.
    case stage(
        app: String, intent: String, stage: Stage, body: [UInt8], key: String?, batched: Bool, route: CarriedRoute?,
        reply: @Sendable (StageReply) -> Void)
    /// Send a RESULT to a client.
    case answer(routingID: RoutingID, requestID: RequestID, body: [UInt8])
    /// Send a conversation's turn to a client: the answer to a SAY, whose place among the
    /// SAYs being worked on is given back.
    case turn(routingID: RoutingID, requestID: RequestID, body: [UInt8])
    /// Send a RESULT to a client, for a request not counted in flight (RESTART).
    case reply(routingID: RoutingID, requestID: RequestID, body: [UInt8])
    /// Report the apps, vocabularies, authorizations and lock, for a conversation.
    case world(reply: @Sendable (DialogWorld) -> Void)
    /// Record the user's first-use answer about an app, for a conversation.
    case authorizeApp(bundle: String, status: AuthorizationStatus, done: @Sendable () -> Void)
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
