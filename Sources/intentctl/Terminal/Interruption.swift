import Dispatch
import Foundation
import LoadTest
import Synchronization

/// Ctrl-C, SIGTERM or SIGHUP during a long command (a load test): the first asks the command
/// to stop and finish (`requested`); one that has not finished `grace` later (it was starting a
/// host or running the reference, which do not ask) stops the processes it started
/// (`own`), removes their temporary directories, and exits 130.
final class Interruption: Sendable {
    /// Seconds a command has to finish after the signal before it is ended for it.
    static let grace = 3.0

    private let flag = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    /// The processes started, each with the temporary directory that goes with it.
    private let started = Mutex<[(pid: pid_t, directory: String?)]>([])
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    /// Takes over SIGINT, SIGTERM and SIGHUP until `finish()`.
    init() {
        let signals = [SIGINT, SIGTERM, SIGHUP]
        for number in signals { signal(number, SIG_IGN) }
        sources = signals.map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
        for source in sources {
            source.setEventHandler { [weak self] in self?.heard() }
            source.resume()
        }
    }

    /// Whether a signal asked the command to stop.
    var requested: Bool { flag.load(ordering: .relaxed) }

    /// A process the command started, to stop if it does not finish in time.
    func own(pid: pid_t, directory: String? = nil) { started.withLock { $0.append((pid, directory)) } }

    /// The command is done: signals act as usual again.
    func finish() {
        finished.store(true, ordering: .relaxed)
        for source in sources { source.cancel() }
        for number in [SIGINT, SIGTERM, SIGHUP] { signal(number, SIG_DFL) }
    }

    private func heard() {
        guard !flag.exchange(true, ordering: .relaxed) else { return }
        // Over the progress line, on a terminal.
        FileHandle.standardError.write(Data(((isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[K" : "") + "intentctl: stopping…\n").utf8))
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.grace) { [weak self] in
            guard let self, !self.finished.load(ordering: .relaxed) else { return }
            // Only a process still this one's child: an ended one's pid may be another's now.
            let started = self.started.withLock { $0 }.filter { Self.isChild($0.pid) }
            for (pid, _) in started { kill(pid, SIGTERM) }
            // A host stops its extensions as it goes; its directory goes after it.
            for _ in 0..<50 where started.contains(where: { Self.isRunning($0.pid) }) { usleep(100_000) }
            for case let (_, directory?) in started { try? FileManager.default.removeItem(atPath: directory) }
            exit(130)
        }
    }

    /// Whether `pid` is alive (an exited child not yet waited for counts as gone).
    private static func isRunning(_ pid: pid_t) -> Bool {
        ProcessStat.read(pid: Int(pid)).map { !$0.hasEnded } ?? false
    }

    /// Whether `pid` is a process this one started and that has not ended.
    private static func isChild(_ pid: pid_t) -> Bool {
        ProcessStat.read(pid: Int(pid)).map { !$0.hasEnded && $0.parent == Int(getpid()) } ?? false
    }
}
