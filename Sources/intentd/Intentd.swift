import ArgumentParser
import Dispatch
import Foundation
import IntentConsole
import IntentHost
import IntentProtocol

@main
struct Intentd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intentd",
        abstract: "The intents host: routes intents from clients to extension processes over ZeroMQ.",
        discussion: """
            State (sockets, lock state, extension sandboxes) lives in --state-dir, else \
            $INTENTD_STATE_DIR, else ~/.local/state/intentd.
            """)

    @Option(name: .customLong("state-dir"), help: "The state directory.")
    var stateDirectory: String?

    @Option(help: "Extensions to launch, comma-separated (built in: messaging, lists, rides, bench; others under \"executables\" in the config file); NAME:COUNT starts COUNT instances.")
    var extensions: String?

    @Option(help: "A JSON config file (see deploy/intentd.json). Flags override it.")
    var config: String?

    @Option(help: "The client endpoint (default ipc://STATE/client.sock).")
    var clientEndpoint: String?

    @Option(help: "The extension endpoint (default ipc://STATE/extensions.sock).")
    var extensionEndpoint: String?

    @Option(help: "Where updates pushed by extensions are published (default ipc://STATE/updates.sock).")
    var updatesEndpoint: String?

    @Option(help: "A domain catalog directory; repeat to add more (default: Protocols/domains, found automatically).")
    var catalog: [String] = []

    @Option(help: "Milliseconds an extension has to answer one stage.")
    var requestTimeout: Int?

    @Option(help: "Heartbeat interval in milliseconds.")
    var heartbeat: Int?

    @Option(help: "Seconds a conversation waits for the user's answer before it ends (default 30).")
    var sessionTimeout: Double?

    @Option(help: "The folder of language files (default: Protocols/languages, found automatically).")
    var languages: String?

    @Flag(help: "Start locked when no lock state was saved before.")
    var locked = false

    @Flag(help: "Run launched extensions without a sandbox (with the host's files, network and privileges).")
    var noSandbox = false

    @Option(name: .customLong("pass-env"), help: "Pass this environment variable on to launched extensions; repeat for more.")
    var passEnvironment: [String] = []

    @Option(name: .customLong("trace-wire"), help: "Write every message intentd accepts or sends to this file, one JSON line each (wire.md section 13).")
    var traceWire: String?

    @Option(help: "Serve HTTP (the console, a web page of the host) on this loopback HOST:PORT, or off (default 127.0.0.1:8470).")
    var http: String?

    mutating func run() async throws {
        var configuration = HostConfiguration(stateDirectory: StateDirectory(explicit: stateDirectory))
        if let config { try configuration.apply(file: URL(fileURLWithPath: config)) }
        if let extensions {
            configuration.extensions = extensions.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        if let clientEndpoint { configuration.clientEndpoint = clientEndpoint }
        if let extensionEndpoint { configuration.extensionEndpoint = extensionEndpoint }
        if let updatesEndpoint { configuration.updatesEndpoint = updatesEndpoint }
        if !catalog.isEmpty { configuration.catalogDirectories = catalog.map { URL(fileURLWithPath: $0) } }
        if let requestTimeout { configuration.requestTimeout = .milliseconds(requestTimeout) }
        if let heartbeat { configuration.heartbeatInterval = .milliseconds(heartbeat) }
        if locked { configuration.startLocked = true }
        if let sessionTimeout { configuration.sessionTimeout = .milliseconds(Int(sessionTimeout * 1000)) }
        if let languages { configuration.languagesDirectory = URL(fileURLWithPath: languages) }
        if noSandbox { configuration.sandbox = false }
        configuration.passEnvironment += passEnvironment
        if let traceWire { configuration.wireTrace = URL(fileURLWithPath: traceWire) }
        if let http { configuration.httpAddress = http }
        let consoleAddress = try ConsoleServer.parse(configuration.httpAddress)

        let host = try Host(configuration: configuration)
        signal(SIGPIPE, SIG_IGN)
        let stops = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { host.stop() }
            source.resume()
            return source
        }
        let console = consoleAddress.map { address in
            Task { [configuration] in await Self.serveConsole(host, configuration, at: address) }
        }
        // Once the host has stopped, the console starts to close its connections; intentd does
        // not wait for pages that keep theirs open: the process ends with them.
        defer { console?.cancel() }
        try await host.run()
        stops.forEach { $0.cancel() }
    }

    /// Serves the console beside the host, printing its address (with the token) once it
    /// listens; the host runs on without it if it cannot start.
    static func serveConsole(_ host: IntentHost.Host, _ configuration: HostConfiguration, at address: (host: String, port: Int)) async {
        let log = Log("intentd")
        let state = configuration.stateDirectory
        let urlFile = state.url.appendingPathComponent("console.url")
        // An address left from an earlier run is not this one's until the console listens.
        try? FileManager.default.removeItem(at: urlFile)
        do {
            try StateDirectory.create(state.url)
            // The host refuses such a directory and stops: no token goes into it.
            guard state.ownershipProblem() == nil else { return }
            let console = try Console(
                setup: Console.Setup(
                    stateDirectory: state, clientEndpoint: configuration.clientEndpoint,
                    updatesEndpoint: configuration.updatesEndpoint, map: Self.rideMap(),
                    traffic: host.traffic))
            try await ConsoleServer.run(console, host: address.host, port: address.port) { port in
                let url = console.address(host: address.host, port: port)
                do { try DurableFile.write(Array((url + "\n").utf8), to: urlFile) } catch {
                    log.warning("console: \(error)")
                }
                log.info("console: \(url)")
            }
        } catch is CancellationError {
        } catch {
            log.error("console: cannot serve on \(address.host):\(address.port): \(error); intentd runs on without it (--http HOST:PORT or off)")
        }
    }

    /// Zippy's manifest folder (its coverage area and places), beside intentd's executable.
    static func rideMap() -> URL? {
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let bundles = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return bundles.filter { $0.hasSuffix("_Zippy.resources") }.sorted().first
            .map { directory.appendingPathComponent($0).appendingPathComponent("Manifest") }
    }
}
