import Foundation
import ZeroMQ

/// The host's trust store, `STATE/trust.json`: which extension keys may register which
/// bundle id, the manifest each bundle id registered with first (its pin), and the client
/// keys allowed besides the local user's own.
///
/// The host and `intentctl` both change it, each through `update`, which holds a lock on
/// `STATE/trust.lock` while it reads, changes and atomically replaces the file.
public struct TrustFile: Codable, Sendable, Equatable {
    /// One trusted extension key, bound to one bundle id.
    public struct Extension: Codable, Sendable, Equatable {
        /// The key, Z85.
        public var publicKey: String
        /// The only bundle id this key may register.
        public var bundleIdentifier: String
        /// `launched` (a key the host made for an extension it starts) or `trusted` (added by
        /// the user with `intentctl extensions trust`).
        public var origin: String
        /// Creates an entry.
        public init(publicKey: String, bundleIdentifier: String, origin: String) {
            self.publicKey = publicKey
            self.bundleIdentifier = bundleIdentifier
            self.origin = origin
        }
    }

    /// What a bundle id declared when it first registered; later registrations must match.
    public struct Pin: Codable, Sendable, Equatable {
        /// The app name.
        public var appName: String
        /// The alternative names.
        public var alternativeAppNames: [String]
        /// The supported intents, sorted.
        public var intentsSupported: [String]
        /// The intents restricted while locked, sorted.
        public var intentsRestrictedWhileLocked: [String]

        /// The pin of a registration.
        public init(_ registration: Registration) {
            appName = registration.appName
            alternativeAppNames = registration.alternativeAppNames.map(\.name)
            intentsSupported = Set(registration.intentsSupported).sorted()
            intentsRestrictedWhileLocked = Set(registration.intentsRestrictedWhileLocked).sorted()
        }
    }

    /// One allowed client key.
    public struct Client: Codable, Sendable, Equatable {
        /// The key, Z85.
        public var publicKey: String
        /// A name for people (`laptop`).
        public var name: String
        /// Creates an entry.
        public init(publicKey: String, name: String) {
            self.publicKey = publicKey
            self.name = name
        }
    }

    /// Trusted extension keys.
    public var extensions: [Extension] = []
    /// Pinned manifests by bundle id.
    public var pins: [String: Pin] = [:]
    /// Allowed client keys, besides the local client's.
    public var clients: [Client] = []

    /// An empty store.
    public init() {}

    /// The entry of `publicKey`, if it is a trusted extension key.
    public func extensionEntry(_ publicKey: String) -> Extension? {
        extensions.first { $0.publicKey == publicKey }
    }

    /// Binds `publicKey` to `bundle` (replacing what it was bound to) and forgets the
    /// bundle's pin, so that its next registration pins its manifest again.
    public mutating func trust(_ publicKey: String, bundle: String, origin: String) {
        extensions.removeAll { $0.publicKey == publicKey }
        extensions.append(Extension(publicKey: publicKey, bundleIdentifier: bundle, origin: origin))
        pins[bundle] = nil
    }

    /// Reads the store in `url`; a missing file is an empty store.
    public static func load(_ url: URL) throws -> TrustFile {
        guard FileManager.default.fileExists(atPath: url.path) else { return TrustFile() }
        do {
            return try JSONDecoder().decode(TrustFile.self, from: Data(contentsOf: url))
        } catch {
            throw KeyError("cannot read the trust store \(url.path): \(error is DecodingError ? "\(error)" : describeFileError(error))")
        }
    }

    /// Reads the store in `url` under its lock, lets `change` change it, and writes it back
    /// (mode 0600) if it changed, on disk before it returns.
    @discardableResult
    public static func update<R>(_ url: URL, _ change: (inout TrustFile) throws -> R) throws -> R {
        let lockPath = url.deletingLastPathComponent().appendingPathComponent("trust.lock").path
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw KeyError("cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let failure = FileLock.exclusive(fd)
        guard failure == 0 else { throw KeyError("cannot lock \(lockPath): \(String(cString: strerror(failure)))") }
        var store = try load(url)
        let before = store
        let result = try change(&store)
        if store != before {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            // Durably: a key untrusted must not be trusted again after a crash.
            try DurableFile.write(Array(try encoder.encode(store)), to: url)
        }
        return result
    }
}
