import Logging
import IntentProtocol

extension Broker {
    /// Drives an admitted SUBMIT through its lifecycle and answers its client. It runs on
    /// the broker actor, and so does every step of `driver` (this module's async functions
    /// run on their caller's executor): each stage is a call into the broker in place, and
    /// its reply resumes the lifecycle with one mailbox entry.
    func drive(_ job: LifecycleJob, with driver: LifecycleDriver, log: Logger) async {
        let started = ContinuousClock.now
        // The client's trace, or a new one: every stage of this lifecycle carries it.
        let trace = TraceParent.find(in: job.body) ?? TraceParent.make()
        log.debug("submit", metadata: ["app": "\(job.app)", "intent": "\(job.intent.name)", "trace": "\(TraceParent.traceID(of: trace) ?? "")"])
        var outcome = await LifecycleTrace.$current.withValue(trace) {
            await driver.run(app: job.app, intent: job.intent, body: job.body, batched: job.batched, route: job.route)
        }
        log.debug(
            "\(outcome.outcome.rawValue) (\(outcome.code))",
            metadata: ["app": "\(job.app)", "intent": "\(job.intent.name)", "session": "\(outcome.sessionId)", "trace": "\(TraceParent.traceID(of: trace) ?? "")"])
        RequestMetrics.host.finished(
            app: job.app, intent: job.intent.name, stage: "submit", outcome: outcome.outcome.rawValue,
            after: started.duration(to: .now))
        outcome.traceparent = trace
        finishLifecycle(routingID: job.routingID, requestID: job.requestID, body: outcome.serialized())
    }
}
