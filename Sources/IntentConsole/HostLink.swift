import Dispatch
import Foundation
import IntentClient
import IntentProtocol

/// One connection to the host's client endpoint, as `intentctl` makes it, used from async
/// code: each call runs on the link's own queue (the client blocks), one at a time. The
/// connection is made on first use and made again after the host was lost.
final class HostLink: @unchecked Sendable {
    private let endpoint: String
    private let security: @Sendable () throws -> ConnectionSecurity
    private let timeout: Duration
    private let queue: DispatchQueue
    // Touched only on `queue`.
    private var client: IntentClient?

    init(name: String, endpoint: String, timeout: Duration, security: @escaping @Sendable () throws -> ConnectionSecurity) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.security = security
        queue = DispatchQueue(label: "intentd-console-\(name)")
    }

    /// Runs `body` with the client on the link's queue.
    func call<T: Sendable>(_ body: @escaping @Sendable (IntentClient) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                do {
                    let client = try self.client ?? IntentClient(endpoint: self.endpoint, timeout: self.timeout, security: self.security())
                    self.client = client
                    continuation.resume(returning: try body(client))
                } catch {
                    // A lost or unreadable connection is made again for the next call.
                    if case ClientError.host = error {} else { self.client = nil }
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
