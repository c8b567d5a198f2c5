import Foundation
import Logging
import IntentProtocol
import Synchronization

/// Starts the configured extensions as child processes, each in its own sandbox (see
/// `SandboxProfile`) with its own resource limits, a clean start (empty signal mask, default
/// signal dispositions, a minimal environment) and its output in its own log file, and
/// restarts one that ends, with back-off.
///
/// An extension that exits with status 78 (its registration was rejected, or its
/// configuration is wrong) is not restarted: starting it again would fail the same way.
///
/// Each child is started from a thread of its own, which then waits for it: bubblewrap's
/// `--die-with-parent` ties the child to the thread that started it.
final class ExtensionLauncher: Sendable {
    /// The exit status meaning "do not restart me".
    static let configurationExitStatus: Int32 = 78
    /// The exit status meaning "my data is damaged": shown as unhealthy, not restarted.
    static let damagedDataExitStatus: Int32 = 74

    private struct Child {
        var pid: pid_t
        var token: String
        var sandboxed: Bool
        /// The CPU time its processes may use together.
        var cpuSeconds: Int?

        /// Its pid in the log: sandboxed, the sandbox's (bubblewrap's), which is not the
        /// extension's own that `status` shows.
        var logged: String { sandboxed ? "sandbox pid \(pid)" : "pid \(pid)" }
    }

    /// What every launch uses, settled by the first `launch`.
    private struct Runtime: Sendable {
        var profile: SandboxProfile?
        var cgroups: CgroupV1?
    }

    private let config: HostConfiguration
    private let onExit: @Sendable (String) -> Void
    /// The launches running now, for STATUS.
    let ledger: LaunchLedger
    /// Every configured launch, running or not, for STATUS and RESTART.
    let board = LaunchBoard()
    private let children = Mutex<[String: Child]>([:])
    private let logs = Mutex<[String: ExtensionLog]>([:])
    private let runtime = Mutex<Runtime?>(nil)
    private let stopping = Atomic<Bool>(false)
    /// Log readers still copying an extension's output: a stop waits for them, so the lines
    /// an extension writes as it ends ("stopped") reach its log.
    private let logReaders = Atomic<Int>(0)
    /// Children stopped for using more CPU time than their limit, with how much they used.
    private let overCPU = Mutex<[pid_t: Double]>([:])
    /// Children killed for not answering (a hung or stopped process), by launch token, with why.
    private let unresponsive = Mutex<[String: String]>([:])
    private let log = Logger(label: HostLog.label)
    private static let spawnLock = Mutex(())
    private let identities: ExtensionIdentities

    /// `onExit` gets the launch token of every child that ends.
    init(config: HostConfiguration, ledger: LaunchLedger, onExit: @escaping @Sendable (String) -> Void) {
        self.config = config
        self.ledger = ledger
        identities = ExtensionIdentities(state: config.stateDirectory)
        self.onExit = onExit
    }

