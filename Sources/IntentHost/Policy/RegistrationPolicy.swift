import Foundation
import IntentProtocol
import ZeroMQ

/// Decides whether a registration is accepted, as Apple's rules for an Intents
/// extension's Info.plist do, plus the host's own rules for sharing apps.
enum RegistrationPolicy {
    /// The most alternative app names an extension may declare.
    static let maximumAlternativeNames = 3
    /// The most intents an extension may list as supported (or as restricted).
    static let maximumIntents = 256

    /// Returns why `registration` must be refused, or `nil` to accept it: a key the trust
    /// store does not bind to its bundle id learns nothing more; then the manifest itself,
    /// before the pinned one (an intent's name misspelled is said as that, not as a manifest
    /// changed since it was pinned); then how it shares its app with the live instances
    /// that serve it (`serving`).
    static func check(
        _ registration: Registration, key: String?, trust: TrustStore, catalog: Catalog, serving: Registration?
    ) -> (Rejection.Code, String)? {
        checkKey(registration, key: key, trust: trust) ?? checkManifest(registration, catalog: catalog)
            ?? checkPin(registration, trust: trust) ?? checkSharing(registration, serving: serving)
    }

    /// Why `registration`'s manifest is unusable on its own: its version, names and intents.
    static func checkManifest(_ registration: Registration, catalog: Catalog) -> (Rejection.Code, String)? {
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
        if max(r.intentsSupported.count, r.intentsRestrictedWhileLocked.count) > maximumIntents {
            return (.invalidManifest,
                "lists \(max(r.intentsSupported.count, r.intentsRestrictedWhileLocked.count)) intents; at most \(maximumIntents) are allowed")
        }
        let unknown = Set((r.intentsSupported + r.intentsRestrictedWhileLocked).filter { catalog.intent($0) == nil }).sorted()
        if !unknown.isEmpty {
            let meant = unknown.prefix(8).compactMap { name in
                SpellingDistance.nearest(to: name, among: catalog.intentNames).map { unknown.count == 1 ? $0 : "\($0) for \(PeerNames.loggable(name))" }
            }
            let hint = meant.isEmpty ? "" : " (did you mean \(meant.joined(separator: ", "))?)"
            return (.unknownIntent,
                "\(listed(unknown)) \(unknown.count == 1 ? "is" : "are") not in the host's catalog\(hint); start the host with --catalog and the folder of its domain file, or fix the name")
        }
        let notSupported = r.intentsRestrictedWhileLocked.filter { !r.intentsSupported.contains($0) }
        if !notSupported.isEmpty {
            return (.restrictedNotSupported,
                "IntentsRestrictedWhileLocked lists \(listed(notSupported)), which IntentsSupported does not; every restricted intent must also be supported")
        }
        return nil
    }

    /// Why `registration` cannot join `serving`, the live instances that serve its app.
    static func checkSharing(_ registration: Registration, serving: Registration?) -> (Rejection.Code, String)? {
        let r = registration
        if let serving, serving.bundleIdentifier != r.bundleIdentifier {
            return (.appTaken, "the app \"\(r.appName)\" is already served by \(serving.bundleIdentifier)")
        }
        if let serving, Set(serving.intentsSupported) != Set(r.intentsSupported)
            || Set(serving.intentsRestrictedWhileLocked) != Set(r.intentsRestrictedWhileLocked)
        {
            return (.invalidManifest,
                "running instances of \(r.bundleIdentifier) declare other intents; stop them before starting this version")
        }
        if let serving, Set(serving.stages) != Set(r.stages) {
            return (.invalidManifest,
                "running instances of \(r.bundleIdentifier) take stages in other ways (registration.stages); stop them before starting this version")
        }
        return nil
    }

