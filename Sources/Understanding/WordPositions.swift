/// Where each word a pattern can match stands in a run of tokens (the words as typed, the
/// words they are typos of, the words an app's name stands for), so that a pattern is
/// walked only from where one of its first words is said instead of being tried at every
/// word: a long request has few starts for each pattern.
struct WordPositions {
    private var positions: [String: Bits] = [:]
    private let count: Int

    /// The positions in `tokens`.
    init(_ tokens: [Token]) {
        count = tokens.count
        for (index, token) in tokens.enumerated() {
            positions[token.word, default: Bits()].insert(index)
            if let alternate = token.alternate { positions[alternate, default: Bits()].insert(index) }
            for word in token.standsFor ?? [] { positions[word, default: Bits()].insert(index) }
        }
    }

    /// Where a match of `pattern` can start, in order: the tokens `Pattern.canStart(at:)`
    /// allows, or the start alone when there are no tokens.
    func starts(of pattern: Pattern) -> Bits {
        guard count > 0, let first = pattern.firstWords else { return Bits(below: Swift.max(count, 1)) }
        var starts = Bits()
        for word in first {
            if let at = positions[word] { starts.formUnion(at) }
        }
        return starts
    }

    /// A set of positions as bits, visited in order; the first 128 without an allocation.
    struct Bits: Sequence, IteratorProtocol {
        private var low: UInt64 = 0
        private var high: UInt64 = 0
        private var more: [UInt64] = []

        init() {}

        /// The positions `0..<count`.
        init(below count: Int) {
            for index in 0..<count { insert(index) }
        }

        mutating func insert(_ index: Int) {
            switch index {
            case ..<64: low |= 1 << UInt64(index)
            case ..<128: high |= 1 << UInt64(index - 64)
            default:
                let word = (index - 128) / 64
                while more.count <= word { more.append(0) }
                more[word] |= 1 << UInt64(index % 64)
            }
        }

        mutating func formUnion(_ other: Bits) {
            low |= other.low
            high |= other.high
            for (word, bits) in other.more.enumerated() {
                if word < more.count { more[word] |= bits } else { more.append(bits) }
            }
        }

        mutating func next() -> Int? {
            if low != 0 { return Self.take(&low, base: 0) }
            if high != 0 { return Self.take(&high, base: 64) }
            guard let word = more.firstIndex(where: { $0 != 0 }) else { return nil }
            return Self.take(&more[word], base: 128 + 64 * word)
        }

        private static func take(_ bits: inout UInt64, base: Int) -> Int {
            let index = bits.trailingZeroBitCount
            bits &= bits - 1
            return base + index
        }
    }
}
