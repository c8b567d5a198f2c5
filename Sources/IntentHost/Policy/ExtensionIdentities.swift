import Foundation
import IntentProtocol
import ZeroMQ

/// The identities of the extensions the host launches. On an extension's first launch the
/// host makes it a key pair (`STATE/keys/extensions/BUNDLE-ID.key`, 0600, in a directory
/// only the host reads), binds it in the trust store to the bundle id of the manifest it
/// read, pins that manifest, and hands the keys to the child in its environment. Every
/// instance of one bundle shares its key.
struct ExtensionIdentities: Sendable {
    /// The child's secret key (Z85).
    static let secretKeyVariable = "INTENTD_CURVE_SECRETKEY"
    /// The child's public key (Z85).
    static let publicKeyVariable = "INTENTD_CURVE_PUBLICKEY"
    /// The host's public key (Z85).
    static let serverKeyVariable = "INTENTD_CURVE_SERVERKEY"

    let state: StateDirectory

    /// The variables that give `target` its identity: its key pair and the host's key.
    func environment(for target: LaunchTarget) throws -> [String: String] {
        let bundle = target.bundleIdentifier
        if let problem = PeerNames.problem(withBundleIdentifier: bundle) {
            throw ConfigurationError("the manifest of \(target.name) (\(target.manifest.path)): \(problem)")
        }
        let keys = try KeyFile.loadOrCreate(state.launchedKeyFile(for: bundle))
        let server = try KeyFile.loadOrCreate(state.serverKeyFile)
        let pin = TrustFile.Pin(target.registration.normalized())
        try TrustFile.update(state.trustFile) { store in
            if store.extensionEntry(keys.publicKey)?.bundleIdentifier != bundle {
                store.trust(keys.publicKey, bundle: bundle, origin: "launched")
            }
            store.pins[bundle] = pin
        }
        return [
            Self.secretKeyVariable: keys.secretKey, Self.publicKeyVariable: keys.publicKey,
            Self.serverKeyVariable: server.publicKey, ConnectionSecurity.ipcMechanismVariable: ConnectionSecurity.ipcMechanism,
        ]
    }
}
