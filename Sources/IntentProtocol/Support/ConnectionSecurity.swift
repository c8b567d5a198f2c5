import Foundation
import ZeroMQ

/// How a connecting peer (a client or an extension) proves who it is to the host and
/// knows it talks to the real host: its own CURVE key pair and the host's public key.
///
/// Every endpoint is authenticated. tcp always uses CURVE (authenticated and encrypted);
/// on ipc, where the kernel keeps the bytes private and the socket file sits in a 0700
/// directory, the peer proves its key with the cheaper PLAIN mechanism (see `usesPlain`):
/// CURVE on ipc cost about a third more CPU per request (the README's Benchmarks).
public struct ConnectionSecurity: Sendable, Equatable {
    /// This peer's key pair.
    public var keys: CurveKeyPair
    /// The host's public key.
    public var serverKey: String

    /// Creates the security of a peer.
    public init(keys: CurveKeyPair, serverKey: String) {
        self.keys = keys
        self.serverKey = serverKey
    }

    /// Whether an endpoint authenticates with PLAIN (user name: the peer's public key;
    /// password: its secret key, which the host checks against the public key) instead of
    /// CURVE. Host and peers decide it by this one function.
    public static func usesPlain(_ endpoint: String) -> Bool {
        endpoint.hasPrefix("ipc://") && ipcMechanism != "curve"
    }

    /// The variable that makes ipc use CURVE too (`INTENTD_IPC_MECHANISM=curve`), to
    /// measure what it costs; the host passes it on to the extensions it launches.
    public static let ipcMechanismVariable = "INTENTD_IPC_MECHANISM"

    /// The mechanism on ipc endpoints: `plain` unless `INTENTD_IPC_MECHANISM=curve`.
    public static let ipcMechanism = ProcessInfo.processInfo.environment[ipcMechanismVariable] ?? "plain"

    /// Sets up `socket` to connect to the host at `endpoint`; call before `connect`.
    public func apply(to socket: Socket, endpoint: String) throws(ZMQError) {
        if Self.usesPlain(endpoint) {
            try socket.makePlainClient(username: keys.publicKey, password: keys.secretKey)
        } else {
            try socket.makeCurveClient(keys, serverKey: serverKey)
        }
    }

    /// The local user's client identity in a state directory: `STATE/keys/client.key`
    /// (created if missing) and the host's published key `STATE/server.pub`. Either can be
    /// replaced: `clientKey` names another key file, `serverKey` a key or a `.pub` file.
    public static func client(state: StateDirectory, clientKey: String? = nil, serverKey: String? = nil) throws -> ConnectionSecurity {
        let keys = try KeyFile.loadOrCreate(clientKey.map { URL(fileURLWithPath: $0) } ?? state.clientKeyFile)
        return ConnectionSecurity(keys: keys, serverKey: try Self.serverKey(serverKey, state: state))
    }

    /// The host's public key: `given` (a key or a file), else `STATE/server.pub`.
    public static func serverKey(_ given: String?, state: StateDirectory) throws -> String {
        if let given { return try KeyFile.publicKey(given) }
        guard FileManager.default.fileExists(atPath: state.serverPublicKeyFile.path) else {
            throw KeyError(
                "no host key at \(state.serverPublicKeyFile.path): start intentd with this state directory first, or pass the host's public key (--server-key)")
        }
        return try KeyFile.publicKey(state.serverPublicKeyFile.path)
    }
}
