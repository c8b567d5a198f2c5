/// The body of the answer to STATUS.
public struct HostStatus: Sendable, Hashable, Codable {
    /// Whether the device is locked.
    public var locked: Bool
    /// The apps with at least one live extension instance.
    public var extensions: [ExtensionStatus]
    /// Recent registrations the host refused, newest last.
    public var rejected: [Rejection]
    /// The host's own process id.
    public var processIdentifier: Int?
    /// The extensions this host launches, registered or not: running, restarting (and in how
    /// long), crash-looping, rejected or failed, with how each last ended.
    public var launches: [LaunchStatus]?
    /// Requests waiting for an app the host has known while no instance of it is live
    /// (restarting, hung and dropped, stopped), by app name; absent when none wait. Each
    /// waits up to its deadline (wire.md section 8).
    public var waitingRequests: [String: Int]?
    /// The host's limit on one message (`maxMessageBytes`, as REGISTERED announces it to
    /// extensions); `intentd` always sends it.
    public var maxMessageBytes: Int?
    /// Set when the whole status would not fit in `maxMessageBytes`: the oldest rejections,
    /// then the last apps, were left out.
    public var truncated: Bool?
    /// Where the host serves HTTP on loopback (its Prometheus metrics at `/metrics`), such
    /// as `http://127.0.0.1:8470`; absent when that is off (`intentd --http off`).
    public var http: String?

    /// Creates a status.
    public init(
        locked: Bool, extensions: [ExtensionStatus], rejected: [Rejection], processIdentifier: Int? = nil,
        maxMessageBytes: Int? = nil
    ) {
        self.locked = locked
        self.extensions = extensions
        self.rejected = rejected
        self.processIdentifier = processIdentifier
        self.maxMessageBytes = maxMessageBytes
    }

    /// The launch an operator calls `name`: by its config name ("messaging", also
    /// "messaging#2"), its app name or bundle id, compared folded.
    public func launch(named name: String) -> LaunchStatus? {
        let folded = PeerNames.fold(name)
        return (launches ?? []).first { launch in
            [launch.name, String(launch.name.prefix { $0 != "#" }), launch.appName, launch.bundleIdentifier]
                .contains { PeerNames.fold($0) == folded }
        }
    }

    /// The registered app that goes by `name`: by its own names (`isNamed`), or as the app
    /// of the launch of that name ("rides" is Zippy).
    public func registered(named name: String) -> ExtensionStatus? {
        extensions.first { $0.isNamed(name) }
            ?? launch(named: name).flatMap { launch in extensions.first { $0.bundleIdentifier == launch.bundleIdentifier } }
    }
}

/// One registered app.
public struct ExtensionStatus: Sendable, Hashable, Codable {
    /// The app's name.
    public var appName: String
    /// The extension's bundle identifier.
    public var bundleIdentifier: String
    /// Other names for the app.
    public var alternativeAppNames: [String]
    /// The usage description.
    public var usageDescription: String
    /// Supported intents.
    public var intentsSupported: [String]
    /// Intents restricted while locked.
    public var intentsRestrictedWhileLocked: [String]
    /// Live instances.
    public var instances: Int
    /// Their process ids, where known.
    public var processIdentifiers: [Int]
    /// Whether the user lets the app work with the assistant.
    public var authorization: AuthorizationStatus?
    /// How each live instance runs, in the order of `processIdentifiers`: in the host's
    /// sandbox, launched without it, or started outside the host.
    public var sandboxes: [SandboxStatus]?
    /// The fingerprints (`SHA256:…`) of the keys its instances authenticated with.
    public var keyFingerprints: [String]?
    /// Whether every instance's key is still bound to this bundle id in the trust store.
    public var trusted: Bool?
    /// The ways of taking stages its instances declared that the host knows, such as
    /// `batched` (wire.md, section 5b); absent when none.
    public var stages: [String]?

