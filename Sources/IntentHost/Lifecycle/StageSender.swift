import IntentProtocol
import ZeroMQ

/// Runs one stage on an app's extension: the broker, or a stand-in in tests.
protocol StageSender: Sendable {
    func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply
    /// The same, with the handle's idempotency key, which the broker adds to the body;
    /// `batched` when the body carries a batch (wire.md, section 5b), which only an app
    /// that declared batches may be sent; `route`, the one a SUBMIT was admitted on.
    func stage(
        app: String, intent: String, stage: Stage, body: [UInt8], key: String?, batched: Bool, route: CarriedRoute?
    ) async -> StageReply
}

extension StageSender {
    /// A sender that does not route through the broker ignores the key and the route.
    func stage(
        app: String, intent: String, stage: Stage, body: [UInt8], key: String?, batched: Bool, route: CarriedRoute?
    ) async -> StageReply {
        await self.stage(app: app, intent: intent, stage: stage, body: body)
    }
}

/// The broker's side of `StageSender`: a call into the `Broker` actor, which resumes the
/// lifecycle on the broker thread when the reply comes.
struct BrokerStageSender: StageSender {
    let link: BrokerLink

    func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
        await self.stage(app: app, intent: intent, stage: stage, body: body, key: nil, batched: false, route: nil)
    }

    func stage(
        app: String, intent: String, stage: Stage, body: [UInt8], key: String?, batched: Bool, route: CarriedRoute?
    ) async -> StageReply {
        guard let broker = link.broker else { return .failed(.shuttingDown, "the host is shutting down") }
        return await broker.stage(app: app, intent: intent, stage: stage, body: body, key: key, batched: batched, route: route)
    }
}
