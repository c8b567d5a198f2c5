import ArgumentParser
import IntentClient
import IntentProtocol

/// `intentctl restart APP`
struct Restart: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start an app's extension again now: one waiting to restart or rejected starts at once, one running is stopped and started.",
        discussion: "Only for extensions the host launches. `intentctl status` shows how each is doing.")

    @Argument(help: "The app: its name, an alternative name, its bundle id, or its name in the host's config (messaging).")
    var app: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var connection: Connection

    func run() throws {
        let state = try connection.client().restart(app: app)
        if json {
            print(JSON.pretty(state))
            return
        }
        for launch in state.launches {
            print("restarting \(launch.name) (\(launch.appName))")
        }
    }
}
