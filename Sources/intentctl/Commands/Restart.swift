import ArgumentParser
import Foundation
import IntentClient
import IntentProtocol

/// `intentctl restart APP`
struct Restart: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start an app's extension again now: one waiting to restart or rejected starts at once, one running is stopped and started.",
        discussion: "Only for extensions the host launches. Prints each once its new process runs (waiting up to 5 s); `intentctl status` shows how each is doing.")

    @Argument(help: "The app: its name, an alternative name, its bundle id, or its name in the host's config (messaging).")
    var app: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var connection: Connection

    /// How long the new processes have to start before what is known is printed.
    static let startWait = Duration.seconds(5)

    func run() throws {
        let client = try connection.client()
        var state = try client.restart(app: app)
        // The host answers as it starts them: the state after, once each runs again.
        // A launch runs again once it has a process other than the one it had.
        let before = Dictionary(state.launches.map { ($0.name, $0.processIdentifier) }) { first, _ in first }
        func runsAgain(_ launch: LaunchStatus) -> Bool {
            launch.state == .running && launch.processIdentifier != nil && launch.processIdentifier != before[launch.name] ?? nil
        }
        let deadline = ContinuousClock.now + Self.startWait
        while ContinuousClock.now < deadline {
            let now = try client.status().launches?.filter { before[$0.name] != nil } ?? []
            if !now.isEmpty { state.launches = now }
            if now.count == before.count, now.allSatisfy(runsAgain) { break }
            usleep(50_000)
        }
        if json {
            print(JSON.pretty(state))
            return
        }
        for launch in state.launches {
            let started = runsAgain(launch) ? launch.processIdentifier.map { "running, pid \($0)" } : nil
            print("restarted \(launch.name) (\(launch.appName)): " + (started ?? "\(launch.state.rawValue), no new process yet"))
        }
    }
}
