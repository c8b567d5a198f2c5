import Foundation
import Logging
import IntentProtocol
import ZeroMQ

/// The host's ZAP handler (ZeroMQ RFC 27): libzmq asks it about every connection to a
/// server socket, before the peer can send or receive anything. It admits a key on the
/// extension endpoint only if the trust store binds it to a bundle id, and on the client
/// and updates endpoints only if it is an allowed client key; every other peer gets 400
/// and is disconnected without a single message. The user id it returns is the peer's
/// public key, which the broker reads on every message (`Message.property("User-Id")`).
///
/// It must be bound (in the same context) before any server socket is, or libzmq would let
/// CURVE peers in unchecked. Runs on the broker thread, polled with the other sockets.
final class ZAPHandler {
    /// The ZAP domains, one per kind of endpoint.
    enum Domain: String {
        case clients, extensions
    }

    /// The socket to poll.
    let socket: Socket
    /// The trust store every answer comes from.
    let trust: TrustStore
    private let serverKeys: CurveKeyPair
    private let log = Logger(label: HostLog.label)
    private var refused = 0
    private var frames: [Message] = []
    /// The last extension refused for its key, and when: what a request for an app no
    /// extension serves is told (an extension started by hand whose key was never trusted).
    private(set) var lastRefusedExtension: (fingerprint: String?, at: ContinuousClock.Instant)?

    /// Loads (or creates) the host's keys in `state`, publishes its public key in
    /// `STATE/server.pub`, and binds the handler in `context`.
    init(context: Context, state: StateDirectory) throws {
        serverKeys = try KeyFile.loadOrCreate(state.serverKeyFile)
        try KeyFile.publish(serverKeys.publicKey, to: state.serverPublicKeyFile)
        let localClient = try KeyFile.loadOrCreate(state.clientKeyFile)
        trust = TrustStore(url: state.trustFile, localClientKey: localClient.publicKey)
        socket = try Socket(context, .router)
        try socket.bind("inproc://zeromq.zap.01")
    }

    /// The host's public key.
    var serverPublicKey: String { serverKeys.publicKey }

    /// Makes `socket` an authenticating server for `domain` on `endpoint`: CURVE (or PLAIN on
    /// ipc, see `ConnectionSecurity.usesPlain`), every peer checked here. Call before `bind`.
    func protect(_ socket: Socket, endpoint: String, as domain: Domain) throws {
        if ConnectionSecurity.usesPlain(endpoint) {
            try socket.makePlainServer()
        } else {
            try socket.makeCurveServer(secretKey: serverKeys.secretKey)
        }
        try socket.setZAPDomain(domain.rawValue)
    }

    /// Answers every queued request without blocking.
    func answerAll() {
        while let count = try? socket.receiveFrames(into: &frames, wait: false) {
            answer(frames[..<count])
        }
    }

    private func answer(_ request: ArraySlice<Message>) {
        // Routing id, empty delimiter, version, request id, domain, address, identity,
        // mechanism, credentials.
        let f = Array(request)
        guard f.count >= 8, f[2].string == "1.0" else { return }
        let key = publicKey(mechanism: f[7].string ?? "", credentials: Array(f[8...]))
        let domain = Domain(rawValue: f[4].string ?? "")
        let allowed: Bool = switch (domain, key) {
        case (.extensions?, let key?): trust.bundle(of: key) != nil
        case (.clients?, let key?): trust.isClient(key)
        default: false
        }
        if !allowed {
            noteRefusal(domain, key, address: f[5].string ?? "?")
            if domain == .extensions { lastRefusedExtension = (key.map(CurveKeyPair.fingerprint(of:)), .now) }
        }
        let reply: [Message] = [
            f[0], Message(), Message(string: "1.0"), f[3],
            Message(string: allowed ? "200" : "400"),
            Message(string: allowed ? "OK" : "key not trusted"),
            Message(string: allowed ? key ?? "" : ""), Message(),
        ]
        _ = try? socket.send(frames: reply, wait: false)
    }

    /// The key a peer proved: its CURVE public key, or for PLAIN the public key that belongs
    /// to the secret key it gave as password, when the user name is that public key.
    private func publicKey(mechanism: String, credentials: [Message]) -> String? {
        switch mechanism {
        case "CURVE":
            guard let raw = credentials.first, raw.count == 32 else { return nil }
            return CurveKeyPair.encode(raw.bytes)
        case "PLAIN":
            guard credentials.count == 2, let user = credentials[0].string, let password = credentials[1].string,
                CurveKeyPair.isKey(user), CurveKeyPair.publicKey(forSecretKey: password) == user
            else { return nil }
            return user
        default:
            return nil
        }
    }

    /// Logs a refused connection: the first few, then one in a hundred.
    private func noteRefusal(_ domain: Domain?, _ key: String?, address: String) {
        refused += 1
        guard refused <= 5 || refused % 100 == 0 else { return }
        let who = key.map { "key \(CurveKeyPair.fingerprint(of: $0))" } ?? "a peer without a valid key"
        log.warning(
            "refused \(who) on the \(domain?.rawValue ?? "unknown") endpoint (from \(PeerNames.loggable(address))); not trusted (refusal #\(refused))")
    }
}
