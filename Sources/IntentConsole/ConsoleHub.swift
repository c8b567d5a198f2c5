import Foundation
import Synchronization

/// The open console websockets: each gets its own bounded stream of messages (the newest
/// kept when a slow page falls behind), and there are at most `maxListeners` of them.
final class ConsoleHub: Sendable {
    /// How many pages may listen at once.
    static let maxListeners = 16
    /// How many messages wait for one slow page before the oldest are dropped.
    static let backlog = 256
    private let listeners = Mutex<[UUID: AsyncStream<String>.Continuation]>([:])

    /// A new listener's stream and the id that removes it; nil when there are too many.
    func listen() -> (id: UUID, messages: AsyncStream<String>)? {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(Self.backlog))
        let id = UUID()
        let added = listeners.withLock { all in
            guard all.count < Self.maxListeners else { return false }
            all[id] = continuation
            return true
        }
        return added ? (id, stream) : nil
    }

    /// Removes a listener.
    func leave(_ id: UUID) {
        listeners.withLock { $0.removeValue(forKey: id) }?.finish()
    }

    /// Whether any page listens.
    var isEmpty: Bool { listeners.withLock { $0.isEmpty } }

    /// Sends `message` to every listener.
    func send(_ message: String) {
        for continuation in listeners.withLock({ Array($0.values) }) { continuation.yield(message) }
    }

    /// Ends every listener's stream.
    func finishAll() {
        for continuation in listeners.withLock({ all in defer { all.removeAll() }; return Array(all.values) }) { continuation.finish() }
    }
}
