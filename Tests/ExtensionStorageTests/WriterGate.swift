import Foundation
import Synchronization

/// Holds a write on the writer connection until opened, so that the writes sent meanwhile
/// queue up and go in one group.
final class WriterGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let entered = Atomic<Bool>(false)

    /// Whether a write waits at the gate.
    var isHolding: Bool { entered.load(ordering: .sequentiallyConsistent) }

    /// Called from inside a write: blocks its connection until `open`.
    func wait() {
        entered.store(true, ordering: .sequentiallyConsistent)
        semaphore.wait()
    }

    /// Lets the held write go on.
    func open() { semaphore.signal() }
}
