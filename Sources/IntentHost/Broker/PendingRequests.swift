import IntentProtocol
import ZeroMQ

/// What the broker returns to the lifecycle driver for one stage.
enum StageReply: Sendable {
    /// The extension's reply body.
    case reply([UInt8])
    /// The host refused by policy; nothing reached an extension.
    case refused(ErrorCode, String)
    /// The extension could not answer.
    case failed(ErrorCode, String)
}

/// Who is waiting for a request's reply.
enum Origin {
    /// A client's STAGE request, answered straight from the broker thread.
    case client(routingID: RoutingID, requestID: RequestID)
    /// A lifecycle driver step, answered through its callback.
    case driver(@Sendable (StageReply) -> Void)
}

/// Work sent to extensions and not yet answered, with its deadline.
///
/// One piece of work (a stage someone waits for) may be in flight to several instances
/// at once: a resolve or confirm is sent again to another instance when the first one goes
/// away or is slow (they have no side effects), and the first reply wins. A handle is sent
/// once. Each sending gets its own request id; a reply to any of them answers the work and
/// makes the others late.
///
/// Every piece of work gets the same timeout, so deadlines (and the points at which a
/// read is sent again) arrive in the order work came in: both checks look only at the
/// front of a FIFO, O(1) per request.
struct PendingRequests {
    struct Entry {
        let origin: Origin
        let app: String
        let intent: String
        let stage: Stage
        /// The body as sent: the host's copy, with the deadline (and key) in it.
        let body: Body
        /// The handle's idempotency key.
        let key: String?
        let deadline: ContinuousClock.Instant
        /// Each sending still in flight: its request id and the instance it went to.
        var attempts = Attempts()
        /// Whether a read was sent again because the first instance was slow.
        var hedged = false
        /// Sendings that left for an instance: while none did, the work was never sent and
        /// failing it is a known outcome (nothing was done).
        var sendings = 0
        /// Whether it waits for an instance of its app in that app's queue (`park`).
        var parked = false
        /// Instances that died (exited, hung, could not be reached) while it was in flight to them.
        var instancesLost = 0

        /// Whether any sending of it ever left for an instance.
        var wasSent: Bool { sendings > 0 }

        /// Resolve and confirm may go to another instance; handle may not.
        var isRead: Bool { stage != .handle }
    }

    private var entries: [UInt64: Entry] = [:]
    private var work: [UInt64: UInt64] = [:]
    private var order: [(id: UInt64, deadline: ContinuousClock.Instant)] = []
    private var head = 0
    private var hedgeHead = 0
    private var nextID: UInt64 = 1
    private var nextWork: UInt64 = 1
    private var perInstance: [RoutingID: Int] = [:]
    private var parked: [String: WaitQueue] = [:]
    /// Work waiting for an instance, in all, and its bytes.
    private(set) var waitingCount = 0
    private(set) var waitingBytes = 0

    /// The work waiting for an instance of one app, oldest first, and its bytes.
    private struct WaitQueue {
        var ids: [UInt64] = []
        var bytes = 0
    }

    /// Pieces of work in flight or waiting for an instance.
    var count: Int { entries.count }

    /// Requests sent to `instance` and not yet answered.
    func count(sentTo instance: RoutingID) -> Int { perInstance[instance, default: 0] }

    /// The earliest deadline that may still be waiting.
    var nextDeadline: ContinuousClock.Instant? { head < order.count ? order[head].deadline : nil }

    /// Records a piece of work; `send` it to instances with `attach`.
    mutating func insert(_ entry: Entry) -> UInt64 {
        let id = nextWork
        nextWork &+= 1
        entries[id] = entry
        order.append((id, entry.deadline))
        return id
    }

    /// The work `id`, while it waits.
    func entry(_ id: UInt64) -> Entry? { entries[id] }

    /// Records one sending of work `id` to `instance` and returns the request id to use.
    mutating func attach(_ id: UInt64, to instance: RoutingID) -> RequestID {
        let request = nextID
        nextID &+= 1
        entries[id]?.attempts[request] = instance
        entries[id]?.sendings += 1
        work[request] = id
        perInstance[instance, default: 0] += 1
        return RequestID(request)
    }

    /// Forgets a sending that never left (the instance could not be reached).
    mutating func detach(_ request: RequestID) {
        guard let id = work.removeValue(forKey: request.value) else { return }
        if let instance = entries[id]?.attempts[request.value] { forget(instance) }
        entries[id]?.attempts[request.value] = nil
        entries[id]?.sendings -= 1
    }

    /// Marks work `id` as sent again because its instance was slow.
    mutating func markHedged(_ id: UInt64) { entries[id]?.hedged = true }

    /// Takes the work answered by `request`, if it still waits, and only from the instance
    /// that request went to; the work's other sendings become late.
    mutating func take(_ request: RequestID, from instance: RoutingID) -> Entry? {
        guard let id = work[request.value], let entry = entries[id], entry.attempts[request.value] == instance else { return nil }
        return remove(id)
    }

