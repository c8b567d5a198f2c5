import Foundation
import Synchronization

/// A serial executor that runs on one thread, as the broker thread does: jobs and plain
/// calls (standing in for messages from the sockets) queue under a lock. Counts how many
/// jobs are enqueued, and how many of them from another thread (each a thread crossing).
final class ThreadExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    private enum Item {
        case job(UnownedJob)
        case call(@Sendable () -> Void)
    }
    private let condition = NSCondition()
    private var items: [Item] = []
    private nonisolated(unsafe) var thread: pthread_t?
    let enqueued = Atomic<Int>(0)
    let fromElsewhere = Atomic<Int>(0)

    func enqueue(_ job: consuming ExecutorJob) {
        enqueued.add(1, ordering: .relaxed)
        if !isCurrent { fromElsewhere.add(1, ordering: .relaxed) }
        condition.lock()
        items.append(.job(UnownedJob(job)))
        condition.signal()
        condition.unlock()
    }

    /// Runs `call` on the thread, outside any job (as the broker handles a reply).
    func post(_ call: @escaping @Sendable () -> Void) {
        condition.lock()
        items.append(.call(call))
        condition.signal()
        condition.unlock()
    }

    private var isCurrent: Bool { thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    func checkIsolated() { precondition(isCurrent, "not on the executor's thread") }
    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
    func asUnownedTaskExecutor() -> UnownedTaskExecutor { UnownedTaskExecutor(ordinary: self) }

    func start() {
        let started = Atomic<Bool>(false)
        Thread { [self] in
            thread = pthread_self()
            started.store(true, ordering: .releasing)
            while true {
                condition.lock()
                while items.isEmpty { condition.wait() }
                let batch = items
                items.removeAll(keepingCapacity: true)
                condition.unlock()
                for item in batch {
                    switch item {
                    case .job(let job):
                        if runsAsActor {
                            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
                        } else {
                            job.runSynchronously(on: asUnownedTaskExecutor())
                        }
                    case .call(let call): call()
                    }
                }
            }
        }.start()
        while !started.load(ordering: .acquiring) { usleep(1000) }
    }
}

let executor = ThreadExecutor()
/// How the thread runs a job: as the actor's serial executor and the task's executor at
/// once (intentd's `BrokerExecutor` now), or as a task executor only (before the actor).
nonisolated(unsafe) var runsAsActor = true

/// The broker as an actor on that thread: a stage's reply comes back later, from the thread.
actor Broker {
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private var waiting: [Int: UnsafeContinuation<Int, Never>] = [:]
    private var last = 0

    func stage() async -> Int {
        last += 1
        let id = last
        return await withUnsafeContinuation { continuation in
            waiting[id] = continuation
            executor.post { [self] in assumeIsolated { $0.replied(id) } }
        }
    }

    private func replied(_ id: Int) { waiting.removeValue(forKey: id)?.resume(returning: id) }

    /// A lifecycle written inside the actor.
    func lifecycle(stages: Int) async -> Int {
        var sum = 0
        for _ in 0..<stages { sum &+= await stage() }
        return sum
    }
}

/// The stages as a lifecycle driver sees them, so that tests can stand in for the broker.
protocol StageSender: Sendable {
    nonisolated(nonsending) func stage() async -> Int
}
extension Broker: StageSender {}

/// A lifecycle outside the actor that knows only a `StageSender` and runs on its caller's
/// executor (intentd's `LifecycleDriver`, whose module makes that the default).
nonisolated(nonsending) func driveLifecycle(through sender: some StageSender, stages: Int) async -> Int {
    var sum = 0
    for _ in 0..<stages { sum &+= await sender.stage() }
    return sum
}

extension Broker {
    /// Drives that lifecycle from the actor, as `Broker.drive` does.
    func drive(stages: Int) async -> Int {
        await driveLifecycle(through: self, stages: stages)
    }
}

/// intentd before its broker was an actor: the lifecycle prefers the thread as its task
/// executor and each stage's reply resumes it from the thread.
func lifecycleOnTaskExecutor(stages: Int) async -> Int {
    var sum = 0
    for i in 0..<stages {
        sum &+= await withUnsafeContinuation { continuation in
            executor.post { continuation.resume(returning: i) }
        }
    }
    return sum
}

func measure(_ name: String, stages: Int, _ body: () async -> Int) async {
    let enqueued = executor.enqueued.load(ordering: .relaxed), elsewhere = executor.fromElsewhere.load(ordering: .relaxed)
    let start = ContinuousClock.now
    _ = await body()
    let elapsed = start.duration(to: .now)
    let jobs = executor.enqueued.load(ordering: .relaxed) - enqueued
    let crossings = executor.fromElsewhere.load(ordering: .relaxed) - elsewhere
    let perStage = Double(elapsed.components.seconds) * 1e9 / Double(stages) + Double(elapsed.components.attoseconds) / 1e9 / Double(stages)
    print("\(name): \(jobs) jobs enqueued on the thread for \(stages) stages, \(crossings) from another thread; \(Int(perStage)) ns a stage")
}

executor.start()
let broker = Broker()
let stages = 10_000
await measure("lifecycle inside the actor", stages: stages) { await broker.lifecycle(stages: stages) }
await measure("the same, the thread also the task's preferred executor", stages: stages) {
    await Task(executorPreference: executor) { await broker.lifecycle(stages: stages) }.value
}
await measure("lifecycle outside through a protocol, driven from the actor, preferred executor (intentd)", stages: stages) {
    await Task(executorPreference: executor) { await broker.drive(stages: stages) }.value
}
runsAsActor = false
await measure("no actor, jobs run as the task's preferred executor only (intentd before)", stages: stages) {
    await Task(executorPreference: executor) { await lifecycleOnTaskExecutor(stages: stages) }.value
}
