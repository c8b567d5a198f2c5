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
        var told = Set<String>()
        // A host just started lists its launches a moment after it first answers.
        var settled: ContinuousClock.Instant?
        while ContinuousClock.now < deadline {
            do {
                let status = try connection.probe()
                if settled == nil { settled = .now + .seconds(3) }
                // An app by any name the host knows it by, as send takes it (ListOMat,
                // List-o-Mat), or by the config name of its launch ("lists").
                let missing = apps.filter { status.registered(named: $0) == nil }
                if missing.isEmpty {
                    print("ready")
                    return
                }
                // A name the host launches nothing by may be an app started by hand later,
                // or a typo: said once, so a script's log shows why it waits.
                let unheard = missing.filter { status.launch(named: $0) == nil }
                for name in unheard where settled.map({ ContinuousClock.now >= $0 }) == true && told.insert(name).inserted {
                    let hint = Self.meant(name, status).map { " (did you mean \($0)?)" } ?? ""
                    FileHandle.standardError.write(Data("intentctl: intentd launches no app named \(name)\(hint); waiting for an extension started by hand to register it\n".utf8))
                }
                last = "not registered yet: " + missing.map { name in
                    guard unheard.contains(name) else { return name }
                    return "\(name) (no launch of that name\(Self.meant(name, status).map { "; did you mean \($0)?" } ?? ""))"
                }.joined(separator: ", ")
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

    /// The name of an app or launch the host knows nearest `name`, if one is near.
    private static func meant(_ name: String, _ status: HostStatus) -> String? {
        let names = status.extensions.flatMap { [$0.appName] + $0.alternativeAppNames }
            + (status.launches ?? []).flatMap { [String($0.name.prefix { $0 != "#" }), $0.appName] }
        return SpellingDistance.nearest(to: name, among: names)
    }
}
