import Foundation
import Logging
import ServiceLifecycle

/// The running extension as a service: it connects and serves until a graceful shutdown
/// (SIGTERM or SIGINT), then says goodbye to the host, lets the requests in flight finish,
/// and lets the extension close its stores.
struct ExtensionService<Extension: IntentExtension>: Service {
    /// How long requests in flight may take to finish after the host was told.
    static var grace: Duration { .seconds(2) }

    let connection: ExtensionConnection<Extension>
    let stop: @Sendable () async -> Void
    let log: Logger

    func run() async throws {
        connection.start()
        try? await gracefulShutdown()
        log.info("stopping: telling the host, then finishing \(connection.inFlight) request(s) in flight")
        await connection.disconnect(grace: Self.grace)
        await stop()
        log.info("stopped")
    }
}
