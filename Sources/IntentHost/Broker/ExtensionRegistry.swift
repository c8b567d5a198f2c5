import Foundation
import IntentProtocol
import ZeroMQ

/// One registered extension process, known by its routing id. A reference type so the
/// per-message bookkeeping (last heard, last sent) updates in place.
final class ExtensionInstance {
    let routingID: RoutingID
    let id: String
    let registration: Registration
    /// The public key the connection authenticated with.
    let publicKey: String?
    var lastHeard: ContinuousClock.Instant
    var lastSent: ContinuousClock.Instant

    init(
        routingID: RoutingID, id: String, registration: Registration, publicKey: String? = nil,
        lastHeard: ContinuousClock.Instant, lastSent: ContinuousClock.Instant
    ) {
        self.routingID = routingID
        self.publicKey = publicKey
        self.id = id
        self.registration = registration
        self.lastHeard = lastHeard
        self.lastSent = lastSent
    }
}

/// An app served, and the instances serving it, used in turn.
final class AppEntry {
    var registration: Registration
    var instances: [RoutingID] = []
    var next = 0
    let key: String

    init(registration: Registration) {
        self.registration = registration
        key = PeerNames.fold(registration.appName)
    }

    /// The next instance, round robin; `nil` once none is left.
    func nextInstance() -> RoutingID? {
        guard !instances.isEmpty else { return nil }
        let routingID = instances[next % instances.count]
        next &+= 1
        return routingID
    }
}

/// Who is registered: instances by routing id, apps by name, and recent rejections.
/// Owned by the broker thread.
struct ExtensionRegistry {
    private(set) var instances: [RoutingID: ExtensionInstance] = [:]
    private(set) var apps: [String: AppEntry] = [:]
    private(set) var rejections: [Rejection] = []
    /// Bundle ids whose own key was refused for a changed manifest while no instance of
    /// theirs ran, with why: such an app does not come back by itself. As many as the trust
    /// store binds keys to.
    private(set) var refusedWhileAway: [String: String] = [:]
    private var names: [String: String] = [:]
    private var counter = 0
    /// Changes whenever an instance comes or goes, so cached routes know they are stale.
    private(set) var generation = 0
    static let rejectionsKept = 50

    /// Adds or replaces the instance at `routingID`.
    mutating func add(
        _ registration: Registration, routingID: RoutingID, publicKey: String? = nil, now: ContinuousClock.Instant
    ) -> ExtensionInstance {
        remove(routingID)
        counter += 1
        let instance = ExtensionInstance(
            routingID: routingID, id: "\(registration.bundleIdentifier)#\(counter)",
            registration: registration, publicKey: publicKey, lastHeard: now, lastSent: now)
        instances[routingID] = instance
        // Refusals for a changed manifest, and its own key's refusals of any kind (a
        // manifest since fixed), are settled now; others' attempts at its bundle id, with
        // keys of their own, stay on record.
        let fingerprint = publicKey.map(CurveKeyPair.fingerprint(of:))
        rejections.removeAll { rejection in
            rejection.bundleIdentifier == registration.bundleIdentifier
                && (rejection.code == .manifestChanged || (fingerprint != nil && rejection.keyFingerprint == fingerprint))
        }
        refusedWhileAway[registration.bundleIdentifier] = nil
        let key = PeerNames.fold(registration.appName)
        let entry = apps[key] ?? AppEntry(registration: registration)
        entry.registration = registration
        entry.instances.append(routingID)
        apps[key] = entry
        generation &+= 1
        // An app's own name is always its own; other names go to whoever claimed them first.
        names[key] = key
        for name in [registration.bundleIdentifier] + registration.otherNames {
            let folded = PeerNames.fold(name)
            if names[folded] == nil { names[folded] = key }
        }
        return instance
    }

    /// Removes the instance at `routingID`; the app goes when its last instance does.
    @discardableResult
    mutating func remove(_ routingID: RoutingID) -> ExtensionInstance? {
        guard let instance = instances.removeValue(forKey: routingID) else { return nil }
        let key = PeerNames.fold(instance.registration.appName)
        if let entry = apps[key] {
            entry.instances.removeAll { $0 == routingID }
            if entry.instances.isEmpty {
                apps[key] = nil
                names = names.filter { $0.value != key }
            }
        }
        generation &+= 1
        return instance
    }

    /// Records a refused registration.
    mutating func reject(_ rejection: Rejection) {
        // Its own key (checked before this code is given) refused while none of it runs.
        if rejection.code == .manifestChanged,
            !apps.values.contains(where: { $0.registration.bundleIdentifier == rejection.bundleIdentifier })
        {
            refusedWhileAway[rejection.bundleIdentifier] = rejection.reason
        }
        rejections.append(rejection)
        if rejections.count > Self.rejectionsKept { rejections.removeFirst() }
    }

    /// Notes traffic from an instance; returns it, or nil if it is not registered.
    mutating func heard(from routingID: RoutingID, at now: ContinuousClock.Instant) -> ExtensionInstance? {
        guard let instance = instances[routingID] else { return nil }
        instance.lastHeard = now
        return instance
    }

    /// Notes traffic to an instance.
    func sent(to routingID: RoutingID, at now: ContinuousClock.Instant) {
        instances[routingID]?.lastSent = now
    }

    /// The app a user or program named: its name, an alternative name or how one is
    /// pronounced, or its bundle id, ignoring case, spaces and punctuation.
    func app(named name: String) -> AppEntry? {
        names[PeerNames.fold(name)].flatMap { apps[$0] }
    }

    /// The registration already serving the app `name`, from instances other than `routingID`.
    func serving(_ name: String, except routingID: RoutingID) -> Registration? {
        guard let entry = apps[PeerNames.fold(name)], entry.instances.contains(where: { $0 != routingID }) else { return nil }
        return entry.registration
    }

    /// What `intentctl status` shows; `sandbox` says how the instance launched with a token
    /// runs, and its pid as the host sees it; `isTrusted` whether a key is still bound to a
    /// bundle id.
    func status(
        locked: Bool, sandbox: (String?) -> (SandboxStatus, Int?) = { _ in (SandboxStatus(state: .outside), nil) },
        isTrusted: (_ key: String, _ bundle: String) -> Bool = { _, _ in true }
    ) -> HostStatus {
        let entries = apps.values.sorted { $0.registration.appName < $1.registration.appName }.map { entry in
            let r = entry.registration
            let live = entry.instances.compactMap { instances[$0]?.registration }
            let described = live.map { sandbox($0.launchToken) }
            let keys = Set(entry.instances.compactMap { instances[$0]?.publicKey }).sorted()
            var status = ExtensionStatus(
                appName: r.appName, bundleIdentifier: r.bundleIdentifier,
                alternativeAppNames: r.alternativeAppNames.map(\.name), usageDescription: r.usageDescription,
                intentsSupported: r.intentsSupported, intentsRestrictedWhileLocked: r.intentsRestrictedWhileLocked,
                instances: entry.instances.count,
                processIdentifiers: zip(live, described).compactMap { $1.1 ?? $0.processIdentifier })
            status.sandboxes = described.map(\.0)
            status.keyFingerprints = keys.map(CurveKeyPair.fingerprint(of:))
            status.trusted = entry.instances.allSatisfy { instances[$0]?.publicKey.map { isTrusted($0, r.bundleIdentifier) } ?? false }
            // Only names the host knows: a peer's own strings are not echoed.
            status.stages = r.takesBatches ? [StageBatch.capability] : nil
            return status
        }
        return HostStatus(locked: locked, extensions: entries, rejected: rejections, processIdentifier: Int(getpid()))
    }
}