    /// Takes every piece of work whose deadline has passed.
    mutating func expire(now: ContinuousClock.Instant) -> [Entry] {
        var expired: [Entry] = []
        while head < order.count, order[head].deadline <= now {
            if let entry = remove(order[head].id) { expired.append(entry) }
            head += 1
        }
        hedgeHead = max(hedgeHead, head)
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            hedgeHead -= head
            head = 0
        }
        return expired
    }

    /// Reads sent once and still unanswered `after` they were sent (`timeout` before their
    /// deadline): the ones to send again to another instance. Each is returned once.
    mutating func slowReads(now: ContinuousClock.Instant, after: Duration, timeout: Duration) -> [UInt64] {
        var slow: [UInt64] = []
        while hedgeHead < order.count, order[hedgeHead].deadline - timeout + after <= now {
            let id = order[hedgeHead].id
            if let entry = entries[id], entry.isRead, !entry.hedged { slow.append(id) }
            hedgeHead += 1
        }
        return slow
    }

    /// The earliest time a read may be due to be sent again.
    func nextSlowCheck(after: Duration, timeout: Duration) -> ContinuousClock.Instant? {
        hedgeHead < order.count ? order[hedgeHead].deadline - timeout + after : nil
    }

    /// Forgets every sending to `instance` (which `died`: exited, hung, or cannot be
    /// reached); returns the work left with no sending in flight.
    mutating func orphan(sentTo instance: RoutingID, died: Bool) -> [UInt64] {
        var orphaned: [UInt64] = []
        for (id, entry) in entries where entry.attempts.contains(instance) {
            if died { entries[id]?.instancesLost += 1 }
            for request in entry.attempts.requests(to: instance) {
                forget(instance)
                entries[id]?.attempts[request] = nil
                work[request] = nil
            }
            if entries[id]?.attempts.isEmpty == true { orphaned.append(id) }
        }
        return orphaned
    }

    private mutating func forget(_ instance: RoutingID) {
        guard let n = perInstance[instance] else { return }
        perInstance[instance] = n > 1 ? n - 1 : nil
    }

    /// Puts work `id` (none of it in flight) in the queue of work waiting for an instance of
    /// its app, found again by `unpark` when one registers.
    mutating func park(_ id: UInt64) {
        guard let entry = entries[id], !entry.parked, entry.attempts.isEmpty else { return }
        entries[id]?.parked = true
        let key = PeerNames.fold(entry.app)
        parked[key, default: WaitQueue()].ids.append(id)
        parked[key]?.bytes += entry.body.count
        waitingCount += 1
        waitingBytes += entry.body.count
    }

    /// Requests and bytes waiting for an instance of `app`.
    func waiting(for app: String) -> (count: Int, bytes: Int) {
        parked[PeerNames.fold(app)].map { ($0.ids.count, $0.bytes) } ?? (0, 0)
    }

    /// How many requests wait for each app that has some, by app name.
    var waitingByApp: [String: Int] {
        var byApp: [String: Int] = [:]
        for queue in parked.values {
            guard let first = queue.ids.first, let app = entries[first]?.app else { continue }
            byApp[app] = queue.ids.count
        }
        return byApp
    }

    /// Takes every piece of work waiting for an instance of `app` out of its queue, in the
    /// order it came in (the work itself stays, for the caller to send or fail).
    mutating func unpark(_ app: String) -> [UInt64] {
        guard let queue = parked.removeValue(forKey: PeerNames.fold(app)) else { return [] }
        waitingCount -= queue.ids.count
        waitingBytes -= queue.bytes
        for id in queue.ids { entries[id]?.parked = false }
        // Reads left by an instance that went away may be older than work parked before them.
        return queue.ids.sorted()
    }

    private mutating func unpark(one entry: Entry, _ id: UInt64) {
        let key = PeerNames.fold(entry.app)
        guard var queue = parked[key] else { return }
        queue.ids.removeAll { $0 == id }
        queue.bytes -= entry.body.count
        parked[key] = queue.ids.isEmpty ? nil : queue
        waitingCount -= 1
        waitingBytes -= entry.body.count
    }

    /// Takes work `id`.
    @discardableResult
    mutating func remove(_ id: UInt64) -> Entry? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        if entry.parked { unpark(one: entry, id) }
        for request in entry.attempts.requests {
            if let instance = entry.attempts[request] { forget(instance) }
            work[request] = nil
        }
        return entry
    }

    /// Takes every piece of work.
    mutating func removeAll() -> [Entry] {
        defer {
            entries.removeAll()
            work.removeAll()
            perInstance.removeAll()
            parked.removeAll()
            waitingCount = 0
            waitingBytes = 0
        }
        return Array(entries.values)
    }
}

/// The sendings of one piece of work: almost always one, kept inline; a read sent again
/// adds a second.
struct Attempts {
    private var first: (request: UInt64, instance: RoutingID)?
    private var more: [(request: UInt64, instance: RoutingID)] = []

    var isEmpty: Bool { first == nil && more.isEmpty }

    /// Every request id in flight.
    var requests: [UInt64] { (first.map { [$0.request] } ?? []) + more.map(\.request) }

    /// Whether a sending went to `instance`.
    func contains(_ instance: RoutingID) -> Bool {
        first?.instance == instance || more.contains { $0.instance == instance }
    }

    /// The request ids sent to `instance`.
    func requests(to instance: RoutingID) -> [UInt64] {
        ((first.map { [$0] } ?? []) + more).filter { $0.instance == instance }.map(\.request)
    }

    /// The instance request `request` went to; set `nil` to forget the sending.
    subscript(request: UInt64) -> RoutingID? {
        get {
            if let first, first.request == request { return first.instance }
            return more.first { $0.request == request }?.instance
        }
        set {
            if let first, first.request == request {
                self.first = nil
            } else {
                more.removeAll { $0.request == request }
            }
            guard let newValue else { return }
            if first == nil { first = (request, newValue) } else { more.append((request, newValue)) }
        }
    }
}
