import Synchronization
import ZeroMQ

#if canImport(Glibc)
import Glibc
#endif

/// The broker thread as an executor: a job is posted to the broker's mailbox and run
/// between two polls. It is the `Broker` actor's serial executor, so the compiler knows
/// what runs there, and the executor lifecycles prefer as tasks, so that their steps
/// outside the actor stay on the thread too: a stage's reply resumes its lifecycle with a
/// mailbox entry, never a thread hop or a wake-up (`deploy/probes/actor-resume` measures
/// the alternatives).
final class BrokerExecutor: SerialExecutor, TaskExecutor, Sendable {
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

    /// Runs a job taken from the mailbox, as the broker actor and as the task's executor.
    func run(_ job: UnownedJob) {
        job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Lets the broker's loop, which runs outside any job, assume the actor's isolation.
    func checkIsolated() {
        precondition(isOnBrokerThread, "expected to run on the broker thread")
    }

    func isIsolatingCurrentContext() -> Bool? {
        isOnBrokerThread
    }
}
