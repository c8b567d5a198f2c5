import ArgumentParser
import Dispatch
import Foundation
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

        let host = try Host(configuration: configuration)
        signal(SIGPIPE, SIG_IGN)
        let stops = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { host.stop() }
            source.resume()
            return source
        }
        try await host.run()
        stops.forEach { $0.cancel() }
    }
}
