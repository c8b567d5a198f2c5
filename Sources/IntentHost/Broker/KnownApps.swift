import IntentProtocol

/// The apps that registered in this host's life: each one's last registration, by every
/// name it answers to. While no instance serves such an app, a request for it waits for one
/// (wire.md section 8) instead of being refused as unknown. Owned by the broker thread.
///
/// Only registrations the host accepted are noted (a trusted key, a manifest that matches
/// its pin), so the table grows with the apps the user trusts; it is bounded all the same.
struct KnownApps {
    /// Apps remembered at most; later ones are known through their pin or launch only.
    static let limit = 256
    private var registrations: [String: Registration] = [:]
    private var names: [String: String] = [:]

    /// Notes `registration` as its app's latest.
    mutating func note(_ registration: Registration) {
        let key = PeerNames.fold(registration.appName)
        guard registrations[key] != nil || registrations.count < Self.limit else { return }
        registrations[key] = registration
        // An app's own name is always its own, as in the registry; other names go to whoever
        // claimed them first.
        names[key] = key
        for name in [registration.bundleIdentifier] + registration.otherNames {
            let folded = PeerNames.fold(name)
            if names[folded] == nil { names[folded] = key }
        }
    }

    /// The last registration of the app a request names (as `ExtensionRegistry.app(named:)`
    /// compares names), if it ever registered.
    func registration(named name: String) -> Registration? {
        names[PeerNames.fold(name)].flatMap { registrations[$0] }
    }

    /// The last registration of every app noted.
    var all: [Registration] { Array(registrations.values) }
}
