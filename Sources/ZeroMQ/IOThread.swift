import Foundation

/// Starts the dedicated threads that own sockets, so that no zmq call ever blocks the
/// Swift concurrency pool.
public enum IOThread {
    /// Runs `body` on a new thread named `name`. Values `body` captures move to that thread.
    public static func start(name: String, _ body: sending @escaping () -> Void) {
        let transfer = Transfer(body)
        let thread = Thread { transfer.body() }
        thread.name = name
        thread.start()
    }

    /// Carries a closure that was handed over with `sending`: no other thread keeps it.
    private final class Transfer: @unchecked Sendable {
        let body: () -> Void
        init(_ body: sending @escaping () -> Void) { self.body = body }
    }
}
