import Synchronization

/// A queue that any thread may post to and one polling thread drains, waking it through
/// a `Wakeup` only when the queue goes from empty to non-empty.
public final class Mailbox<Item: Sendable>: Sendable {
    private let queue = Mutex<[Item]>([])
    /// Add `wakeup.fileDescriptor` to the draining thread's `Poller`.
    public let wakeup: Wakeup

    /// Creates an empty mailbox.
    public init() throws(ZMQError) {
        wakeup = try Wakeup()
    }

    /// Queues `item` and wakes the draining thread if it may be asleep. Pass
    /// `wake: false` only from the draining thread itself, which will drain before it sleeps.
    public func post(_ item: sending Item, wake: Bool = true) {
        let wasEmpty = queue.withLock { queue in
            queue.append(item)
            return queue.count == 1
        }
        if wasEmpty && wake { wakeup.signal() }
    }

    /// Whether anything is queued (for the draining thread, before it sleeps).
    public var hasItems: Bool { queue.withLock { !$0.isEmpty } }

    /// Takes every queued item, oldest first, and resets the wakeup.
    public func drain() -> [Item] {
        var items: [Item] = []
        drain(into: &items, wokenUp: true)
        return items
    }

    /// Moves every queued item, oldest first, into `items` (emptied first; the two arrays
    /// trade storage, so a loop that keeps `items` allocates nothing). Pass `wokenUp: true`
    /// when the poller reported the wakeup readable, to reset it; items the draining thread
    /// posted to itself need no system call.
    public func drain(into items: inout [Item], wokenUp: Bool) {
        if wokenUp { wakeup.drain() }
        items.removeAll(keepingCapacity: true)
        queue.withLock { queue in swap(&items, &queue) }
    }
}
