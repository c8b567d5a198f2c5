import Foundation
import IntentProtocol

/// One registered extension process, known by its routing id.
struct ExtensionInstance {
    let routingID: [UInt8]
    let id: String
    let registration: Registration
    var lastHeard: ContinuousClock.Instant
    var lastSent: ContinuousClock.Instant
}

/// The apps served, and the instances serving each.
struct AppEntry {
    var registration: Registration
    var instances: [[UInt8]] = []
    var next = 0

    var key: String { ExtensionRegistry.fold(registration.appName) }
}

/// Who is registered: instances by routing id, apps by name, and recent rejections.
/// Owned by the broker thread.
struct ExtensionRegistry {
    private(set) var instances: [[UInt8]: ExtensionInstance] = [:]
    private(set) var apps: [String: AppEntry] = [:]
    private(set) var rejections: [Rejection] = []
    private var names: [String: String] = [:]
    private var counter = 0
    static let rejectionsKept = 50

    /// Adds or replaces the instance at `routingID`.
    mutating func add(_ registration: Registration, routingID: [UInt8], now: ContinuousClock.Instant) -> ExtensionInstance {
        remove(routingID)
        counter += 1
        let instance = ExtensionInstance(
            routingID: routingID, id: "\(registration.bundleIdentifier)#\(counter)",
            registration: registration, lastHeard: now, lastSent: now)
        instances[routingID] = instance
        let key = Self.fold(registration.appName)
        var entry = apps[key] ?? AppEntry(registration: registration)
        entry.registration = registration
        entry.instances.append(routingID)
        apps[key] = entry
        for name in [registration.appName, registration.bundleIdentifier] + registration.alternativeAppNames.map(\.name) {
            let folded = Self.fold(name)
            if names[folded] == nil || names[folded] == key { names[folded] = key }
        }
        return instance
    }

    /// Removes the instance at `routingID`; the app goes when its last instance does.
    @discardableResult
    mutating func remove(_ routingID: [UInt8]) -> ExtensionInstance? {
        guard let instance = instances.removeValue(forKey: routingID) else { return nil }
        let key = Self.fold(instance.registration.appName)
        if var entry = apps[key] {
            entry.instances.removeAll { $0 == routingID }
            if entry.instances.isEmpty {
                apps[key] = nil
                names = names.filter { $0.value != key }
            } else {
                apps[key] = entry
            }
        }
        return instance
    }

    /// Records a refused registration.
    mutating func reject(_ rejection: Rejection) {
        rejections.append(rejection)
        if rejections.count > Self.rejectionsKept { rejections.removeFirst() }
    }

    /// Notes traffic from an instance; returns false if it is not registered.
    mutating func heard(from routingID: [UInt8], at now: ContinuousClock.Instant) -> Bool {
        guard instances[routingID] != nil else { return false }
        instances[routingID]?.lastHeard = now
        return true
    }

    /// Notes traffic to an instance.
    mutating func sent(to routingID: [UInt8], at now: ContinuousClock.Instant) {
        instances[routingID]?.lastSent = now
    }

    /// The app a user or program named: its name, an alternative name or its bundle id,
    /// ignoring case, spaces and punctuation.
    func app(named name: String) -> AppEntry? {
        names[Self.fold(name)].flatMap { apps[$0] }
    }

    /// The registration already serving the app `name`, from instances other than `routingID`.
    func serving(_ name: String, except routingID: [UInt8]) -> Registration? {
        guard let entry = apps[Self.fold(name)], entry.instances.contains(where: { $0 != routingID }) else { return nil }
        return entry.registration
    }

    /// The next instance of the app, round robin.
    mutating func nextInstance(of appKey: String) -> [UInt8]? {
        guard var entry = apps[appKey], !entry.instances.isEmpty else { return nil }
        let routingID = entry.instances[entry.next % entry.instances.count]
        entry.next &+= 1
        apps[appKey] = entry
        return routingID
    }

    /// What `intentctl status` shows.
    func status(locked: Bool) -> HostStatus {
        let entries = apps.values.sorted { $0.registration.appName < $1.registration.appName }.map { entry in
            let r = entry.registration
            return ExtensionStatus(
                appName: r.appName, bundleIdentifier: r.bundleIdentifier,
                alternativeAppNames: r.alternativeAppNames.map(\.name), usageDescription: r.usageDescription,
                intentsSupported: r.intentsSupported, intentsRestrictedWhileLocked: r.intentsRestrictedWhileLocked,
                instances: entry.instances.count,
                processIdentifiers: entry.instances.compactMap { instances[$0]?.registration.processIdentifier })
        }
        return HostStatus(locked: locked, extensions: entries, rejected: rejections, processIdentifier: Int(getpid()))
    }

    /// Lower case, letters and digits only: "Monkey Chat" and "monkeychat" are one name.
    static func fold(_ name: String) -> String {
        var ascii: [UInt8] = []
        ascii.reserveCapacity(name.utf8.count)
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): ascii.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): ascii.append(byte + 32)
            case 0x80...: return String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
            default: continue
            }
        }
        return String(decoding: ascii, as: UTF8.self)
    }
}

