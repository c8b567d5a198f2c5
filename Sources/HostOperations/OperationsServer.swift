import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle

/// The host's HTTP side, on loopback, as a service beside the host. Parts of the host add
/// their routes to one `Router` (the metrics now: `MetricsEndpoint`), and the server is made
/// from it once they have.
///
/// When the configured port is taken (another host on this machine has it), the server
/// says so and takes a free port instead: what it serves is for looking, not for routing
/// intents, and `onBound` (the start-up line, `intentctl status`) says where it went.
public struct OperationsServer<Responder: HTTPResponder>: Service where Responder.Context == BasicWebSocketRequestContext {
    /// The address asked for.
    public let address: OperationsAddress
    private let responder: Responder
    private let server: HTTPServerBuilder
    private let logger: Logger
    private let onBound: @Sendable (String, Int) -> Void

    /// A server of `router`'s routes, websockets included, on `address`; `onBound` gets its
    /// URL, such as `http://127.0.0.1:8470`, and port once it listens.
    public init(
        address: OperationsAddress, router: Router<BasicWebSocketRequestContext>, logger: Logger,
        onBound: @escaping @Sendable (String, Int) -> Void = { _, _ in }
    ) where Responder == RouterResponder<BasicWebSocketRequestContext> {
        self.address = address
        responder = router.buildResponder()
        // Idle keep-alive connections close after 5 s, so none holds up a shutdown for long.
        server = .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(http1: .init(idleTimeout: .seconds(5))))
        self.logger = logger
        self.onBound = onBound
    }

    /// Serves until a graceful shutdown.
    public func run() async throws {
        do {
            try await serve(port: address.port)
        } catch let error as IOError where error.errnoCode == EADDRINUSE && address.port != 0 {
            logger.warning("\(address) is taken (another intentd?); serving HTTP on a free port instead")
            try await serve(port: 0)
        }
    }

    private func serve(port: Int) async throws {
        let application = Application(
            responder: responder,
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(address.host, port: port), serverName: "intentd"),
            onServerRunning: { [onBound, address] channel in
                let bound = OperationsAddress(host: address.host, port: channel.localAddress?.port ?? port)
                onBound("http://\(bound)", bound.port)
            },
            logger: logger)
        try await application.run()
    }
}
