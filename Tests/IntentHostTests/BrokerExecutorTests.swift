import Foundation
import Synchronization
import Testing
import ZeroMQ
@testable import IntentHost
@testable import IntentProtocol

/// A stand-in for the broker: an actor on a `BrokerExecutor` whose stages are answered by
/// a `ScriptedExtension`, each reply resumed from another thread, as replies from
/// extensions arrive.
actor ExecutorBoundBroker {
    nonisolated let executor: BrokerExecutor
    let scripted = ScriptedExtension()

    init(executor: BrokerExecutor) { self.executor = executor }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
        let reply = await scripted.stage(app: app, intent: intent, stage: stage, body: body)
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: reply) }.start()
        }
    }
}

/// The lifecycle's side of a stage, as `BrokerStageSender` is: a call into the broker
/// actor. Notes whether the lifecycle is on the broker thread when it sends each stage and
/// when the reply has resumed it.
final class ThreadNotingSender: StageSender {
    let broker: ExecutorBoundBroker
    let onBrokerThread = Mutex<[Bool]>([])

    init(broker: ExecutorBoundBroker) { self.broker = broker }

    func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
        onBrokerThread.withLock { $0.append(broker.executor.isOnBrokerThread) }
        let reply = await broker.stage(app: app, intent: intent, stage: stage, body: body)
        onBrokerThread.withLock { $0.append(broker.executor.isOnBrokerThread) }
        return reply
    }
}

@Suite("Broker executor")
struct BrokerExecutorTests {
    /// Tells the stand-in broker thread to end.
    final class Stop: Sendable {
        let stopped = Atomic<Bool>(false)
    }

    /// Runs the executor's jobs on a thread of its own, as the broker's loop does, until
    /// `stop` is set.
    func startBrokerThread(_ mailbox: Mailbox<BrokerCommand>, _ executor: BrokerExecutor, stop: Stop) {
        Thread {
            executor.adoptCurrentThread()
            var poller = Poller()
            poller.add(fileDescriptor: mailbox.wakeup.fileDescriptor)
            while !stop.stopped.load(ordering: .relaxed) {
                if !mailbox.hasItems { _ = try? poller.poll(timeout: 20) }
                for case .run(let job) in mailbox.drain() { executor.run(job) }
            }
        }.start()
    }

    @Test("A lifecycle whose task prefers the broker executor sends every stage and is resumed by every reply on the broker thread")
    func lifecycleStaysOnTheBrokerThread() async throws {
        let send = try #require(try Catalog(directory: catalogDirectory).intent("SendMessage"))
        let mailbox = try Mailbox<BrokerCommand>()
        let executor = BrokerExecutor(mailbox: mailbox)
        let stop = Stop()
        startBrokerThread(mailbox, executor, stop: stop)
        defer { stop.stopped.store(true, ordering: .relaxed); mailbox.post(.stop) }
        let sender = ThreadNotingSender(broker: ExecutorBoundBroker(executor: executor))
        let driver = LifecycleDriver(sender: sender, batchedStages: false)
        let body = (try? JSON.encode(Submission(parameters: ["recipients": "Coco", "content": "hi"]))) ?? []

        let outcome = await Task(executorPreference: executor) {
            await driver.run(app: "MonkeyChat", intent: send, body: body)
        }.value

        #expect(outcome.outcome == .success)
        // Six stages, each noted when sent and when resumed.
        #expect(sender.onBrokerThread.withLock { $0 } == Array(repeating: true, count: 12))
    }

    @Test("The broker actor is entered synchronously on the broker thread outside any job, as its loop is, and nowhere else")
    func brokerThreadIsTheActorsIsolation() async throws {
        let mailbox = try Mailbox<BrokerCommand>()
        let executor = BrokerExecutor(mailbox: mailbox)
        let broker = ExecutorBoundBroker(executor: executor)
        let entered = Mutex<Bool?>(nil)
        // The broker thread lives until the checks are done: a thread that ended may have its
        // id given to another, such as the one this test resumes on.
        let done = DispatchSemaphore(value: 0)
        Thread {
            executor.adoptCurrentThread()
            // What `Broker.run` does before it polls; `checkIsolated` is what lets it.
            let stages = broker.assumeIsolated { $0.scripted.asked.withLock(\.count) }
            entered.withLock { $0 = stages == 0 }
            done.wait()
        }.start()
        defer { done.signal() }
        for _ in 0..<500 where entered.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }

        #expect(entered.withLock { $0 } == true)
        #expect(executor.isIsolatingCurrentContext() == false)
    }
}
