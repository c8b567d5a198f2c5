import IntentProtocol
import ZeroMQ
import Understanding

/// What a conversation needs to know of the host right now: the registered apps with
/// their vocabularies and the user's decisions, and whether the device is locked.
/// The broker makes one on request; conversations never touch broker state directly.
struct DialogWorld: Sendable {
    struct App: Sendable {
        var registration: Registration
        var profile: AppProfile
        var authorization: AuthorizationStatus
    }

    var apps: [App]
    var locked: Bool

    /// The profiles understanding reads against.
    var profiles: [AppProfile] { apps.map(\.profile) }

    /// The app with this registered name.
    func app(_ name: String) -> App? { apps.first { $0.registration.appName == name } }

    /// Whether the lock keeps what `app` did for `intent` from the user now: the device is
    /// locked and the app restricts the intent then, or the app or intent is not known (the
    /// lock fails closed).
    func lockCloses(_ intent: String?, of app: String) -> Bool {
        guard locked else { return false }
        guard let intent, let known = self.app(app) else { return true }
        return known.registration.intentsRestrictedWhileLocked.contains(intent)
    }
}

/// What conversations ask of the broker thread.
protocol DialogHost: Sendable {
    /// A fresh snapshot of apps, vocabularies, authorizations and the lock.
    func world() async -> DialogWorld
    /// Records the user's answer to an app's first-use question.
    func authorize(bundle: String, _ status: AuthorizationStatus) async
    /// Sends a turn to the client request waiting for it.
    func deliver(_ turn: Turn, to address: ClientAddress)
}

/// A client request waiting for an answer.
struct ClientAddress: Sendable, Hashable {
    let routingID: RoutingID
    let requestID: RequestID
}
