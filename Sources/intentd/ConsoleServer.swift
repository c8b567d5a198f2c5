import Foundation
import Hummingbird
import HummingbirdWebSocket
import IntentConsole
import IntentHost
import IntentProtocol
import Logging
import ServiceLifecycle

/// The host's HTTP server (`--http`), which carries the console: one Hummingbird application
/// on loopback with websocket upgrades, whose router gets the console's routes. Other routes (such as
/// metrics) can be added to the same router before it runs.
enum ConsoleServer {
    /// Where it listens: `HOST:PORT` on loopback (`127.0.0.1:8470`, `[::1]:8470`, port 0 for
    /// any free one), or nil for `off`.
    static func parse(_ text: String) throws -> (host: String, port: Int)? {
        if text == "off" { return nil }
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
        else { throw ConfigurationError("--http takes HOST:PORT on loopback (such as 127.0.0.1:8470) or off, not \(text)") }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        // Plain HTTP: the token would cross a network in the clear, so loopback only.
        guard ["127.0.0.1", "::1", "localhost"].contains(host) else {
            throw ConfigurationError("the console listens on loopback only (127.0.0.1, ::1 or localhost), not \(host)")
        }
        return (host, port)
    }

    /// Serves `console` at `host`:`port` until cancelled; `ready` gets the port it listens on.
    static func run(_ console: Console, host: String, port: Int, ready: @escaping @Sendable (Int) -> Void) async throws {
        let router = Router(context: BasicWebSocketRequestContext.self)
        console.addRoutes(to: router)
        var logger = Logger(label: "intentd-console")
        logger.logLevel = .warning
        let app = Application(
            // Idle keep-alive connections close after 5 s, so none holds up a shutdown for long.
            router: router, server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(http1: .init(idleTimeout: .seconds(5)))),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in ready(channel.localAddress?.port ?? port) }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app, console], logger: logger))
        // Cancelling this task shuts the server down gracefully: requests in flight finish,
        // websockets are closed; a connection still open 2 s later is cut. (The group runs
        // in a task of its own, which the cancellation does not reach, or it would stop
        // everything at once.)
        let running = Task { try await group.run() }
        try await withTaskCancellationHandler {
            try await running.value
        } onCancel: {
            Task {
                await group.triggerGracefulShutdown()
                try? await Task.sleep(for: .seconds(2))
                running.cancel()
            }
        }
    }
}
