import Foundation
import IntentProtocol
import Synchronization

/// Starts the configured extensions as child processes, each with its own environment
/// and sandbox under the state directory, and restarts one that crashes, with back-off.
///
/// An extension that exits with status 78 (its registration was rejected, or its
/// configuration is wrong) is not restarted: starting it again would fail the same way.
final class ExtensionLauncher: Sendable {
    /// The exit status meaning "do not restart me".
    static let configurationExitStatus: Int32 = 78

    private struct Child {
        var process: Process
        var started: ContinuousClock.Instant
        var backoff: Duration
    }

    private let config: HostConfiguration
    private let onExit: @Sendable (Int32) -> Void
    private let children = Mutex<[String: Child]>([:])
    private let stopping = Atomic<Bool>(false)
    private let log = Log("intentd")
    private let identities: ExtensionIdentities

    init(config: HostConfiguration, onExit: @escaping @Sendable (Int32) -> Void) {
        self.config = config
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
    func resolveAll() throws -> [LaunchTarget] {
        var result: [LaunchTarget] = []
        for entry in config.extensions {
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            let name = parts[0]
            guard let count = parts.count == 2 ? Int(parts[1]) : 1, (1...64).contains(count) else {
                throw ConfigurationError("\"\(entry)\": write NAME or NAME:COUNT with COUNT from 1 to 64")
            }
            let url = try executable(for: name)
            let manifest = try LaunchTarget.manifest(of: url, configured: config.manifests[name], name: name)
            let registration = try Manifest(contentsOf: manifest).registration
            for i in 1...count {
                result.append(LaunchTarget(
                    name: count == 1 ? name : "\(name)#\(i)", executable: url, manifest: manifest, registration: registration))
            }
        }
        return result
    }

    /// Starts the extensions `resolveAll` found.
    func launch(_ targets: [LaunchTarget]) throws {
        for target in targets { try launch(target, backoff: .seconds(1)) }
    }

    private func launch(_ target: LaunchTarget, backoff: Duration) throws {
        let (name, url) = (target.name, target.executable)
        let process = Process()
        process.executableURL = url
        var environment = ProcessInfo.processInfo.environment
        environment["INTENTD_EXTENSION_ENDPOINT"] = config.extensionEndpoint
        environment["INTENTD_STATE_DIR"] = config.stateDirectory.path
        environment["INTENTD_PARENT_PID"] = String(getpid())
        environment.merge(try identities.environment(for: target)) { _, identity in identity }
        process.environment = environment
        process.terminationHandler = { [weak self] process in
            self?.exited(target, process)
        }
        try process.run()
        children.withLock { $0[name] = Child(process: process, started: .now, backoff: backoff) }
        log.info("started extension \(name) (\(url.lastPathComponent), pid \(process.processIdentifier))")
    }

    private func exited(_ target: LaunchTarget, _ process: Process) {
        let name = target.name
        let pid = process.processIdentifier
        let status = process.terminationStatus
        onExit(pid)
        guard !stopping.load(ordering: .relaxed) else { return }
        guard let child = children.withLock({ $0.removeValue(forKey: name) }) else { return }
        if status == Self.configurationExitStatus && process.terminationReason == .exit {
            log.error("extension \(name) exited with status \(status) (rejected or misconfigured); not restarting it")
            return
        }
        // A child that ran a while gets a fresh back-off; one that keeps crashing waits longer.
        let ranLong = child.started.duration(to: .now) > .seconds(30)
        let delay = ranLong ? Duration.seconds(1) : child.backoff
        let how = process.terminationReason == .uncaughtSignal ? "was killed by signal \(status)" : "exited with status \(status)"
        log.warning("extension \(name) (pid \(pid)) \(how); restarting in \(delay)")
        let next = min(delay * 2, .seconds(32))
        Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard let self, !self.stopping.load(ordering: .relaxed) else { return }
            do { try self.launch(target, backoff: next) } catch {
                self.log.error("cannot restart extension \(name): \(error)")
            }
        }
    }

    /// Stops every child: SIGTERM, then SIGKILL for any still running after a grace period.
    func stopAll(grace: Duration = .seconds(2)) {
        stopping.store(true, ordering: .relaxed)
        let processes = children.withLock { children in
            defer { children.removeAll() }
            return children.values.map(\.process)
        }
        for process in processes where process.isRunning { process.terminate() }
        let deadline = ContinuousClock.now + grace
        for process in processes {
            while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }
}
