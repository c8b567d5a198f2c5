import Foundation
import IntentProtocol
import Synchronization

/// What the supervisor knows of each configured launch, whether its process runs or not:
/// written by `ExtensionLauncher`, read for STATUS, and where `intentctl restart` leaves its
/// request to cut a back-off short.
final class LaunchBoard: Sendable {
    /// Exits in a row of runs shorter than this make a launch crash-looping after `loopCount`.
    static let shortRun = Duration.seconds(30)
    static let loopCount = 3
    /// The longest line kept as `lastError`.
    static let maxLineCharacters = 300

    private struct Entry {
        var target: LaunchTarget
        var state: LaunchStatus.State = .running
        var pid: pid_t?
        var starts = 0
        var quickExits = 0
        var restartAt: ContinuousClock.Instant?
        var lastExit: String?
        var lastLine: String?
        var lastError: String?
        var wake = false
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The launches the host is about to start, known before any of them runs: a request
    /// for one that comes before it registers waits for it (`running` with no process, for
    /// the moment until it starts).
    func plan(_ targets: [LaunchTarget]) {
        entries.withLock { entries in
            for target in targets where entries[target.name] == nil { entries[target.name] = Entry(target: target) }
        }
    }

    /// The registration of every app launched here, from its manifest, once per bundle.
    func registrations() -> [Registration] {
        entries.withLock { entries in
            var seen = Set<String>()
            return entries.values.sorted { $0.target.name < $1.target.name }.map(\.target.registration)
                .filter { seen.insert($0.bundleIdentifier).inserted }
        }
    }

    /// A process of `target` started as `pid`.
    func started(_ target: LaunchTarget, pid: pid_t) {
        entries.withLock { entries in
            var entry = entries[target.name] ?? Entry(target: target)
            entry.state = .running
            entry.pid = pid
            entry.starts += 1
            entry.restartAt = nil
            entry.lastLine = nil
            entries[target.name] = entry
        }
    }

    /// Its process ended as `how` after running `ran`; it waits until `restartAt`, or, with
    /// nil, is not restarted and stays `final` (`rejected` or `unhealthy`).
    func ended(_ name: String, _ how: String, ran: Duration, restartAt: ContinuousClock.Instant?, final: LaunchStatus.State = .rejected) {
        entries.withLock { entries in
            guard var entry = entries[name] else { return }
            entry.pid = nil
            entry.lastExit = how
            entry.lastError = entry.lastLine
            entry.quickExits = ran < Self.shortRun ? entry.quickExits + 1 : 0
            entry.restartAt = restartAt
            entry.state = restartAt == nil ? final : entry.quickExits >= Self.loopCount ? .crashLooping : .restarting
            entries[name] = entry
        }
    }

    /// `target` could not be started at all.
    func failed(_ target: LaunchTarget, _ error: any Error) {
        entries.withLock { entries in
            var entry = entries[target.name] ?? Entry(target: target)
            entry.state = .failed
            entry.pid = nil
            entry.restartAt = nil
            entry.lastError = Self.clip("\(error)")
            entries[target.name] = entry
        }
    }

    /// A line the launch wrote to its log (already escaped), kept in case it is its last.
    /// The pipe may still deliver lines after the process was seen to end: those count too.
    func noteLine(_ name: String, _ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        let clipped = Self.clip(trimmed)
        entries.withLock { entries in
            entries[name]?.lastLine = clipped
            if entries[name]?.pid == nil { entries[name]?.lastError = clipped }
        }
    }

    /// Whether someone asked to cut `name`'s back-off short; clears the request.
    func takeWake(_ name: String) -> Bool {
        entries.withLock { entries in
            guard entries[name]?.wake == true else { return false }
            entries[name]?.wake = false
            return true
        }
    }

    /// Asks for `name`'s back-off to end now.
    func wake(_ name: String) {
        entries.withLock { $0[name]?.wake = true }
    }

    /// The launches whose app is `app`: by app name, alternative name, bundle id or config
    /// name, ignoring case.
    func launches(of app: String) -> [(name: String, target: LaunchTarget, state: LaunchStatus.State, pid: pid_t?)] {
        let wanted = app.lowercased()
        return entries.withLock { entries in
            entries.values.filter { entry in
                let r = entry.target.registration
                let names = [r.appName, r.bundleIdentifier, entry.target.name, baseName(entry.target.name)] + r.alternativeAppNames.map(\.name)
                return names.contains { $0.lowercased() == wanted }
            }
            .sorted { $0.target.name < $1.target.name }
            .map { ($0.target.name, $0.target, $0.state, $0.pid) }
        }
    }

    /// Every launch, by config name.
    func status(now: ContinuousClock.Instant = .now) -> [LaunchStatus] {
        entries.withLock { entries in
            entries.values.sorted { $0.target.name < $1.target.name }.map { entry in
                let r = entry.target.registration
                let wait = entry.restartAt.map { max(0, now.duration(to: $0) / .seconds(1)) }
                return LaunchStatus(
                    name: entry.target.name, appName: r.appName, bundleIdentifier: r.bundleIdentifier, state: entry.state,
                    processIdentifier: entry.pid.map(Int.init), restarts: max(0, entry.starts - 1),
                    restartInSeconds: wait.map { ($0 * 10).rounded() / 10 }, lastExit: entry.lastExit, lastError: entry.lastError)
            }
        }
    }

    private func baseName(_ name: String) -> String {
        name.split(separator: "#").first.map(String.init) ?? name
    }

    private static func clip(_ text: String) -> String {
        text.count <= maxLineCharacters ? text : String(text.prefix(maxLineCharacters)) + "…"
    }
}
