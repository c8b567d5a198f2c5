/// Counts events in one-second windows, in all and per key, against a bound for each:
/// what the host's limiters share. The table of keys is emptied with each window.
struct PerSecondBudget<Key: Hashable> {
    /// Events allowed from all keys together in one second.
    let total: Int
    /// Events allowed from one key in one second.
    let perKey: Int

    private var windowStart: ContinuousClock.Instant?
    private var used = 0
    private var byKey: [Key: Int] = [:]

    init(total: Int, perKey: Int) {
        self.total = total
        self.perKey = perKey
    }

    /// Whether one more event from `key` fits now; counts it if so.
    mutating func take(_ key: Key, now: ContinuousClock.Instant) -> Bool {
        if windowStart.map({ $0.duration(to: now) >= .seconds(1) }) ?? true {
            windowStart = now
            used = 0
            byKey.removeAll(keepingCapacity: byKey.count < 1024)
        }
        let mine = byKey[key, default: 0]
        guard used < total, mine < perKey else { return false }
        used += 1
        byKey[key] = mine + 1
        return true
    }
}
