import Foundation
import IntentProtocol
import Logging
import Synchronization

/// Lifecycles whose handle was sent, by idempotency key, so that one asked again with its
/// key (wire.md section 5a) is not run again from the start: resolve and confirm would see
/// the first run's work, if it was done (a ride booked, a note made), and answer a failure
/// for it.
///
/// - A handle whose outcome is unknown (sent, no readable answer) is kept with what it was
///   sent with; asked again, that same handle is sent again, with its key, and the
///   extension answers from its journal, or does it now if it never did.
/// - A handle that was answered, for a key the client gave (a client that names a key may
///   not have heard the answer), is kept with its outcome; asked again, that is the answer.
///
/// Kept in memory, the newest first, within a count and a size. With a `HandleJournal`, a
/// handle sent with a key the client gave is written down before it goes, and a host that
/// restarted knows each such handle as one whose outcome is unknown: asked again with its
/// key, it sends that handle again (the extension answers from its journal) instead of
/// running the whole lifecycle again.
final class KeyedHandles: Sendable {
    /// What is kept for one key.
    enum Kept: Sendable {
        /// The handle's outcome is unknown: what it was sent with.
        case unknown(parameters: [String: JSONValue], resolutions: [ParameterResolution])
        /// The lifecycle's outcome.
        case settled(Outcome)
        /// (From `take` only.) The key was first given for another request, which is kept
        /// or still running: what it answers is not this request's.
        case otherRequest
    }

    /// Keys belong to one app: two apps may see the same key (wire.md section 5a).
    private struct Key: Hashable {
        let app: String
        let key: String
    }

    private struct Entry {
        let intent: String
        let kept: Kept
        /// What the request was (`Run.asked`); nil when not known (an older journal).
        let asked: JSONValue?
        let bytes: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var order: [Key] = []
        var bytes = 0
        /// Keys whose lifecycle runs now, with what each was asked and how many run.
        var running: [Key: (intent: String, asked: JSONValue?, count: Int)] = [:]

        /// Takes `key`'s entry out, if there is one.
        @discardableResult
        mutating func remove(_ key: Key) -> Entry? {
            guard let entry = entries.removeValue(forKey: key) else { return nil }
            order.removeAll { $0 == key }
            bytes -= entry.bytes
            return entry
        }
    }

    private let state = Mutex(State())
    /// The most lifecycles kept, and the most bytes they take.
    let capacity: Int
    let maxBytes: Int

    private let journal: HandleJournal?
    private let log = Logger(label: HostLog.label)

    init(capacity: Int = 4096, maxBytes: Int = 16 << 20, journal: HandleJournal? = nil) {
        self.capacity = capacity
        self.maxBytes = maxBytes
        self.journal = journal
        for record in journal?.load() ?? [] {
            add(Key(app: record.app, key: record.key), intent: record.intent,
                .unknown(parameters: record.parameters, resolutions: record.resolutions), asked: record.asked,
                bytes: Self.size(record.parameters, record.asked))
        }
    }

    /// Writes down `run`'s handle, about to be sent, if the client gave its key and it
    /// changes something (a search run again is the same search); a journal that cannot be
    /// written is logged, and the handle still goes (only a restart's memory of it is lost).
    func sending(_ run: Run) {
        guard let journal, run.keyFromClient, !run.intent.isReadOnly else { return }
        let record = HandleJournal.Record(
            key: run.idempotencyKey, app: run.app, intent: run.intent.name, parameters: run.parameters, resolutions: run.resolutions,
            asked: run.asked, time: Date().timeIntervalSince1970)
        do { try journal.append(record) } catch {
            log.warning("cannot write down the handle with key \(run.idempotencyKey) for a restart: \(error)")
        }
    }

    /// Keeps how `run` ended, `outcome`, if its handle was sent: the handle if the outcome
    /// is unknown, the outcome if the client gave the key. Drops the oldest past the bounds.
    func keep(_ run: Run, _ outcome: Outcome) {
        guard run.handleSent else { return }
        let kept: Kept
        let bytes: Int
        if outcome.code == ErrorCode.outcomeUnknown.rawValue {
            kept = .unknown(parameters: run.parameters, resolutions: run.resolutions)
            bytes = Self.size(run.parameters, run.asked)
        } else if run.keyFromClient {
            kept = .settled(outcome)
            bytes = outcome.serialized().count + Self.size([:], run.asked)
        } else {
            return
        }
        add(Key(app: run.app, key: run.idempotencyKey), intent: run.intent.name, kept, asked: run.asked, bytes: bytes)
    }

    /// About what keeping `parameters` and `asked` takes.
    private static func size(_ parameters: [String: JSONValue], _ asked: JSONValue?) -> Int {
        JSONValue.object(parameters).serialized().count + (asked?.serialized().count ?? 0) + 256
    }

    private func add(_ key: Key, intent: String, _ kept: Kept, asked: JSONValue?, bytes: Int) {
        guard bytes <= maxBytes / 16 else { return }
        state.withLock { state in
            // A key used again for another intent of the app keeps what it was first used
            // for: the app refuses it for the other, and the first is still the one to answer.
            if let first = state.entries[key], first.intent != intent { return }
            state.remove(key)
            state.entries[key] = Entry(intent: intent, kept: kept, asked: asked, bytes: bytes)
            state.order.append(key)
            state.bytes += bytes
            while state.order.count > capacity || state.bytes > maxBytes, let oldest = state.order.first { state.remove(oldest) }
        }
    }

    /// What is kept under `run`'s key for its app and intent, and `run` counted as running
    /// until `finished(run)`: an unknown handle is taken out (kept again if its outcome stays
    /// unknown), an outcome stays. A key first given for another request of the app, kept or
    /// running now, is `otherRequest` (`Run.asked`: a SUBMIT's parameters, a conversation's
    /// words): its answer is not this request's.
    func take(for run: Run) -> Kept? {
        let key = Key(app: run.app, key: run.idempotencyKey)
        return state.withLock { state in
            if let running = state.running[key] {
                // Counted even when it is `otherRequest`: every caller calls `finished`
                // once (a `defer`), which takes the count back either way; the entry stays
                // the first request's while that one runs.
                state.running[key]?.count += 1
                if running.intent != run.intent.name || Self.differ(running.asked, run.asked) { return .otherRequest }
            } else {
                state.running[key] = (run.intent.name, run.asked, 1)
            }
            guard let entry = state.entries[key] else { return nil }
            if entry.intent != run.intent.name || Self.differ(entry.asked, run.asked) { return .otherRequest }
            if case .unknown = entry.kept { state.remove(key) }
            return entry.kept
        }
    }

    /// `run`, counted by `take(for:)`, runs no more.
    func finished(_ run: Run) {
        let key = Key(app: run.app, key: run.idempotencyKey)
        state.withLock { state in
            guard let running = state.running[key] else { return }
            if running.count > 1 { state.running[key]?.count -= 1 } else { state.running[key] = nil }
        }
    }

    /// Whether two requests given one key are known to be other requests.
    private static func differ(_ first: JSONValue?, _ second: JSONValue?) -> Bool {
        guard let first, let second else { return false }
        return first != second
    }
}