    /// Names a peer gave, for a reason it is told and the log keeps: the first few, each
    /// made loggable, and how many more.
    static func listed(_ names: [String]) -> String {
        let shown = names.prefix(8).map { PeerNames.loggable($0) }.joined(separator: ", ")
        return names.count > 8 ? "\(shown) and \(names.count - 8) more" : shown
    }

    /// Why `registration`, which came over a connection authenticated as `key`, is not to
    /// be taken for who it claims to be: a name that is no valid name, or a key the trust
    /// store does not bind to its bundle id. (`checkPin` then holds it to its pinned
    /// manifest and keeps other apps' names.)
    static func checkKey(_ registration: Registration, key: String?, trust: TrustStore) -> (Rejection.Code, String)? {
        let r = registration
        let problems = [PeerNames.problem(withBundleIdentifier: r.bundleIdentifier), PeerNames.problem(withName: r.appName)]
            + r.alternativeAppNames.flatMap { [PeerNames.problem(withName: $0.name, what: "an alternative app name")]
                + [$0.pronunciation.flatMap { PeerNames.problem(withName: $0, what: "a pronunciation") }] }
            + [PeerNames.problem(withUsageDescription: r.usageDescription)]
        if let problem = problems.compactMap({ $0 }).first { return (.invalidManifest, problem) }
        guard let key else { return (.untrustedIdentity, "the connection is not authenticated with a key") }
        let bound = trust.bundle(of: key)
        if bound != r.bundleIdentifier {
            let fingerprint = CurveKeyPair.fingerprint(of: key)
            return (.untrustedIdentity,
                bound.map { "the key \(fingerprint) is trusted for \($0), not for \(r.bundleIdentifier)" }
                    ?? "the key \(fingerprint) is not trusted for \(r.bundleIdentifier)")
        }
        return nil
    }

    /// Why `registration`, from a trusted key, differs from its pinned manifest or takes
    /// another app's name.
    static func checkPin(_ registration: Registration, trust: TrustStore) -> (Rejection.Code, String)? {
        let r = registration
        if let pinned = trust.file.pins[r.bundleIdentifier], pinned != TrustFile.Pin(r) {
            return (.manifestChanged, "\(r.bundleIdentifier) registered as \(PeerNames.loggable(r.appName)) with "
                + describe(TrustFile.Pin(r), against: pinned)
                + "; if the change is meant, trust its key again (its --print-identity, into intentctl extensions trust -), which pins the new manifest")
        }
        // Pronunciations are names requests may use too (the registry routes by them).
        let own = Set(([r.appName] + r.otherNames).map(PeerNames.fold))
        for (bundle, pin) in trust.file.pins where bundle != r.bundleIdentifier {
            let theirs = [pin.appName, bundle] + pin.alternativeAppNames
            if let taken = theirs.first(where: { own.contains(PeerNames.fold($0)) }) {
                return (.appTaken, "the name \"\(PeerNames.loggable(taken))\" belongs to \(pin.appName) (\(bundle))")
            }
            if theirs.contains(where: { PeerNames.fold($0) == PeerNames.fold(r.bundleIdentifier) }) {
                return (.appTaken, "the bundle id \(r.bundleIdentifier) is a name of \(pin.appName) (\(bundle))")
            }
        }
        return nil
    }

    /// What differs between a registration's manifest and the pinned one, in words.
    private static func describe(_ new: TrustFile.Pin, against pinned: TrustFile.Pin) -> String {
        var changes: [String] = []
        if new.appName != pinned.appName { changes.append("another app name (pinned: \(pinned.appName))") }
        if new.alternativeAppNames != pinned.alternativeAppNames { changes.append("other alternative names") }
        if new.intentsSupported != pinned.intentsSupported { changes.append("other supported intents") }
        if new.intentsRestrictedWhileLocked != pinned.intentsRestrictedWhileLocked {
            changes.append("other intents restricted while locked (pinned: \(pinned.intentsRestrictedWhileLocked.joined(separator: ", ")))")
        }
        return changes.joined(separator: ", ")
    }
}
