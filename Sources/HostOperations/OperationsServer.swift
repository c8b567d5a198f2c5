import Foundation
import Hummingbird
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
public struct OperationsServer<Responder: HTTPResponder>: Service where Responder.Context == BasicRequestContext {
    /// The address asked for.
    public let address: OperationsAddress
    private let responder: Responder
    private let logger: Logger
    private let onBound: @Sendable (String) -> Void

    /// A server of `router`'s routes on `address`; `onBound` gets its URL, such as
    /// `http://127.0.0.1:8470`, once it listens.
    public init<Builder: HTTPResponderBuilder>(
        address: OperationsAddress, router: Builder, logger: Logger, onBound: @escaping @Sendable (String) -> Void = { _ in }
    ) where Builder.Responder == Responder {
        self.address = address
        responder = router.buildResponder()
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
            configuration: ApplicationConfiguration(address: .hostname(address.host, port: port), serverName: "intentd"),
            onServerRunning: { [onBound, address] channel in
                let bound = OperationsAddress(host: address.host, port: channel.localAddress?.port ?? port)
                onBound("http://\(bound)")
            },
            logger: logger)
        try await application.run()
    }
}
