import ArgumentParser
import Foundation
import IntentClient
import IntentProtocol

/// `intentctl wait [APP ...]`
struct Wait: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Wait until intentd answers and the named apps have registered.",
        discussion: "For scripts: `intentd --extensions messaging & intentctl wait MonkeyChat`.")

    @Argument(help: "Apps that must be registered.")
    var apps: [String] = []

    @Option(name: .customLong("for"), help: "Seconds to wait at most.")
    var seconds: Double = 30

    @OptionGroup var connection: Connection

    func run() throws {
        let deadline = ContinuousClock.now + (try Duration.seconds(seconds, for: "--for"))
        var last = "intentd did not answer"
        while ContinuousClock.now < deadline {
            do {
                let status = try connection.probe()
                // An app by any name the host knows it by, as send takes it (ListOMat,
                // List-o-Mat), or by the config name of its launch ("lists").
                let missing = apps.filter { status.registered(named: $0) == nil }
                if missing.isEmpty {
                    print("ready")
                    return
                }
                last = "not registered yet: \(missing.joined(separator: ", "))"
            } catch ClientError.keyRefused(let endpoint) {
                // Waiting longer will not make the host trust this client.
                throw ClientError.keyRefused(endpoint)
            } catch {
                last = "\(error)"
            }
            usleep(100_000)
        }
        throw CommandFailure("gave up after \(seconds) s: \(last)")
    }
}
