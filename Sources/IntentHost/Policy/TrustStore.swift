import Foundation
import Logging
import IntentProtocol
import ZeroMQ

/// The broker's view of the trust store (`STATE/trust.json`, see `TrustFile`): read again
/// whenever the file changes, so `intentctl extensions trust` takes effect at the next
/// connection without a restart. Owned by the broker thread.
final class TrustStore {
    private let url: URL
    private(set) var file = TrustFile()
    private var signature: [Int] = []
    private let log = Logger(label: HostLog.label)
    /// Counts the times the file was read, so the broker sees when trust changed.
    private(set) var generation = 0
    /// The local user's client key (`STATE/keys/client.key`), always allowed.
    let localClientKey: String

    init(url: URL, localClientKey: String) {
        self.url = url
        self.localClientKey = localClientKey
        refresh()
    }

    /// Reads the file again if it changed since it was last read. A file that cannot be
    /// read leaves the last good one in force.
    func refresh() {
        var info = stat()
        let now = stat(url.path, &info) == 0
            ? [Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec] : []
        guard now != signature else { return }
        do {
            file = try TrustFile.load(url)
            signature = now
            generation += 1
        } catch {
            log.error("\(error); keeping the trust store read before")
        }
    }

    /// Whether the instance registered as `bundle` with `publicKey` may stay.
    func stillTrusts(_ publicKey: String?, for bundle: String) -> Bool {
        publicKey.map { self.bundle(of: $0) == bundle } ?? false
    }

    /// The bundle id `publicKey` may register, if it is a trusted extension key.
    func bundle(of publicKey: String) -> String? {
        refresh()
        return file.extensionEntry(publicKey)?.bundleIdentifier
    }

    /// Whether some key may register `bundle`: an app with none cannot come back.
    func hasKey(for bundle: String) -> Bool {
        refresh()
        return file.extensions.contains { $0.bundleIdentifier == bundle }
    }

    /// Whether `publicKey` may connect as a client.
    func isClient(_ publicKey: String) -> Bool {
        if publicKey == localClientKey { return true }
        refresh()
        return file.clients.contains { $0.publicKey == publicKey }
    }

    /// The pinned manifest of the app called `name` (its name or an alternative name,
    /// compared as the registry compares them), running or not, as a registration.
    func pinnedRegistration(named name: String) -> Registration? {
        let folded = PeerNames.fold(name)
        guard let (bundle, pin) = file.pins.first(where: { _, pin in
            ([pin.appName] + pin.alternativeAppNames).contains { PeerNames.fold($0) == folded }
        }) else { return nil }
        return Registration(
            bundleIdentifier: bundle, appName: pin.appName,
            alternativeAppNames: pin.alternativeAppNames.map { AlternativeAppName(name: $0) },
            intentsSupported: pin.intentsSupported, intentsRestrictedWhileLocked: pin.intentsRestrictedWhileLocked)
    }

    /// Pins `registration`'s manifest for its bundle id unless one is pinned already.
    func pin(_ registration: Registration) {
        let pin = TrustFile.Pin(registration)
        guard file.pins[registration.bundleIdentifier] != pin else { return }
        do {
            try TrustFile.update(url) { store in
                if store.pins[registration.bundleIdentifier] == nil { store.pins[registration.bundleIdentifier] = pin }
            }
            refresh()
        } catch {
            log.error("cannot pin the manifest of \(registration.bundleIdentifier): \(error)")
        }
    }
}
