import CoreMetrics

/// The host's counters of rare events, through swift-metrics: registrations accepted and
/// rejected, extensions restarted, and extensions ended by a signal (a sandbox limit, or a
/// kill from outside). Labels are names the host knows: a registered app, or a launch from
/// the config; a rejected registration's app is `other` unless it is registered.
enum HostEvents {
    /// A registration of `app`: `registered`, or the rejection's code.
    static func registration(app: String, outcome: String) {
        Counter(label: "intentd_registrations_total", dimensions: [("app", app), ("outcome", outcome)]).increment()
    }

    /// A launched extension (`instance`, its name in the config) started again after it ended.
    static func restart(instance: String, asked: Bool) {
        Counter(label: "intentd_extension_restarts_total", dimensions: [("instance", instance), ("reason", asked ? "requested" : "ended")])
            .increment()
    }

    /// A launched extension ended by `signal` that the host did not send: a sandbox limit
    /// (memory or processes: SIGKILL; CPU time: SIGXCPU, then SIGKILL) or a kill from outside.
    static func killed(instance: String, signal: Int32) {
        Counter(label: "intentd_extension_kills_total", dimensions: [("instance", instance), ("signal", "\(signal)")]).increment()
    }
}
