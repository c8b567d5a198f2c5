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
/// the app must be registered, the intent in the catalog and supported by the app,
/// and not restricted while the device is locked.
enum Admission {
    /// `known` names an app the host has known (a pinned manifest) that has no instance
    /// now: such an app is unavailable, restarting or stopped, not unknown.
    static func admit(
        app: String, intent: String, registry: ExtensionRegistry, catalog: Catalog, lock: LockPolicy,
        authorization: AuthorizationStore? = nil, known: (String) -> String? = { _ in nil }
    ) -> Result<(AppEntry, IntentDefinition), Refusal> {
        guard let entry = registry.app(named: app) else {
            if let name = known(app) {
                return .failure(Refusal(
                    code: .extensionUnavailable,
                    message: "\(name) is not running right now (it may be restarting); try again in a moment"))
            }
            let known = registry.apps.values.map(\.registration.appName).sorted()
            let hint = known.isEmpty ? "no apps are registered" : "registered apps: \(known.joined(separator: ", "))"
            return .failure(Refusal(code: .unknownApp, message: "no extension serves the app \"\(app)\" (\(hint))"))
        }
        let name = entry.registration.appName
        if let status = authorization?.status(of: entry.registration.bundleIdentifier), status == .denied || status == .restricted {
            return .failure(Refusal(
                code: .notAuthorized,
                message: "you have not allowed \(name) to work with the assistant (intentctl authorize \(name) allow)"))
        }
        guard let definition = catalog.intent(intent) else {
            return .failure(Refusal(code: .unknownIntent, message: "\"\(intent)\" is not an intent in the catalog"))
        }
        guard entry.registration.intentsSupported.contains(definition.name) else {
            let supported = entry.registration.intentsSupported.joined(separator: ", ")
            return .failure(Refusal(
                code: .unknownIntent, message: "\(name) does not support \(definition.name) (it supports \(supported))"))
        }
        guard lock.allows(definition.name, for: entry.registration) else {
            return .failure(Refusal(
                code: .requiresUnlock,
                message: "\(name) needs the device unlocked for \(definition.name); unlock first (intentctl unlock)"))
        }
        return .success((entry, definition))
    }
}

/// An admitted (app, intent) pair, cached by the broker until any registration changes.
/// Only the lock is checked again on each request.
final class Route {
    let app: AppEntry
    let intent: IntentDefinition
    let restricted: Bool

    init(app: AppEntry, intent: IntentDefinition) {
        self.app = app
        self.intent = intent
        restricted = app.registration.intentsRestrictedWhileLocked.contains(intent.name)
    }
}

/// The key of a cached route: the names exactly as the client sent them.
struct RouteKey: Hashable {
    let app: String
    let intent: String
}
