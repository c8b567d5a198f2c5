/// One extension the host launches, as its supervisor sees it: whether it runs, waits to
/// restart, or was given up on, and why it last ended.
public struct LaunchStatus: Sendable, Hashable, Codable {
    /// What the supervisor is doing with a launch.
    public enum State: String, Sendable, Hashable, Codable {
        /// Its process runs (it may not have registered yet).
        case running
        /// It ended and starts again in `restartInSeconds`.
        case restarting
        /// It ended quickly several times in a row and starts again in `restartInSeconds`,
        /// each time waiting longer (up to 32 s).
        case crashLooping
        /// It exited with status 78 (its registration was refused, or it found its
        /// configuration or store unusable): not restarted until `intentctl restart`.
        case rejected
        /// It exited with status 74: its own data is damaged (a store that fails its
        /// integrity check). Not restarted until `intentctl restart`.
        case unhealthy
        /// It could not be started at all: see `lastError`.
        case failed
    }

    /// The name in the host's config (`messaging`, `bench#2`).
    public var name: String
    /// The app its manifest declares.
    public var appName: String
    /// Its bundle identifier.
    public var bundleIdentifier: String
    /// What the supervisor is doing with it.
    public var state: State
    /// The extension's own process id while it runs (never bubblewrap's when sandboxed).
    public var processIdentifier: Int?
    /// How many times it was started again since the host started.
    public var restarts: Int
    /// Seconds until the next start, while `restarting` or `crashLooping`.
    public var restartInSeconds: Double?
    /// How its last process ended, e.g. `exited with status 1`.
    public var lastExit: String?
    /// The last line it wrote to its log before it ended (escaped), or why it could not start.
    public var lastError: String?

    /// Creates an entry.
    public init(
        name: String, appName: String, bundleIdentifier: String, state: State, processIdentifier: Int? = nil,
        restarts: Int = 0, restartInSeconds: Double? = nil, lastExit: String? = nil, lastError: String? = nil
    ) {
        self.name = name
        self.appName = appName
        self.bundleIdentifier = bundleIdentifier
        self.state = state
        self.processIdentifier = processIdentifier
        self.restarts = restarts
        self.restartInSeconds = restartInSeconds
        self.lastExit = lastExit
        self.lastError = lastError
    }
}

/// The answer to RESTART: the launches it started again, or woke from their back-off.
public struct RestartState: Sendable, Hashable, Codable {
    /// The app that was asked for, as the host names it.
    public var app: String
    /// The launches restarted, each as it is now.
    public var launches: [LaunchStatus]

    /// Creates an answer.
    public init(app: String, launches: [LaunchStatus]) {
        self.app = app
        self.launches = launches
    }
}
