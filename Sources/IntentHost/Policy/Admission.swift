import IntentProtocol

/// Why the host refuses a request before it reaches any extension.
struct Refusal: Error, Sendable {
    let code: ErrorCode
    let message: String

    /// Whether the request failed rather than was refused: the app exists but cannot take
    /// it now (section 11 of wire.md).
    var isFailure: Bool { code == .extensionUnavailable }
}

/// The one place that decides whether a request for (app, intent) may go on:
/// the app must be registered or known, the intent in the catalog and supported by the
/// app, and not restricted while the device is locked.
enum Admission {
    /// `known` gives the registration (or pinned manifest) of an app the host has known
    /// that has no instance now: such an app is restarting, hung or stopped, not unknown.
    /// It is checked as a live one is, and its route has no `app`: the request waits for an
    /// instance (wire.md section 8).
    static func admit(
        app: String, intent: String, registry: ExtensionRegistry, catalog: Catalog, lock: LockPolicy,
        authorization: AuthorizationStore? = nil, known: (String) -> Registration? = { _ in nil }
    ) -> Result<Route, Refusal> {
        let entry = registry.app(named: app)
        guard let registration = entry?.registration ?? known(app) else {
            let known = registry.apps.values.map(\.registration.appName).sorted()
            let hint = known.isEmpty ? "no apps are registered" : "registered apps: \(known.joined(separator: ", "))"
            return .failure(Refusal(code: .unknownApp, message: "no extension serves the app \"\(app)\" (\(hint))"))
        }
        let name = registration.appName
        if let status = authorization?.status(of: registration.bundleIdentifier), status == .denied || status == .restricted {
            return .failure(Refusal(code: .notAuthorized, message: notAllowed(name)))
        }
        guard let definition = catalog.intent(intent) else {
            let supported = registration.intentsSupported.joined(separator: ", ")
            return .failure(Refusal(
                code: .unknownIntent, message: "\"\(PeerNames.loggable(intent))\" is not an intent in the catalog (\(name) supports \(supported))"))
        }
        guard registration.intentsSupported.contains(definition.name) else {
            let supported = registration.intentsSupported.joined(separator: ", ")
            return .failure(Refusal(
                code: .unknownIntent, message: "\(name) does not support \(definition.name) (it supports \(supported))"))
        }
        let route = Route(registration: registration, intent: definition, app: entry)
        guard !(route.restricted && lock.locked) else {
            return .failure(Refusal(
                code: .requiresUnlock,
                message: "\(name) needs the device unlocked for \(definition.name); unlock first (intentctl unlock)"))
        }
        return .success(route)
    }

    /// Why a request for `app`, which the user denied, is refused, and how to allow it.
    static func notAllowed(_ app: String) -> String {
        "you have not allowed \(app) to work with the assistant (intentctl authorize \(app) allow)"
    }
}

/// An admitted (app, intent) pair. Cached by the broker while the app has instances, until
/// any registration changes; only the lock is checked again on each request.
final class Route {
    /// The app as it registered (or, while it has no instance, as last known).
    let registration: Registration
    let intent: IntentDefinition
    let restricted: Bool
    /// The app's live instances; nil while it has none and the request waits for one.
    let app: AppEntry?

    init(registration: Registration, intent: IntentDefinition, app: AppEntry?) {
        self.registration = registration
        self.intent = intent
        self.app = app
        restricted = registration.intentsRestrictedWhileLocked.contains(intent.name)
    }
}

/// The key of a cached route: the names exactly as the client sent them.
struct RouteKey: Hashable {
    let app: String
    let intent: String
}
