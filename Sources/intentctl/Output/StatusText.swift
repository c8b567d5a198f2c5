import IntentProtocol

/// The host's status as a person reads it.
struct StatusText: CustomStringConvertible {
    let status: HostStatus

    init(_ status: HostStatus) { self.status = status }

    var description: String {
        var lines = ["device: \(status.locked ? "locked" : "unlocked")"]
        // The host's own address, checked before it is shown: a peer could pose as the host.
        if let http = status.http.map(PeerNames.loggable) { lines.append("metrics: \(http)/metrics") }
        if status.extensions.isEmpty { lines.append("extensions: none registered") }
        for e in status.extensions {
            let also = e.alternativeAppNames.isEmpty ? "" : " (also: \(e.alternativeAppNames.joined(separator: ", ")))"
            lines.append("\(e.appName)\(also) — \(e.bundleIdentifier), \(e.instances) instance\(e.instances == 1 ? "" : "s")")
            lines.append("  supports: \(e.intentsSupported.joined(separator: ", "))")
            if let authorization = e.authorization { lines.append("  authorization: \(Self.describe(authorization))") }
            let sandboxes = (e.sandboxes ?? []).map(Self.describe)
            for (i, text) in sandboxes.enumerated() where sandboxes.firstIndex(of: text) == i {
                let which = Set(sandboxes).count == 1 ? "" : " (instance \(sandboxes.indices.filter { sandboxes[$0] == text }.map { String($0 + 1) }.joined(separator: ", ")))"
                lines.append("  sandbox\(which): \(text)")
            }
            if let keys = e.keyFingerprints {
                let trust = e.trusted == true ? "trusted" : "NOT trusted (untrusted since it registered)"
                lines.append("  key: \(keys.isEmpty ? "none" : keys.joined(separator: ", ")) (\(trust))")
            }
            if !e.intentsRestrictedWhileLocked.isEmpty {
                lines.append("  restricted while locked: \(e.intentsRestrictedWhileLocked.joined(separator: ", "))")
            }
        }
        if let launches = status.launches, !launches.isEmpty {
            lines.append("launched extensions:")
            let registered = Set(status.extensions.map(\.bundleIdentifier))
            for launch in launches { lines.append("  " + Self.describe(launch, registered: registered.contains(launch.bundleIdentifier))) }
        }
        for (app, count) in (status.waitingRequests ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append("\(app): \(count) request\(count == 1 ? "" : "s") waiting for an instance to come back")
        }
        if !status.rejected.isEmpty {
            lines.append("rejected registrations:")
            for r in status.rejected {
                let key = r.keyFingerprint.map { ", key \($0)" } ?? ""
                lines.append("  \(r.appName) (\(r.bundleIdentifier)\(key)) at \(r.time): \(r.reason) [\(r.code.rawValue)]")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// "messaging (MonkeyChat): restarting in 3.9 s, restarted 2 times; last exited with status 1: fatal: …";
    /// a running one whose app has no instance `registered` says so (starting, or not answering).
    static func describe(_ launch: LaunchStatus, registered: Bool = true) -> String {
        let wait = launch.restartInSeconds.map { " in \($0) s" } ?? ""
        var state = switch launch.state {
        case .running:
            "running" + (launch.processIdentifier.map { ", pid \($0)" } ?? "")
                + (registered ? "" : ", not registered (starting, or not answering)")
        case .restarting: "restarting" + wait
        case .crashLooping: "crash-looping, restarting" + wait
        case .rejected: "rejected, not restarted (`intentctl restart \(launch.appName)` to try again)"
        case .unhealthy: "UNHEALTHY: its data is damaged; not restarted (`intentctl restart \(launch.appName)` once repaired)"
        case .failed: "cannot start"
        }
        if launch.restarts > 0 { state += ", restarted \(launch.restarts) time\(launch.restarts == 1 ? "" : "s")" }
        var last: [String] = []
        if let exit = launch.lastExit { last.append("its last process \(exit)") }
        if let error = launch.lastError { last.append(launch.state == .failed ? error : "last line: \(error)") }
        return "\(launch.name) (\(launch.appName)): \(state)" + (last.isEmpty ? "" : "; " + last.joined(separator: "; "))
    }

    /// "allowed", "not asked yet": as the console says it.
    static func describe(_ authorization: AuthorizationStatus) -> String {
        switch authorization {
        case .authorized: "allowed"
        case .denied: "denied"
        case .restricted: "restricted"
        case .notDetermined: "not asked yet"
        }
    }

    /// "on, no network; limits: memory 512 MiB (cgroup), …"
    static func describe(_ sandbox: SandboxStatus) -> String {
        let state = switch sandbox.state {
        case .on: "on, " + (sandbox.network == true ? "shares the host's network" : "no network")
        case .off: "off (the host runs with --no-sandbox)"
        case .outside: "outside the host's sandbox (not launched by this host)"
        }
        guard let limits = sandbox.limits, !limits.isEmpty else { return state }
        let list = limits.map { limit in
            let name = limit.resource == "openFiles" ? "open files" : limit.resource
            return "\(name) \(limit.value)\(limit.unit.isEmpty ? "" : " \(limit.unit)") (\(limit.enforcedBy))"
        }
        return state + "; limits: " + list.joined(separator: ", ")
    }
}
