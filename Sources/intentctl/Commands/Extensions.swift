import ArgumentParser
import Foundation
import IntentProtocol
import ZeroMQ

/// `intentctl extensions trust|untrust|list`: which extension keys the host trusts.
struct Extensions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Install an extension's key: trust it for one bundle id, untrust it, or list trusted keys.",
        discussion: """
            The host admits an extension only with a key the trust store binds to its bundle id. \
            Extensions the host launches get keys of their own automatically; for one started by \
            hand or on another machine:
              EXTENSION --print-identity | intentctl extensions trust -
            or, with the key it printed (in quotes: Z85 keys contain shell characters; after --,
            as a key may start with -), or a file holding it:
              intentctl extensions trust -- com.example.app 'KEY'
            Its first registration pins its manifest (names, intents, restricted intents); a \
            registration that differs is refused until it is trusted again. Works with or without \
            a running host, which reads the change at the next connection.
            """,
        subcommands: [Trust.self, Untrust.self, List.self])

    struct Trust: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Trust a key for a bundle id (and forget the manifest pinned for it).")
        @Argument(help: "The bundle id the key may register, or - to read `BUNDLE-ID KEY` (what --print-identity prints) from standard input.")
        var bundle: String
        @Argument(help: "The public key (40 Z85 characters, quoted: they include shell characters), or a file holding it.")
        var key: String?
        @Option(name: .customLong("state-dir"), help: "intentd's state directory (default \(StateDirectory.searched)).") var stateDirectory: String?

        func run() throws {
            var (bundle, key) = (bundle, key)
            if bundle == "-", key == nil {
                let words = (readLine() ?? "").split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard words.count == 2 else { throw ValidationError("expected `BUNDLE-ID KEY` on standard input") }
                (bundle, key) = (words[0], words[1])
            }
            guard let key else { throw ValidationError("give the key after the bundle id, or - alone to read both") }
            if let problem = PeerNames.problem(withBundleIdentifier: bundle) { throw ValidationError(problem) }
            let publicKey = try KeyFile.publicKey(key)
            let state = try TrustCommands.state(stateDirectory)
            try TrustFile.update(state.trustFile) { $0.trust(publicKey, bundle: bundle, origin: "trusted") }
            print("trusted \(TrustCommands.line(publicKey, bundle, "trusted"))")
        }
    }

    struct Untrust: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop trusting a key, or every key of a bundle id.")
        @Argument(help: "A public key, its fingerprint as list shows it (SHA256:…), a file holding one, or a bundle id.") var keyOrBundle: String
        @Option(name: .customLong("state-dir"), help: "intentd's state directory (default \(StateDirectory.searched)).") var stateDirectory: String?

        func run() throws {
            let key = try? KeyFile.publicKey(keyOrBundle)
            let removed = try TrustCommands.remove(\.extensions, in: stateDirectory) {
                TrustCommands.isKey($0.publicKey, said: keyOrBundle, read: key) || $0.bundleIdentifier == keyOrBundle
            } then: { store, gone in
                // A bundle id no key may register any more loses its pin too.
                for bundle in Set(gone.map(\.bundleIdentifier)) where !store.extensions.contains(where: { $0.bundleIdentifier == bundle }) {
                    store.pins[bundle] = nil
                }
            }
            guard !removed.isEmpty else { throw CommandFailure("no trusted extension key matches \(PeerNames.loggable(keyOrBundle))") }
            for entry in removed { print("untrusted \(TrustCommands.line(entry.publicKey, entry.bundleIdentifier, entry.origin))") }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List trusted extension keys with their fingerprints, as ssh-keygen -l does.")
        @Option(name: .customLong("state-dir"), help: "intentd's state directory (default \(StateDirectory.searched)).") var stateDirectory: String?

        func run() throws {
            let store = try TrustFile.load(StateDirectory(explicit: stateDirectory).trustFile)
            if store.extensions.isEmpty { print("no trusted extension keys") }
            for entry in store.extensions.sorted(by: { $0.bundleIdentifier < $1.bundleIdentifier }) {
                let pin = store.pins[entry.bundleIdentifier].map { " \($0.appName) [\($0.intentsSupported.joined(separator: ","))]" } ?? " (manifest not pinned yet)"
                print(TrustCommands.line(entry.publicKey, entry.bundleIdentifier, entry.origin) + pin)
            }
        }
    }
}

