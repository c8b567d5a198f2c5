import Foundation
import IntentProtocol

/// Decides whether a registration is accepted, as Apple's rules for an Intents
/// extension's Info.plist do, plus the host's own rules for sharing apps.
enum RegistrationPolicy {
    /// The most alternative app names an extension may declare.
    static let maximumAlternativeNames = 3

    /// Returns why `registration` must be refused, or `nil` to accept it.
    /// `serving` is the registration of the live instances that already serve the app.
    static func check(
        _ registration: Registration, catalog: Catalog, serving: Registration?
    ) -> (Rejection.Code, String)? {
        let r = registration
        if r.protocolVersion != Wire.version {
            return (.unsupportedVersion, "speaks protocol version \(r.protocolVersion); this host speaks \(Wire.version)")
        }
        if r.bundleIdentifier.isEmpty || r.appName.isEmpty {
            return (.invalidManifest, "the manifest needs a bundle identifier and an app name")
        }
        if r.intentsSupported.isEmpty {
            return (.invalidManifest, "IntentsSupported is empty: the extension handles nothing")
        }
        if r.alternativeAppNames.count > maximumAlternativeNames {
            return (.invalidManifest,
                "declares \(r.alternativeAppNames.count) alternative app names; at most \(maximumAlternativeNames) are allowed")
        }
        let unknown = (r.intentsSupported + r.intentsRestrictedWhileLocked).filter { catalog.intent($0) == nil }
        if !unknown.isEmpty {
            return (.unknownIntent,
                "\(Set(unknown).sorted().joined(separator: ", ")) not in the host's catalog; add the domain file or fix the name")
        }
        let notSupported = r.intentsRestrictedWhileLocked.filter { !r.intentsSupported.contains($0) }
        if !notSupported.isEmpty {
            return (.restrictedNotSupported,
                "IntentsRestrictedWhileLocked lists \(notSupported.joined(separator: ", ")), which IntentsSupported does not; every restricted intent must also be supported")
        }
        if let serving, serving.bundleIdentifier != r.bundleIdentifier {
            return (.appTaken, "the app \"\(r.appName)\" is already served by \(serving.bundleIdentifier)")
        }
        if let serving, Set(serving.intentsSupported) != Set(r.intentsSupported)
            || Set(serving.intentsRestrictedWhileLocked) != Set(r.intentsRestrictedWhileLocked)
        {
            return (.invalidManifest,
                "running instances of \(r.bundleIdentifier) declare other intents; stop them before starting this version")
        }
        return nil
    }
}
