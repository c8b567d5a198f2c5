import ArgumentParser
import Foundation
import IntentClient
import IntentProtocol
import ZeroMQ

/// `intentctl watch [APP]`
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the updates extensions push (a ride approaching, a long task done) as they arrive.",
        discussion: "Runs until Ctrl-C, or until --count updates or --for seconds. A host that stops or restarts ends it at once (exit 6): updates meanwhile are missed.")

    @Argument(help: "Only this app's updates (its registered name).")
    var app: String?

    @Option(help: "Stop after this many updates.") var count: Int?
    @Option(name: .customLong("for"), help: "Stop after this many seconds.") var seconds: Double?
    @Flag(help: "Print each update as one line of JSON.") var json = false
    @Option(help: "The host's updates endpoint (default ipc://STATE/updates.sock).") var updatesEndpoint: String?
    @OptionGroup var connection: Connection

    func run() throws {
        let endpoint = updatesEndpoint ?? StateDirectory(explicit: connection.stateDirectory).updatesEndpoint
        if endpoint.hasPrefix("ipc://"), !FileManager.default.fileExists(atPath: String(endpoint.dropFirst(6))) {
            throw CommandFailure("intentd is not running at \(endpoint)")
        }
        // An app by any name the host knows it by (monkeychat, List-o-Mat) or the config name
        // of its launch ("messaging"), as send takes it; its updates come under the name it
        // registered.
        let status = try? connection.probe()
        let registered = app.flatMap { status?.registered(named: $0)?.appName }
        let name = registered ?? app
        let socket = try Socket(try Context(), .sub)
        try connection.security().apply(to: socket, endpoint: endpoint)
        // A host that does not trust this client's key says so only in the handshake; one
        // that stops or restarts only by the connection closing.
        let events = try SocketMonitor(socket, events: SocketMonitor.authenticationFailed | SocketMonitor.disconnected)
        try socket.subscribe(name.map { Array("\($0)/".utf8) } ?? [])
        try socket.connect(endpoint)
        // Someone at a terminal sees it is running before the first update comes.
        if !json, isatty(STDERR_FILENO) == 1 {
            // A name no app has now is said so: its updates may never come.
            let unknown = status != nil && app != nil && registered == nil ? " (no app of that name is registered now)" : ""
            FileHandle.standardError.write(Data("Watching updates from \(name ?? "every app")\(unknown); Ctrl-C stops.\n".utf8))
        }
        var poller = Poller()
        poller.add(socket)
        poller.add(events.socket)
        let deadline = try seconds.map { ContinuousClock.now + (try Duration.seconds($0, for: "--for")) }
        var received = 0
        while count.map({ received < $0 }) ?? true {
            var wait = 1000
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return }
                wait = min(wait, Int(left.components.seconds) * 1000 + Int(left.components.attoseconds / 1_000_000_000_000_000) + 1)
            }
            guard try poller.poll(timeout: wait) > 0 else { continue }
            let seen = try events.drain().map(\.kind)
            if seen.contains(SocketMonitor.authenticationFailed) { throw ClientError.keyRefused(endpoint) }
            if seen.contains(SocketMonitor.disconnected) {
                FileHandle.standardError.write(Data("intentctl: intentd at \(endpoint) went away (it stopped or restarted): updates sent meanwhile are missed\n".utf8))
                throw ExitCode(Exit.outcomeUnknown)
            }
            guard let frames = try socket.receiveFrames(wait: false), frames.count == 2,
                let update = try? JSON.decode(Update.self, from: frames[1].bytes),
                // The prefix `APP/` also matches an app whose name goes on with a slash.
                name.map({ $0 == update.app }) ?? true
            else { continue }
            received += 1
            // Written straight away, unbuffered, so a pipe sees each update as it comes.
            let line = json ? String(decoding: JSON.encodeLine(update), as: UTF8.self)
                : "\(update.time) \(update.app) \(update.topic): \(Self.describe(update.payload))"
            FileHandle.standardOutput.write(Data((PeerNames.printable(line) + "\n").utf8))
        }
    }

    /// A one-line summary: the `summary` member if the extension gave one, else compact JSON.
    static func describe(_ payload: JSONValue) -> String {
        payload["summary"]?.stringValue ?? String(decoding: payload.serialized(), as: UTF8.self)
    }
}

extension JSON {
    /// Compact JSON for one line of output.
    static func encodeLine(_ value: some Encodable) -> [UInt8] { (try? encode(value)) ?? [] }
}
