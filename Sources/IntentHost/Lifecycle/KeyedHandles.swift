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
        /// (From `take` only.) The key was first given with other parameters: what is kept
        /// answers another request.
        case otherRequest
    }

    private struct Entry {
        let app: String
        let intent: String
        let kept: Kept
        /// The parameters a SUBMIT gave, as read; nil for a conversation's.
        let submitted: [String: JSONValue]?
        let bytes: Int
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var bytes = 0

        /// Takes `key`'s entry out, if there is one.
        @discardableResult
        mutating func remove(_ key: String) -> Entry? {
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
            add(key: record.key, app: record.app, intent: record.intent,
                .unknown(parameters: record.parameters, resolutions: record.resolutions), submitted: record.submitted,
                bytes: Self.size(record.parameters, record.submitted))
        }
    }

    /// Writes down `run`'s handle, about to be sent, if the client gave its key and it
    /// changes something (a search run again is the same search); a journal that cannot be
    /// written is logged, and the handle still goes (only a restart's memory of it is lost).
    func sending(_ run: Run) {
        guard let journal, run.keyFromClient, !run.intent.isReadOnly else { return }
        let record = HandleJournal.Record(
            key: run.idempotencyKey, app: run.app, intent: run.intent.name, parameters: run.parameters, resolutions: run.resolutions,
            submitted: run.submitted, time: Date().timeIntervalSince1970)
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
            bytes = Self.size(run.parameters, run.submitted)
        } else if run.keyFromClient {
            kept = .settled(outcome)
            bytes = outcome.serialized().count + Self.size([:], run.submitted)
        } else {
            return
        }
        add(key: run.idempotencyKey, app: run.app, intent: run.intent.name, kept, submitted: run.submitted, bytes: bytes)
    }

    /// About what keeping `parameters` and `submitted` takes.
    private static func size(_ parameters: [String: JSONValue], _ submitted: [String: JSONValue]?) -> Int {
        JSONValue.object(parameters).serialized().count + (submitted.map { JSONValue.object($0).serialized().count } ?? 0) + 256
    }

    private func add(key: String, app: String, intent: String, _ kept: Kept, submitted: [String: JSONValue]?, bytes: Int) {
        guard bytes <= maxBytes / 16 else { return }
        state.withLock { state in
            // A key used again for another app or intent keeps what it was first used for:
            // the app refuses it for the other, and the first is still the one to answer.
            if let first = state.entries[key], first.app != app || first.intent != intent { return }
            state.remove(key)
            state.entries[key] = Entry(app: app, intent: intent, kept: kept, submitted: submitted, bytes: bytes)
            state.order.append(key)
            state.bytes += bytes
            while state.order.count > capacity || state.bytes > maxBytes, let oldest = state.order.first { state.remove(oldest) }
        }
    }

    /// What is kept under `key` for `app`'s `intent`: an unknown handle is taken out (kept
    /// again if its outcome stays unknown), an outcome stays. A SUBMIT's key first given
    /// by a SUBMIT with other parameters (`submitted`) is `otherRequest`; a conversation's
    /// words are read again on a retry ("in 5 minutes" moves), so they are not compared.
    func take(_ key: String, app: String, intent: String, submitted: [String: JSONValue]? = nil) -> Kept? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.app == app, entry.intent == intent else { return nil }
            if let submitted, let first = entry.submitted, first != submitted { return .otherRequest }
            if case .unknown = entry.kept { state.remove(key) }
            return entry.kept
        }
    }
}