    /// Finds the executable for an extension name such as `messaging`.
    func executable(for name: String) throws -> URL {
        guard let file = config.executables[name] else {
            let known = config.executables.keys.sorted().joined(separator: ", ")
            throw ConfigurationError("unknown extension \"\(name)\" (known: \(known); add others under \"executables\" in the config file)")
        }
        let url: URL
        if file.contains("/") {
            url = URL(fileURLWithPath: file)
        } else {
            let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            url = me.deletingLastPathComponent().appendingPathComponent(file)
        }
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw ConfigurationError("the extension \"\(name)\" should be at \(url.path), but no executable is there (build it first)")
        }
        return url
    }

    /// Finds every configured extension's executable and manifest; fails if one is unknown
    /// or missing. `bench:4` asks for four instances of `bench`, named `bench#1` to `bench#4`.
    /// Each name once; each app (bundle id) under one name only, since its sandbox, its data
    /// and its key go with the bundle id: a second name declaring it would have them too.
    func resolveAll() throws -> [LaunchTarget] {
        var result: [LaunchTarget] = []
        var bundles: [String: String] = [:]
        for entry in config.extensions {
            let parts = entry.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let name = parts.first, !name.isEmpty, let count = parts.count == 2 ? Int(parts[1]) : 1, (1...64).contains(count) else {
                throw ConfigurationError("\"\(entry)\": write NAME or NAME:COUNT with COUNT from 1 to 64")
            }
            guard name.utf8.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw ConfigurationError("\"\(name)\": an extension's name is 1 to 64 letters, digits, '-' and '_'")
            }
            guard !result.contains(where: { $0.name == name || $0.name.hasPrefix(name + "#") }) else {
                throw ConfigurationError("\"\(name)\" is in extensions twice (\(name):COUNT starts several instances)")
            }
            let url = try executable(for: name)
            let manifest = try LaunchTarget.manifest(of: url, configured: config.manifests[name], name: name)
            let declared = try Manifest(contentsOf: manifest)
            let bundle = declared.registration.bundleIdentifier
            _ = try SandboxProfile.directoryName(bundle)
            if let other = bundles.updateValue(name, forKey: bundle) {
                throw ConfigurationError(
                    "the extensions \"\(other)\" and \"\(name)\" both declare the bundle identifier \(bundle); an app's sandbox, "
                        + "data and key are its own, so launch it under one name (\(other):COUNT for several instances)")
            }
            for i in 1...count {
                result.append(LaunchTarget(
                    name: count == 1 ? name : "\(name)#\(i)", executable: url, manifest: manifest,
                    registration: declared.registration, networkAccess: declared.networkAccess))
            }
        }
        return result
    }

    /// Starts the extensions `resolveAll` found. Refuses (throws) when they cannot be
    /// sandboxed, unless the config turned the sandbox off.
    func launch(_ targets: [LaunchTarget]) throws {
        guard !targets.isEmpty else { return }
        let runtime = try prepare()
        for target in targets {
            do { try start(target, runtime, backoff: .seconds(1)) } catch {
                board.failed(target, error)
                throw error
            }
        }
    }

    /// Checks bubblewrap and creates the host's cgroups, once; says in the log what applies.
    private func prepare() throws -> Runtime {
        if let ready = runtime.withLock({ $0 }) { return ready }
        var ready = Runtime()
        if config.sandbox {
            do { ready.profile = try SandboxProfile.make(bubblewrap: config.bubblewrapPath) } catch {
                throw ConfigurationError(
                    "refusing to launch extensions without a sandbox: \(error). "
                        + "Start intentd with --no-sandbox (or \"sandbox\": false in the config) to run them unsandboxed.")
            }
            let runtime = ready.profile?.runtimeDirectories.joined(separator: ", ") ?? ""
            log.info("sandbox: \(ready.profile?.bubblewrap ?? "bwrap") for every launched extension\(runtime.isEmpty ? "" : "; Swift runtime \(runtime)")")
        } else {
            log.warning("sandbox: OFF (--no-sandbox): launched extensions see the host's files, network and processes")
        }
        var why = "cgroups are off in the config"
        ready.cgroups = config.cgroups ? CgroupV1.make(reason: &why) : nil
        if let cgroups = ready.cgroups {
            let cpu = cgroups.cpuacct != nil ? "CPU time by cgroup v1 (\(cgroups.cpuacct ?? "")); open files" : "CPU time and open files"
            log.info("limits: memory and processes by cgroup v1 (\(cgroups.memory), \(cgroups.pids)); \(cpu) by rlimit")
            if cgroups.cpuacct != nil {
                let watch = Thread { [self] in watchCPU(cgroups) }
                watch.name = "intentd-cpu-watch"
                watch.start()
            }
        } else {
            log.info("limits: by rlimit only (\(why))")
        }
        runtime.withLock { $0 = ready }
        return ready
    }

    /// The log file of extensions with `bundle`, opened once.
    private func extensionLog(_ bundle: String) throws -> ExtensionLog {
        try logs.withLock { logs in
            if let open = logs[bundle] { return open }
            let made = try ExtensionLog(directory: config.stateDirectory.url.appendingPathComponent("logs"), bundleIdentifier: bundle)
            logs[bundle] = made
            return made
        }
    }

    /// Starts `target` from a new thread, which then waits for it; returns once it runs.
    private func start(_ target: LaunchTarget, _ runtime: Runtime, backoff: Duration) throws {
        let started = Mutex<Result<Void, any Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            let spawned: (Child, ContinuousClock.Instant)
            do {
                spawned = (try spawn(target, runtime), .now)
                started.withLock { $0 = .success(()) }
                ready.signal()
            } catch {
                started.withLock { $0 = .failure(error) }
                ready.signal()
                return
            }
            supervise(target, runtime, spawned.0, started: spawned.1, backoff: backoff)
        }
        thread.name = "intentd-launch"
        thread.start()
        ready.wait()
        try started.withLock { $0 }?.get()
    }

    /// Starts one process of `target`: its cgroup, its sandbox, its environment, its log.
    private func spawn(_ target: LaunchTarget, _ runtime: Runtime) throws -> Child {
        let name = target.name
        let bundle = try SandboxProfile.directoryName(target.bundleIdentifier)
        let sandbox = config.stateDirectory.sandbox(for: bundle)
        try StateDirectory.create(sandbox)
        let limits = config.limits.overridden(by: config.extensionLimits[name.split(separator: "#").first.map(String.init) ?? name])
        let group = SandboxProfile.groupName(name)
        let procs = try runtime.cgroups?.prepare(group, limits) ?? []
        let token = LaunchLedger.makeToken()

        var command: [String]
        var endpoint = config.extensionEndpoint
        var inside = sandbox.path
        var manifest = target.manifest.path
        if let profile = runtime.profile {
            let layout = try profile.layout(for: target, sandbox: sandbox, endpoint: config.extensionEndpoint)
            (command, endpoint, inside, manifest) = (layout.command, layout.endpoint, layout.sandbox, layout.manifest)
        } else {
            command = [target.executable.path]
        }
        command += ["--manifest", manifest]
        var environment = self.environment(for: target, endpoint: endpoint, sandbox: inside, token: token, sandboxed: runtime.profile != nil)
        // The one place where other concerns add their variables for a child: its identity.
        environment.merge(try identities.environment(for: target)) { _, identity in identity }

        let cpuByCgroup = runtime.cgroups?.cpuacct != nil
        let argv = limits.startCommand(command, in: sandbox.path, joining: procs, cgroup: runtime.cgroups != nil, cpuByCgroup: cpuByCgroup)

        let output = try extensionLog(bundle)
        // Known before the process starts, so its registration finds it however soon it comes.
        ledger.expect(token, bundle: target.registration.bundleIdentifier)
        // One spawn at a time, so no child inherits another's pipe before it is marked close-on-exec.
        let (read, pid) = try Self.spawnLock.withLock { [ledger] _ in
            let (read, write) = try SystemCall.pipe()
            defer { SystemCall.close(write) }
            do { return (read, try SystemCall.spawn(argv, environment: environment, output: write)) } catch {
                SystemCall.close(read)
                ledger.remove(token)
                throw ConfigurationError("cannot start the extension \(name): \(error)")
            }
        }
        logReaders.add(1, ordering: .relaxed)
        let reader = Thread { [board, self] in
            output.copyLines(from: read, name: name) { board.noteLine(name, $0) }
            self.logReaders.subtract(1, ordering: .relaxed)
        }
        reader.name = "intentd-extension-log"
        reader.start()

        let state = SandboxStatus(
            state: runtime.profile == nil ? .off : .on, name: name, network: runtime.profile == nil ? nil : target.networkAccess,
            limits: limits.status(cgroup: runtime.cgroups != nil, cpuByCgroup: cpuByCgroup), log: output.url.path)
        ledger.record(token, LaunchLedger.Entry(sandbox: state, pid: pid, sandboxed: runtime.profile != nil))
        board.started(target, pid: pid)
        let child = Child(pid: pid, token: token, sandboxed: runtime.profile != nil, cpuSeconds: limits.cpuSeconds)
        let late = children.withLock { children in
            children[name] = child
            return stopping.load(ordering: .relaxed)
        }
        if late { terminate([child], signal: SIGKILL) }
        log.info("started extension \(name) (\(target.executable.lastPathComponent), \(child.logged)\(runtime.profile == nil ? ", no sandbox" : ""); log \(output.url.path))", metadata: ["instance": "\(name)"])
        return child
    }

    /// The child's whole environment: what the protocol needs, `LANG`, and the variables the
    /// config passes on by name; nothing else of the host's.
    private func environment(for target: LaunchTarget, endpoint: String, sandbox: String, token: String, sandboxed: Bool) -> [String: String] {
        let host = ProcessInfo.processInfo.environment
        var environment = [
            "INTENTD_EXTENSION_ENDPOINT": endpoint, "INTENTD_SANDBOX_DIR": sandbox, "INTENTD_LAUNCH_TOKEN": token,
            "HOME": sandbox, "TMPDIR": sandbox, "PATH": "/usr/bin:/bin",
        ]
        // Outside a pid namespace the child can watch its parent; inside, bubblewrap does.
        if !sandboxed { environment["INTENTD_PARENT_PID"] = String(getpid()) }
        for name in ["LANG", "INTENTD_LOG_LEVEL"] + config.passEnvironment {
            if let value = host[name] { environment[name] = value }
        }
        return environment
    }

    /// Waits for the child, reports its end, and restarts it after its back-off.
    private func supervise(_ target: LaunchTarget, _ runtime: Runtime, _ child: Child, started: ContinuousClock.Instant, backoff: Duration) {
        let name = target.name
        var termination: SystemCall.Termination
        do { termination = try SystemCall.wait(child.pid) } catch {
            log.error("cannot wait for the extension \(name): \(error)", metadata: ["instance": "\(name)"])
            return
        }
        // bubblewrap exits with 128 + N when the extension was killed by signal N.
        if child.sandboxed, case .exited(let status) = termination, status > 128 { termination = .signaled(status - 128) }
        let usedCPU = overCPU.withLock { $0.removeValue(forKey: child.pid) }
        let hung = unresponsive.withLock { $0.removeValue(forKey: child.token) }
        let how = usedCPU.map { String(format: "stopped after %.1f s of CPU time, over its limit", $0) }
            ?? hung.map { "killed: it stopped answering (\($0))" } ?? "\(termination)"
        ledger.remove(child.token)
        onExit(child.token)
        let stillOurs = children.withLock { children in
            guard children[name]?.pid == child.pid else { return false }
            children[name] = nil
            return true
        }
        runtime.cgroups?.remove(SandboxProfile.groupName(name))
        guard stillOurs, !stopping.load(ordering: .relaxed) else { return }
        let ran = started.duration(to: .now)
        // `intentctl restart` stopped it: start it again now, with a fresh back-off.
        let asked = board.takeWake(name)
        if termination == .exited(Self.configurationExitStatus) && !asked {
            board.ended(name, how, ran: ran, restartAt: nil)
            log.error("extension \(name) exited with status 78 (rejected or misconfigured); not restarting it until `intentctl restart`", metadata: ["instance": "\(name)"])
            return
        }
        if termination == .exited(Self.damagedDataExitStatus) && !asked {
            board.ended(name, how, ran: ran, restartAt: nil, final: .unhealthy)
            log.error("extension \(name) exited with status 74 (its data is damaged); not restarting it until `intentctl restart`", metadata: ["instance": "\(name)"])
            return
        }
        if case .signaled(let signal) = termination, !asked { HostEvents.killed(instance: name, signal: signal) }
        // A child that ran a while gets a fresh back-off; one that keeps crashing waits longer.
        let delay = asked ? .zero : ran > LaunchBoard.shortRun ? Duration.seconds(1) : backoff
        let deadline = ContinuousClock.now + delay
        board.ended(name, how, ran: ran, restartAt: deadline)
        log.warning("extension \(name) (pid \(child.pid)) \(how); restarting in \(delay)", metadata: ["instance": "\(name)"])
        var next = asked ? .seconds(1) : min(delay * 2, .seconds(32))
        while ContinuousClock.now < deadline && !stopping.load(ordering: .relaxed) {
            if board.takeWake(name) {
                next = .seconds(1)
                break
            }
            usleep(20_000)
        }
        guard !stopping.load(ordering: .relaxed) else { return }
        HostEvents.restart(instance: name, asked: asked)
        do { try start(target, runtime, backoff: next) } catch {
            board.failed(target, error)
            log.error("cannot restart extension \(name): \(error)", metadata: ["instance": "\(name)"])
        }
    }

    /// Kills the child that launch `token` started, which stopped answering (`why`: no
    /// heartbeat in time): a hung or stopped process is restarted with the usual back-off,
    /// as one that crashed is, instead of being left to hold its place.
    func killUnresponsive(token: String, because why: String) {
        // Noted by launch token, which no other launch has: a note `supervise` missed names no other.
        guard let (name, child) = children.withLock({ children -> (String, Child)? in
            guard let found = children.first(where: { $0.value.token == token }) else { return nil }
            unresponsive.withLock { $0[token] = why }
            return (found.key, found.value)
        }) else { return }
        log.warning("killing extension \(name) (\(child.logged)): it stopped answering (\(why))", metadata: ["instance": "\(name)"])
        terminate([child], signal: SIGKILL)
    }

    /// Starts `app`'s launches again at once: one waiting out its back-off starts now, one
    /// that was rejected or could not start is started, one running is stopped (SIGTERM) and
    /// started. Returns them as they are now; nil if this host launches no such app.
    func restart(_ app: String) -> [LaunchStatus]? {
        let found = board.launches(of: app)
        guard !found.isEmpty else { return nil }
        for launch in found {
            switch launch.state {
            case .running:
                board.wake(launch.name)
                if let child = children.withLock({ $0[launch.name] }) {
                    terminate([child], signal: SIGTERM)
                    // One that does not stop on SIGTERM is killed after a grace, as at a stop.
                    let deadline = ContinuousClock.now + Self.restartGrace
                    func stillThere() -> Bool { children.withLock { $0[launch.name]?.pid == child.pid } }
                    while stillThere() && ContinuousClock.now < deadline { usleep(10_000) }
                    if stillThere() { terminate([child], signal: SIGKILL) }
                }
            case .restarting, .crashLooping:
                board.wake(launch.name)
            case .rejected, .unhealthy, .failed:
                guard !stopping.load(ordering: .relaxed), let ready = runtime.withLock({ $0 }) else { continue }
                log.info("restarting extension \(launch.name) on request", metadata: ["instance": "\(launch.name)"])
                do { try start(launch.target, ready, backoff: .seconds(1)) } catch {
                    board.failed(launch.target, error)
                    log.error("cannot restart extension \(launch.name): \(error)", metadata: ["instance": "\(launch.name)"])
                }
            }
        }
        let names = Set(found.map(\.name))
        return board.status().filter { names.contains($0.name) }
    }

    /// Twice a second, the CPU time of each child's cgroup (its processes together, those
    /// gone included) against its limit: one over it is killed, every process of it, and
    /// restarted with the usual back-off, as a process over `RLIMIT_CPU` would be. Helpers
    /// that each stay under the limit do not give an extension more.
    private func watchCPU(_ cgroups: CgroupV1) {
        while !stopping.load(ordering: .relaxed) {
            usleep(500_000)
            for (name, child) in children.withLock({ Array($0) }) {
                let group = SandboxProfile.groupName(name)
                guard let limit = child.cpuSeconds, let used = cgroups.cpuSeconds(group), used > Double(limit),
                    overCPU.withLock({ $0.updateValue(used, forKey: child.pid) == nil })
                else { continue }
                log.error(
                    "extension \(name) (pid \(child.pid)) used \(String(format: "%.1f", used)) s of CPU time, over its limit of \(limit) s; stopping it",
                    metadata: ["instance": "\(name)"])
                cgroups.endProcesses(group)
            }
        }
    }

    /// How long a restarted extension has to stop on SIGTERM before it gets SIGKILL.
    static let restartGrace = Duration.seconds(2)

    /// Stops every child: SIGTERM to the extension and its process group, then SIGKILL for any
    /// still running after a grace period; then removes the cgroups.
    func stopAll(grace: Duration = .seconds(2)) {
        stopping.store(true, ordering: .relaxed)
        let running = children.withLock { Array($0.values) }
        terminate(running, signal: SIGTERM)
        let deadline = ContinuousClock.now + grace
        func anyLeft() -> Bool { !children.withLock { $0.isEmpty } }
        while anyLeft() && ContinuousClock.now < deadline { usleep(10_000) }
        let left = children.withLock { Array($0.values) }
        terminate(left, signal: SIGKILL)
        let last = ContinuousClock.now + .seconds(1)
        while anyLeft() && ContinuousClock.now < last { usleep(10_000) }
        // Their last lines, up to a second (a helper they left may hold the pipe open).
        let drained = ContinuousClock.now + .seconds(1)
        while logReaders.load(ordering: .relaxed) > 0 && ContinuousClock.now < drained { usleep(10_000) }
        runtime.withLock { $0 }?.cgroups?.removeAll()
    }

    /// Signals each child: inside a sandbox the extension (bubblewrap's grandchild) and its
    /// session's process group; SIGKILL goes to bubblewrap too, which takes the whole pid
    /// namespace with it. Without a sandbox, the child's process group.
    private func terminate(_ list: [Child], signal: Int32) {
        for child in list {
            guard child.sandboxed else {
                SystemCall.signal(-child.pid, signal)
                continue
            }
            let inner = SystemCall.children(of: child.pid).first.flatMap { SystemCall.children(of: $0).first }
            if let inner {
                SystemCall.signal(-inner, signal)
                SystemCall.signal(inner, signal)
            }
            if inner == nil || signal == SIGKILL { SystemCall.signal(child.pid, signal) }
        }
    }
}
