import ArgumentParser
import Foundation
import HostOperations
import Hummingbird
import HummingbirdWebSocket
import IntentConsole
import IntentHost
import IntentProtocol
import Logging
import ServiceLifecycle

@main
struct Intentd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intentd",
        abstract: "The intents host: routes intents from clients to extension processes over ZeroMQ.",
        discussion: """
            State (sockets, lock state, extension sandboxes) lives in --state-dir, else \
            $INTENTD_STATE_DIR, else $XDG_STATE_HOME/intentd, else ~/.local/state/intentd.
            """)

    @Option(name: .customLong("state-dir"), help: "The state directory (default \(StateDirectory.searched)).")
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

    @Option(help: "Milliseconds an extension has to answer one stage (default 5000).")
    var requestTimeout: Int?

    @Option(help: "Heartbeat interval in milliseconds (default 1000).")
    var heartbeat: Int?

    @Option(help: "Seconds a conversation waits for the user's answer before it ends (default 30).")
    var sessionTimeout: Double?

    @Option(help: "The folder of language files (default: Protocols/languages, found automatically).")
    var languages: String?

    @Option(help: "A folder of language additions: phrases, examples and answers for a domain of your own (en.json with intents, examples, results); repeat to add more.")
    var phrases: [String] = []

    @Flag(help: "Start locked when no lock state was saved before.")
    var locked = false

    @Flag(help: "Run launched extensions without a sandbox (with the host's files, network and privileges).")
    var noSandbox = false

    @Option(name: .customLong("pass-env"), help: "Pass this environment variable on to launched extensions; repeat for more.")
    var passEnvironment: [String] = []

    @Option(help: "Serve HTTP (the console, and the Prometheus metrics at /metrics) on this loopback HOST:PORT, or off (default 127.0.0.1:8470; a free port when that one is taken).")
    var http: String?

    @Option(name: .customLong("trace-wire"), help: "Write every message intentd accepts or sends to this file, one JSON line each (wire.md section 13).")
    var traceWire: String?

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
        if !phrases.isEmpty { configuration.phraseDirectories = phrases.map { URL(fileURLWithPath: $0) } }
        if noSandbox { configuration.sandbox = false }
        configuration.passEnvironment += passEnvironment
        if let traceWire { configuration.wireTrace = URL(fileURLWithPath: traceWire) }
        if let http { configuration.httpAddress = http }
        let address: OperationsAddress?
        do {
            address = configuration.httpAddress == "off" ? nil : try OperationsAddress(parsing: configuration.httpAddress)
        } catch {
            throw ValidationError("--http: \(error)")
        }

        // A state directory others could read or change is refused before anything (the
        // log, the console's address and token, a socket) is written to it or served.
        try StateDirectory.create(configuration.stateDirectory.url)
        if let problem = configuration.stateDirectory.ownershipProblem() { throw ValidationError(problem) }
        // One host per state directory, held until this process ends.
        let claim = try StateDirectoryLock.acquire(configuration.stateDirectory.url)
        defer { withExtendedLifetime(claim) {} }
        try HostLog.bootstrap(state: configuration.stateDirectory)
        let logger = Logger(label: HostLog.label)
        let endpoint = address.map { _ in HTTPEndpoint() }
        configuration.http = endpoint
        let host = try IntentHost.Host(configuration: configuration)
        var services: [any Service] = []
        if let address, let endpoint {
            // One server on loopback: the metrics and the console's page, API and websocket.
            let router = Router(context: BasicWebSocketRequestContext.self)
            router.add(middleware: LoopbackHostMiddleware())
            MetricsEndpoint.bootstrap(on: router)
            let console = ConsoleServer.console(for: host, configuration, logger: logger)
            console?.addRoutes(to: router)
            services.append(OperationsServer(address: address, router: router, logger: logger) { [configuration] url, port in
                endpoint.listening(at: url)
                logger.info("metrics at \(url)/metrics")
                if let console { ConsoleServer.announce(console, host: address.host, port: port, asked: address.port, configuration, logger: logger) }
            })
            if let console { services.append(console) }
        }
        signal(SIGPIPE, SIG_IGN)
        // The host first: when it ends, for a signal, on its own or with an error (one found at
        // start), the HTTP side stops as on a signal; pages that keep their connections open
        // are cut after a while.
        var group = ServiceGroupConfiguration(
            services: [.init(service: HostService(host: host), successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup)]
                + services.map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = .seconds(15)
        try await ServiceGroup(configuration: group).run()
    }
}

/// The host as a service: runs until a graceful shutdown (SIGTERM or SIGINT), then stops
/// taking requests, finishes those in flight and stops its extensions.
struct HostService: Service {
    let host: IntentHost.Host

    func run() async throws {
        try await withGracefulShutdownHandler {
            try await host.run()
        } onGracefulShutdown: {
            host.stop()
        }
    }

}
