import Foundation
import IntentProtocol

/// An `intentd` started by a tool (such as `intentctl bench --start-host`) in its own
/// state directory, stopped when the tool is done.
public final class HostProcess {
    /// The running process.
    public let process: Process
    /// Its state directory.
    public let state: StateDirectory
    /// Its client endpoint.
    public let clientEndpoint: String
    /// The local client's identity for it (its keys are made when the host starts).
    public private(set) var security: ConnectionSecurity?
    private let removeState: Bool

    /// Starts intentd (found beside the running executable) with `extensions`, over ipc
    /// or over tcp on loopback, with `hostArguments` more (such as `--no-sandbox`), and waits
    /// until `apps` and every launched instance have registered, at most `wait`. `started`
    /// hears the process and its temporary state directory the moment it starts.
    public init(
        extensions: [String], apps: [String], tcp: Bool, stateDirectory: String? = nil, log: URL? = nil, hostArguments: [String] = [],
        wait: Duration = .seconds(30), started: (Int32, String?) -> Void = { _, _ in }
    ) throws {
        // Its own state directory, made so that no other user can have made it first.
        let dir = try stateDirectory ?? PrivateDirectory.make(prefix: "intentd-bench").path
        removeState = stateDirectory == nil
        state = StateDirectory(explicit: dir)
        try StateDirectory.create(state.url)
        var arguments = ["--state-dir", state.path, "--extensions", extensions.joined(separator: ",")] + hostArguments
        // A host started for a run does not take the HTTP port of the user's own host.
        if !hostArguments.contains("--http") { arguments += ["--http", "127.0.0.1:0"] }
        if tcp {
            let port = Int.random(in: 20_000...59_000)
            clientEndpoint = "tcp://127.0.0.1:\(port)"
            arguments += ["--client-endpoint", clientEndpoint, "--extension-endpoint", "tcp://127.0.0.1:\(port + 1)"]
        } else {
            clientEndpoint = state.clientEndpoint
        }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process = Process()
        process.executableURL = me.deletingLastPathComponent().appendingPathComponent("intentd")
        process.arguments = arguments
        let logFile = log ?? state.url.appendingPathComponent("intentd.log")
        let handle = try OutputFile.open(logFile)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        started(process.processIdentifier, removeState ? state.path : nil)

        let deadline = ContinuousClock.now + wait
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                // What it said goes in the error: the log may go with a temporary state directory.
                let said = ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").split(separator: "\n").suffix(5)
                    .map { "\n  " + $0.prefix(300) }.joined()
                throw ClientError.malformed("intentd exited at start; see \(logFile.path)\(said)")
            }
            security = security ?? (try? ConnectionSecurity.client(state: state))
            if let security, let client = try? IntentClient(endpoint: clientEndpoint, timeout: .seconds(1), security: security),
                let status = try? client.status()
            {
                // A launch that will not be restarted, or that ended while its app has no
                // instance registered, will not register in time: say why now.
                let registeredNow = Set(status.extensions.map(\.bundleIdentifier))
                if let ended = status.launches?.first(where: { launch in
                    [.rejected, .unhealthy, .failed, .crashLooping].contains(launch.state)
                        || (launch.lastExit != nil && !registeredNow.contains(launch.bundleIdentifier))
                }) {
                    stop()
                    throw ClientError.extensionEnded(Self.describe(ended))
                }
                let registered = Set(status.extensions.map { $0.appName.lowercased() })
                let instances = status.extensions.reduce(0) { $0 + $1.instances }
                if apps.allSatisfy({ registered.contains($0.lowercased()) }) && instances >= Self.count(extensions) {
                    return
                }
            }
            usleep(100_000)
        }
        stop()
        throw ClientError.timeout(clientEndpoint, wait)
    }

    /// Why a launch ended before registering: how its process ended and the last line it wrote.
    static func describe(_ launch: LaunchStatus) -> String {
        "the extension \(launch.name) ended before all registered: \(launch.lastExit ?? "it could not start")"
            + (launch.lastError.map { "; the last line it wrote: \($0)" } ?? "")
    }

    /// How many extension instances `bench:4,messaging` asks for.
    static func count(_ extensions: [String]) -> Int {
        extensions.reduce(0) { $0 + (Int($1.split(separator: ":").dropFirst().first ?? "1") ?? 1) }
    }

    /// Stops the host (and so its extensions).
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if removeState { try? FileManager.default.removeItem(at: state.url) }
    }

    deinit { stop() }
}
