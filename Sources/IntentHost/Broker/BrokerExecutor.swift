import Synchronization
import ZeroMQ

#if canImport(Glibc)
import Glibc
#endif

/// Runs tasks on the broker thread: a job is posted to the broker's mailbox and run
/// between two polls. Lifecycle drivers prefer it, so a lifecycle's stages move between
/// the driver and the sockets without a single thread hop.
final class BrokerExecutor: TaskExecutor, Sendable {
    private let mailbox: Mailbox<BrokerCommand>
    private let thread = Mutex<pthread_t?>(nil)

    init(mailbox: Mailbox<BrokerCommand>) {
        self.mailbox = mailbox
    }

    /// Records the broker thread; call from it before it polls.
    func adoptCurrentThread() {
        thread.withLock { $0 = pthread_self() }
    }

    /// Whether the caller is the broker thread (which drains before it sleeps).
    var isOnBrokerThread: Bool {
        thread.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        mailbox.post(.run(UnownedJob(job)), wake: !isOnBrokerThread)
    }
}