    /// Creates an entry.
    public init(
        appName: String, bundleIdentifier: String, alternativeAppNames: [String], usageDescription: String,
        intentsSupported: [String], intentsRestrictedWhileLocked: [String], instances: Int, processIdentifiers: [Int],
        authorization: AuthorizationStatus? = nil
    ) {
        self.authorization = authorization
        self.appName = appName
        self.bundleIdentifier = bundleIdentifier
        self.alternativeAppNames = alternativeAppNames
        self.usageDescription = usageDescription
        self.intentsSupported = intentsSupported
        self.intentsRestrictedWhileLocked = intentsRestrictedWhileLocked
        self.instances = instances
        self.processIdentifiers = processIdentifiers
    }

    /// Whether the app goes by `name`: its name, bundle id or an alternative name, compared
    /// folded ("listomat" is List-o-Mat), as the host takes app names.
    public func isNamed(_ name: String) -> Bool {
        let folded = PeerNames.fold(name)
        return ([appName, bundleIdentifier] + alternativeAppNames).contains { PeerNames.fold($0) == folded }
    }
}

/// How one extension instance runs.
public struct SandboxStatus: Sendable, Hashable, Codable {
    /// Where it runs.
    public enum State: String, Sendable, Hashable, Codable {
        /// Launched by the host, in its sandbox.
        case on
        /// Launched by the host without a sandbox (`--no-sandbox`).
        case off
        /// Not launched by this host (started by hand or on another machine): outside the
        /// host's sandbox and limits.
        case outside
    }
    /// Where it runs.
    public var state: State
    /// The name in the host's config (`messaging`, `bench#2`), for launched instances.
    public var name: String?
    /// Whether its sandbox shares the host's network (the manifest's `IntentdNetworkAccess`).
    public var network: Bool?
    /// Its resource limits, for launched instances.
    public var limits: [LimitStatus]?
    /// The file its output goes to, for launched instances.
    public var log: String?

    /// Creates an entry.
    public init(state: State, name: String? = nil, network: Bool? = nil, limits: [LimitStatus]? = nil, log: String? = nil) {
        self.state = state
        self.name = name
        self.network = network
        self.limits = limits
        self.log = log
    }
}

/// One resource limit of a launched extension.
public struct LimitStatus: Sendable, Hashable, Codable {
    /// `memory`, `cpu`, `processes` or `openFiles`.
    public var resource: String
    /// The limit, in `unit`.
    public var value: Int
    /// `MiB`, `s`, or empty for a count.
    public var unit: String
    /// What enforces it: `cgroup` or `rlimit`.
    public var enforcedBy: String

    /// Creates an entry.
    public init(resource: String, value: Int, unit: String, enforcedBy: String) {
        self.resource = resource
        self.value = value
        self.unit = unit
        self.enforcedBy = enforcedBy
    }
}

/// A registration the host refused, and why.
public struct Rejection: Sendable, Hashable, Codable, Error {
    /// Why, as a code: see `Rejection.Code`.
    public var code: Code
    /// Why, in words a person can act on.
    public var reason: String
    /// The bundle identifier the extension gave.
    public var bundleIdentifier: String
    /// The app name the extension gave.
    public var appName: String
    /// When, as ISO 8601 text.
    public var time: String
    /// The fingerprint of the key the registration came with, if it had one.
    public var keyFingerprint: String?

    /// Why a registration is refused.
    public enum Code: String, Sendable, Hashable, Codable {
        /// A restricted intent is not also supported.
        case restrictedNotSupported
        /// An intent is not in the host's catalog.
        case unknownIntent
        /// Another bundle identifier already serves this app.
        case appTaken
        /// A required field is missing or a limit is exceeded.
        case invalidManifest
        /// The extension speaks another protocol version.
        case unsupportedVersion
        /// The connection's key is not the one the trust store binds to this bundle id.
        case untrustedIdentity
        /// The manifest differs from the one pinned when the bundle id was trusted.
        case manifestChanged
    }

    /// Creates a rejection.
    public init(code: Code, reason: String, bundleIdentifier: String, appName: String, time: String) {
        self.code = code
        self.reason = reason
        self.bundleIdentifier = bundleIdentifier
        self.appName = appName
        self.time = time
    }
}

/// The body of the answer to LOCK.
public struct LockState: Sendable, Hashable, Codable {
    /// Whether the device is now locked.
    public var locked: Bool

    /// Creates the body.
    public init(locked: Bool) { self.locked = locked }
}
