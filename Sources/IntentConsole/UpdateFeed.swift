import Foundation
import IntentProtocol
import Synchronization
import ZeroMQ

/// Reads what the host publishes on its updates endpoint (as `intentctl watch` does), on a
/// thread of its own, and hands each update that parses to `deliver`.
final class UpdateFeed: Sendable {
    private let stopped = Atomic<Bool>(false)

    /// Starts reading `endpoint` as the client `security` names; connects again whenever the
    /// socket fails, until `stop`.
    init(endpoint: String, security: @escaping @Sendable () throws -> ConnectionSecurity, deliver: @escaping @Sendable (Update) -> Void) {
        IOThread.start(name: "intentd-console-updates") { [self] in
            while !stopped.load(ordering: .relaxed) {
                do {
                    let socket = try Socket(try Context(), .sub)
                    try security().apply(to: socket, endpoint: endpoint)
                    try socket.subscribe([])
                    try socket.connect(endpoint)
                    var poller = Poller()
                    poller.add(socket)
                    while !stopped.load(ordering: .relaxed) {
                        guard try poller.poll(timeout: 200) > 0 else { continue }
                        while let frames = try socket.receiveFrames(wait: false) {
                            guard frames.count == 2, frames[1].bytes.count <= Wire.maxMessageBytes,
                                let update = try? JSON.decode(Update.self, from: frames[1].bytes)
                            else { continue }
                            deliver(update)
                        }
                    }
                } catch {
                    // The host has not made its keys or socket yet, or went away: try again soon.
                    usleep(500_000)
                }
            }
        }
    }

    /// Ends the thread within a fraction of a second.
    func stop() { stopped.store(true, ordering: .relaxed) }
}
