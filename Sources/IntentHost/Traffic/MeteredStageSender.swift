import IntentProtocol

/// A `StageSender` that counts every request it sends (one stage, or a batch of them), by
/// app, in a `TrafficMeter`.
struct MeteredStageSender<Inner: StageSender>: StageSender {
    let inner: Inner
    let meter: TrafficMeter

    func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
        await self.stage(app: app, intent: intent, stage: stage, body: body, key: nil, batched: false)
    }

    func stage(app: String, intent: String, stage: Stage, body: [UInt8], key: String?, batched: Bool) async -> StageReply {
        let start = ContinuousClock.now
        let reply = await inner.stage(app: app, intent: intent, stage: stage, body: body, key: key, batched: batched)
        meter.record(app: app, latency: start.duration(to: .now), failed: Self.isFailure(reply))
        return reply
    }

    /// Refusals and failures count as failed; any reply the extension sent does not.
    private static func isFailure(_ reply: StageReply) -> Bool {
        if case .reply = reply { false } else { true }
    }
}
