import ArgumentParser
import IntentClient
import IntentProtocol

/// `intentctl status`
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show registered extensions, their intents, rejected registrations and the lock state.")

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var connection: Connection

    func run() throws {
        let status = try connection.client().status()
        print(json ? JSON.pretty(status) : StatusText(status).description)
    }
}

/// `intentctl lock`
struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lock the device: intents restricted while locked are refused until unlock.")

    @OptionGroup var connection: Connection

    func run() throws {
        try connection.client().setLocked(true)
        print("locked")
    }
}

/// `intentctl unlock`
struct Unlock: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Unlock the device.")

    @OptionGroup var connection: Connection

    func run() throws {
        try connection.client().setLocked(false)
        print("unlocked")
    }
}