/// `intentctl clients trust|untrust|list|key`: which client keys the host answers.
struct Clients: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Allow other clients' keys (the local client's own key is always allowed), or list them.",
        discussion: """
            A client elsewhere makes its key with `intentctl clients key --client-key FILE`; on \
            the host's machine, allow it with `intentctl clients trust KEY --name laptop`.
            """,
        subcommands: [Trust.self, Untrust.self, List.self, Key.self])

    struct Trust: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Allow a client key.")
        @Argument(help: "The public key (40 Z85 characters), or a file holding it.") var key: String
        @Option(help: "A name for the client.") var name = "client"
        @Option(name: .customLong("state-dir"), help: "intentd's state directory (default \(StateDirectory.searched)).") var stateDirectory: String?

        func run() throws {
            if let problem = PeerNames.problem(withName: name, what: "the client name") { throw ValidationError(problem) }
            let publicKey = try KeyFile.publicKey(key)
            let state = try TrustCommands.state(stateDirectory)
            try TrustFile.update(state.trustFile) { store in
                store.clients.removeAll { $0.publicKey == publicKey }
                store.clients.append(TrustFile.Client(publicKey: publicKey, name: name))
            }
            print("allowed \(TrustCommands.line(publicKey, name, "client"))")
        }
    }

    struct Untrust: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop allowing a client key (by key, key file or name).")
        @Argument(help: "A public key, its fingerprint as list shows it (SHA256:…), a file holding one, or a client name.") var keyOrName: String
        @Option(name: .customLong("state-dir"), help: "intentd's state directory (default \(StateDirectory.searched)).") var stateDirectory: String?

        func run() throws {
            let key = try? KeyFile.publicKey(keyOrName)
            let removed = try TrustCommands.remove(\.clients, in: stateDirectory) { TrustCommands.isKey($0.publicKey, said: keyOrName, read: key) || $0.name == keyOrName }
            guard !removed.isEmpty else { throw CommandFailure("no allowed client key matches \(PeerNames.loggable(keyOrName))") }
            for client in removed { print("removed \(TrustCommands.line(client.publicKey, client.name, "client"))") }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List allowed client keys with their fingerprints.")
        @Option(name: .customLong("state-dir"), help: "intentd's state directory (default \(StateDirectory.searched)).") var stateDirectory: String?

        func run() throws {
            let state = StateDirectory(explicit: stateDirectory)
            if let local = try? KeyFile.load(state.clientKeyFile) {
                print(TrustCommands.line(local.publicKey, "local", "this user's \(state.clientKeyFile.path)"))
            }
            for client in try TrustFile.load(state.trustFile).clients {
                print(TrustCommands.line(client.publicKey, client.name, "client"))
            }
        }
    }

    struct Key: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print this client's public key (making its key file if there is none).")
        @Option(help: "The key file (default STATE/keys/client.key).") var clientKey: String?
        @Option(name: .customLong("state-dir"), help: "intentd's state directory (default \(StateDirectory.searched)).") var stateDirectory: String?

        func run() throws {
            let file = clientKey.map { URL(fileURLWithPath: $0) } ?? StateDirectory(explicit: stateDirectory).clientKeyFile
            print(try KeyFile.loadOrCreate(file).publicKey)
        }
    }
}

/// What the trust subcommands share.
enum TrustCommands {
    /// The state directory, created (0700) if it is not there yet.
    static func state(_ explicit: String?) throws -> StateDirectory {
        let state = StateDirectory(explicit: explicit)
        try StateDirectory.create(state.url)
        return state
    }

    /// Removes the entries of one list of the trust store that `matches` picks, lets `then`
    /// tidy up, and returns what was removed.
    static func remove<Entry>(
        _ list: WritableKeyPath<TrustFile, [Entry]>, in stateDirectory: String?, matching matches: (Entry) -> Bool,
        then tidy: (inout TrustFile, [Entry]) -> Void = { _, _ in }
    ) throws -> [Entry] {
        try TrustFile.update(state(stateDirectory).trustFile) { store in
            let gone = store[keyPath: list].filter(matches)
            store[keyPath: list].removeAll(where: matches)
            tidy(&store, gone)
            return gone
        }
    }

    /// Whether `publicKey` is the key the user named: by the key itself (`read` from what was
    /// `said`, a key or a file) or by its fingerprint as `list` prints it.
    static func isKey(_ publicKey: String, said: String, read: String?) -> Bool {
        publicKey == read || (said.hasPrefix("SHA256:") && CurveKeyPair.fingerprint(of: publicKey) == said)
    }

    /// One key as `ssh-keygen -l` prints one: bits, fingerprint, comment, (type).
    static func line(_ publicKey: String, _ comment: String, _ origin: String) -> String {
        "256 \(CurveKeyPair.fingerprint(of: publicKey)) \(comment) (CURVE, \(origin)) \(publicKey)"
    }
}
