import IntentProtocol
import Synchronization

/// Lifecycles whose handle ended `outcomeUnknown` (sent, no readable answer), by idempotency
/// key: what was resolved and confirmed, so that the lifecycle asked again with the key
/// (wire.md section 5a) sends that same handle again instead of running resolve and
/// confirm once more. Those would see the first run's work, if it was done (a ride booked,
/// a task renamed), and answer a failure for it; the handle, sent again with its key, is
/// answered from the extension's journal, or done now if it never was.
///
/// Kept in memory, the newest first, within a count and a size; a host that restarted
/// knows none and runs the whole lifecycle again.
final class UnsettledHandles: Sendable {
    /// What a handle was sent with.
    struct Entry: Sendable {
        let app: String
        let intent: String
        let parameters: [String: JSONValue]
        let resolutions: [ParameterResolution]
        let bytes: Int
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var bytes = 0
    }

    private let state = Mutex(State())
    /// The most lifecycles kept, and the most bytes of their parameters.
    let capacity: Int
    let maxBytes: Int

    init(capacity: Int = 4096, maxBytes: Int = 16 << 20) {
        self.capacity = capacity
        self.maxBytes = maxBytes
    }

    /// Keeps `run`'s handle under its key, dropping the oldest past the bounds.
    func keep(_ run: Run) {
        let bytes = JSONValue.object(run.parameters).serialized().count + 256
        guard bytes <= maxBytes else { return }
        let entry = Entry(
            app: run.app, intent: run.intent.name, parameters: run.parameters, resolutions: run.resolutions, bytes: bytes)
        state.withLock { state in
            if let old = state.entries.updateValue(entry, forKey: run.idempotencyKey) {
                state.bytes -= old.bytes
                state.order.removeAll { $0 == run.idempotencyKey }
            }
            state.order.append(run.idempotencyKey)
            state.bytes += bytes
            while state.order.count > capacity || state.bytes > maxBytes, let oldest = state.order.first {
                state.order.removeFirst()
                state.bytes -= state.entries.removeValue(forKey: oldest)?.bytes ?? 0
            }
        }
    }

    /// The handle kept under `key` for `app`'s `intent`, taken out; nil if there is none.
    func take(_ key: String, app: String, intent: String) -> Entry? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.app == app, entry.intent == intent else { return nil }
            state.entries[key] = nil
            state.order.removeAll { $0 == key }
            state.bytes -= entry.bytes
            return entry
        }
    }

    /// How many are kept.
    var count: Int { state.withLock { $0.entries.count } }
}
