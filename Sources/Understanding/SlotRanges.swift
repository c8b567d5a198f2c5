/// The runs of tokens a match captured, by slot name. A pattern has a few slots, so they
/// are kept in a short list searched in order, not hashed: the match's walk sets and
/// clears a slot at every word it tries as the slot's end.
struct SlotRanges: Sequence {
    private var slots: [(name: String, range: Range<Int>)] = []

    /// The run captured for `name`; setting nil clears it.
    subscript(name: String) -> Range<Int>? {
        get {
            for slot in slots where slot.name == name { return slot.range }
            return nil
        }
        set {
            guard let index = slots.firstIndex(where: { $0.name == name }) else {
                if let newValue { slots.append((name, newValue)) }
                return
            }
            if let newValue { slots[index].range = newValue } else { slots.remove(at: index) }
        }
    }

    func makeIterator() -> IndexingIterator<[(name: String, range: Range<Int>)]> { slots.makeIterator() }
}
