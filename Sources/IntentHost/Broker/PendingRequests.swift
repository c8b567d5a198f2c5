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

/// Requests sent to extensions and not yet answered, with their deadlines.
///
/// Every request gets the same timeout, so deadlines arrive in the order requests were
/// sent: expiry checks only the front of a FIFO, O(1) per request.
struct PendingRequests {
    struct Entry {
        let origin: Origin
        let instance: RoutingID
        let deadline: ContinuousClock.Instant
    }

    private var entries: [UInt64: Entry] = [:]
    private var order: [(id: UInt64, deadline: ContinuousClock.Instant)] = []
    private var head = 0
    private var nextID: UInt64 = 1
    private var perInstance: [RoutingID: Int] = [:]

    var count: Int { entries.count }

    /// Requests sent to `instance` and not yet answered.
    func count(sentTo instance: RoutingID) -> Int { perInstance[instance, default: 0] }

    /// The earliest deadline that may still be waiting.
    var nextDeadline: ContinuousClock.Instant? { head < order.count ? order[head].deadline : nil }

    /// Records a request and returns the id to send it under.
    mutating func insert(_ origin: Origin, instance: RoutingID, deadline: ContinuousClock.Instant) -> RequestID {
        let id = nextID
        nextID &+= 1
        entries[id] = Entry(origin: origin, instance: instance, deadline: deadline)
        order.append((id, deadline))
        perInstance[instance, default: 0] += 1
        return RequestID(id)
    }

    private mutating func forget(_ entry: Entry) {
        guard let n = perInstance[entry.instance] else { return }
        perInstance[entry.instance] = n > 1 ? n - 1 : nil
    }

    /// Takes the entry answered by `id`, if it is still waiting, and only from `instance`.
    mutating func take(_ id: RequestID, from instance: RoutingID) -> Entry? {
        guard let entry = entries[id.value], entry.instance == instance else { return nil }
        entries[id.value] = nil
        forget(entry)
        return entry
    }

    /// Takes every entry whose deadline has passed.
    mutating func expire(now: ContinuousClock.Instant) -> [Entry] {
        var expired: [Entry] = []
        while head < order.count, order[head].deadline <= now {
            if let entry = entries.removeValue(forKey: order[head].id) {
                forget(entry)
                expired.append(entry)
            }
            head += 1
        }
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        return expired
    }

    /// Takes every entry sent to `instance`.
    mutating func removeAll(sentTo instance: RoutingID) -> [Entry] {
        let ids = entries.filter { $0.value.instance == instance }.map(\.key)
        perInstance[instance] = nil
        return ids.compactMap { entries.removeValue(forKey: $0) }
    }

    /// Takes every entry.
    mutating func removeAll() -> [Entry] {
        defer {
            entries.removeAll()
            perInstance.removeAll()
        }
        return Array(entries.values)
    }
}
