import ArgumentParser
import Foundation
import IntentClient
import IntentProtocol

/// The command-line client of intentd.
struct IntentCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intentctl",
        abstract: "Talk to a running intentd: send intents, see status, lock and unlock.",
        discussion: """
            Exit status: 0 success, 3 needs user input, 4 refused by the host, \
            5 failure reported by the extension, 6 outcome unknown (the work may have \
            been done: send it again with the same --idempotency-key to find out), 2 usage \
            or connection error.
            """,
        subcommands: [Send.self, Ask.self, Chat.self, Status.self, Lock.self, Unlock.self, Wait.self, Watch.self, Vocab.self, Authorize.self, Restart.self, Bench.self, New.self,
            Logs.self, Extensions.self, Clients.self, Conformance.self])
}

/// Where the host is, shared by every subcommand.
struct Connection: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: "intentd's state directory (default \(StateDirectory.searched)).")
    var stateDirectory: String?

    @Option(help: "The host's client endpoint (default ipc://STATE/client.sock).")
    var endpoint: String?

    @Option(help: "Seconds to wait for an answer.")
    var timeout: Double = 60

    @Option(help: "This client's key file (default STATE/keys/client.key, which the host always allows).")
    var clientKey: String?

    @Option(help: "The host's public key, or its server.pub file (default STATE/server.pub).")
    var serverKey: String?

    func client() throws -> IntentClient {
        let endpoint = endpoint ?? StateDirectory(explicit: stateDirectory).clientEndpoint
        return try IntentClient(endpoint: endpoint, timeout: .milliseconds(Int(timeout * 1000)), security: security())
    }

    /// The host's status, waiting at most a second: whether it is there yet.
    func probe() throws -> HostStatus {
        var quick = self
        quick.timeout = 1
        return try quick.client().status()
    }

    /// Who this client is to the host, and the host's key.
    func security() throws -> ConnectionSecurity {
        let state = StateDirectory(explicit: stateDirectory)
        if clientKey == nil, serverKey == nil, endpoint == nil || endpoint == state.clientEndpoint,
            !FileManager.default.fileExists(atPath: state.serverPublicKeyFile.path)
        {
            throw ClientError.notRunning(state.clientEndpoint)
        }
        return try ConnectionSecurity.client(state: state, clientKey: clientKey, serverKey: serverKey)
    }
}

/// The exit statuses intentctl promises.
enum Exit {
    static let usage: Int32 = 2
    static let needsUserInput: Int32 = 3
    static let refused: Int32 = 4
    /// The host's error codes that are refusals: nothing was done, and the words were fine.
    static let refusals: Set<String> = [
        ErrorCode.overloaded, .unknownApp, .unknownIntent, .requiresUnlock, .notAuthorized, .notLaunched,
    ].reduce(into: []) { $0.insert($1.rawValue) }
    static let failure: Int32 = 5
    /// A handle was sent and no answer came: it may or may not have been done. Retry
    /// with the same `--idempotency-key` to find out; it is never done twice.
    static let outcomeUnknown: Int32 = 6

    /// The exit status for an outcome: its kind's, or 6 for `outcomeUnknown`.
    static func status(for outcome: Outcome) -> Int32 {
        outcome.code == ErrorCode.outcomeUnknown.rawValue ? outcomeUnknown : status(for: outcome.outcome)
    }

    static func status(for outcome: Outcome.Kind) -> Int32 {
        switch outcome {
        case .success: 0
        case .needsUserInput: needsUserInput
        case .refused: refused
        case .failure: failure
        }
    }
}

@main
enum Main {
    static func main() {
        do {
            var command = try IntentCtl.parseAsRoot()
            try command.run()
        } catch let error as ClientError {
            FileHandle.standardError.write(Data("intentctl: \(PeerNames.printable("\(error)"))\n".utf8))
            // A change the host could not save is a failure of the request, not of its words.
            if case .host(ErrorCode.stateNotSaved.rawValue, _) = error { exit(Exit.failure) }
            // The host went away mid-request, or a request that may lead to a handle had no
            // answer in time: whether it was done is unknown, as for outcomeUnknown.
            if case .hostLost = error { exit(Exit.outcomeUnknown) }
            if error.unsettledKey != nil { exit(Exit.outcomeUnknown) }
            // A host that refused the request before doing anything (overloaded, an app or
            // intent it does not know, one the lock or the user's decision keeps from it):
            // a refusal, as `send` says of the same codes.
            if case .host(let code, _) = error, Exit.refusals.contains(code) { exit(Exit.refused) }
            // So did one that does not trust this client's key.
            if case .keyRefused = error { exit(Exit.refused) }
            exit(Exit.usage)
        } catch let error as ExitCode {
            exit(error.rawValue)
        } catch {
            let code = IntentCtl.exitCode(for: error)
            let message = IntentCtl.fullMessage(for: error)
            if code == .success {
                print(message)
                exit(0)
            }
            FileHandle.standardError.write(Data("\(PeerNames.printable(message))\n".utf8))
            exit(Exit.usage)
        }
    }
}
