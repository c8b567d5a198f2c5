import Foundation
import Logging
import ServiceLifecycle
import ZeroMQ

/// Starts an extension: reads its options and manifest, prepares its sandbox, creates it,
/// and connects it to the host.
public enum ExtensionRunner {
    /// Ends the process with a status: 78 means "rejected or misconfigured, do not restart".
    public struct Exit: Error {
        /// The exit status.
        public let status: Int32

        /// Ends with `status`.
        public init(status: Int32) { self.status = status }
    }

    /// Options, from the command line or the environment the host sets for its children.
    struct Options {
        var endpoint: String?
        var stateDirectory: String?
        var manifest: String?
        var parentPID: Int32?
        var sandboxDirectory: String?
        var launchToken: String?
        var identity: String?
        var serverKey: String?
        var printIdentity = false
        /// The key pair and host key the host hands to an extension it launches.
        var given: ConnectionSecurity?

        init(arguments: [String], environment: [String: String]) throws {
            endpoint = environment["INTENTD_EXTENSION_ENDPOINT"]
            stateDirectory = environment["INTENTD_STATE_DIR"]
            parentPID = environment["INTENTD_PARENT_PID"].flatMap { Int32($0) }
            sandboxDirectory = environment["INTENTD_SANDBOX_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            launchToken = environment["INTENTD_LAUNCH_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            identity = environment["INTENTD_IDENTITY"]
            serverKey = environment["INTENTD_SERVER_KEY"]
            if let secret = environment["INTENTD_CURVE_SECRETKEY"], let keys = CurveKeyPair(secretKey: secret),
                let server = environment["INTENTD_CURVE_SERVERKEY"], CurveKeyPair.isKey(server)
            {
                given = ConnectionSecurity(keys: keys, serverKey: server)
            }
            var rest = arguments[...]
            while let flag = rest.popFirst() {
                switch flag {
                case "--endpoint": endpoint = rest.popFirst()
                case "--state-dir": stateDirectory = rest.popFirst()
                case "--manifest": manifest = rest.popFirst()
                case "--identity": identity = rest.popFirst()
                case "--server-key": serverKey = rest.popFirst()
                case "--print-identity": printIdentity = true
                case "-h", "--help":
                    print("""
                        usage: \(CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "extension") [--endpoint E] [--state-dir DIR] [--manifest FILE] [--identity FILE] [--server-key KEY] [--print-identity]
                          --endpoint        the host's extension endpoint (default ipc://STATE/extensions.sock)
                          --state-dir       the host's state directory (default $INTENTD_STATE_DIR, else $XDG_STATE_HOME/intentd, else ~/.local/state/intentd)
                          --manifest        the Info.plist-style manifest to register with
                          --identity        this extension's key file, made on first use (default SANDBOX/identity.key)
                          --server-key      the host's public key or its server.pub file (default STATE/server.pub)
                          --print-identity  print the bundle id and public key to trust, then exit
                        """)
                    throw Exit(status: 0)
                default:
                    FileHandle.standardError.write(Data("error: unknown option \(flag) (try --help)\n".utf8))
                    throw Exit(status: 2)
                }
            }
        }
    }

    /// Runs `Extension` until the host rejects it or the process is stopped.
    public static func run<Extension: IntentExtension>(_ type: Extension.Type, arguments: [String]) async throws {
        let options = try Options(arguments: arguments, environment: ProcessInfo.processInfo.environment)
        guard let url = options.manifest.map({ URL(fileURLWithPath: $0) }) ?? Extension.manifestURL else {
            throw ManifestError("no manifest: pass --manifest FILE")
        }
        var registration = try Manifest(contentsOf: url).registration
        registration.processIdentifier = Int(getpid())
        registration.launchToken = options.launchToken
        registration.stages = Extension.takesBatchedStages ? [StageBatch.capability] : []
        let vocabularyFile = url.deletingLastPathComponent().appendingPathComponent("AppIntentVocabulary.plist")
        if FileManager.default.fileExists(atPath: vocabularyFile.path) {
            registration.vocabulary = try AppVocabulary(contentsOf: vocabularyFile)
        }
        let log = RequestMetadata.logger(app: registration.appName)
        let state = StateDirectory(explicit: options.stateDirectory)
        if let problem = PeerNames.problem(withBundleIdentifier: registration.bundleIdentifier) {
            throw ManifestError("\(url.path): \(problem)")
        }
        // The host names the sandbox of an extension it launched; one started by hand uses
        // its place in the state directory.
        let sandbox = options.sandboxDirectory.map { URL(fileURLWithPath: $0) } ?? state.sandbox(for: registration.bundleIdentifier)
        try StateDirectory.create(sandbox)
        let identity = options.identity.map { URL(fileURLWithPath: $0) } ?? sandbox.appendingPathComponent("identity.key")
        if options.printIdentity {
            // What the user passes to `intentctl extensions trust` to install this extension.
            let key = try options.given?.keys.publicKey ?? KeyFile.loadOrCreate(identity).publicKey
            print("\(registration.bundleIdentifier) \(key)")
            throw Exit(status: 0)
        }
        if options.given == nil, options.serverKey == nil {
            // Started before the host: its key appears when it starts.
            var said = false
            while !FileManager.default.fileExists(atPath: state.serverPublicKeyFile.path) {
                if !said { log.info("waiting for the host's key at \(state.serverPublicKeyFile.path)") }
                said = true
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        let security = try options.given ?? ConnectionSecurity(
            keys: KeyFile.loadOrCreate(identity), serverKey: ConnectionSecurity.serverKey(options.serverKey, state: state))

        let outbox = try Mailbox<Outgoing>()
        let context = ExtensionContext(
            sandboxDirectory: sandbox, bundleIdentifier: registration.bundleIdentifier, app: registration.appName, outbox: outbox)
        let instance = try await Extension(context: context)
        let connection = ExtensionConnection(
            endpoint: options.endpoint ?? state.extensionEndpoint, registration: registration,
            security: security, parentPID: options.parentPID, log: log, dispatcher: Dispatcher(extension: instance), outbox: outbox,
            stateDirectory: state.url.path)
        let service = ExtensionService(connection: connection, stop: { await instance.stop() }, log: log)
        let group = ServiceGroup(configuration: .init(
            services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: log))
        try await group.run()
    }
}
