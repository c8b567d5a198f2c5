import IntentProtocol

/// The trace of the lifecycle a task drives (wire.md, section 5b).
enum LifecycleTrace {
    /// The `traceparent` of the SUBMIT being driven.
    @TaskLocal static var current: String?
}

/// Adds the lifecycle's `traceparent` to every stage request it sends, so each extension
/// stage logs the SUBMIT's trace id.
struct TracingStageSender<Wrapped: StageSender>: StageSender {
    let wrapped: Wrapped

    func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
        await wrapped.stage(app: app, intent: intent, stage: stage, body: traced(body))
    }

    func stage(
        app: String, intent: String, stage: Stage, body: [UInt8], key: String?, batched: Bool, route: CarriedRoute?
    ) async -> StageReply {
        await wrapped.stage(app: app, intent: intent, stage: stage, body: traced(body), key: key, batched: batched, route: route)
    }

    private func traced(_ body: [UInt8]) -> [UInt8] {
        guard let trace = LifecycleTrace.current else { return body }
        return TraceParent.adding(trace, to: body) ?? body
    }
}
