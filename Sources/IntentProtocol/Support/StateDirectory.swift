import Foundation

/// Where host state lives, and the default endpoints inside it.
///
/// Resolved in this order: an explicit path (`--state-dir`), the environment variable
/// `INTENTD_STATE_DIR`, `$XDG_STATE_HOME/intentd`, then `~/.local/state/intentd`.
public struct StateDirectory: Sendable, Hashable {
    /// Where it is looked for when none is given, in words for help texts.
    public static let searched = "$INTENTD_STATE_DIR, else $XDG_STATE_HOME/intentd, else ~/.local/state/intentd"

    /// The directory.
    public let url: URL

    /// Resolves the state directory.
    public init(explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let explicit, !explicit.isEmpty {
            url = URL(fileURLWithPath: explicit).standardizedFileURL
        } else if let env = environment["INTENTD_STATE_DIR"], !env.isEmpty {
            url = URL(fileURLWithPath: env).standardizedFileURL
        } else if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty {
            url = URL(fileURLWithPath: xdg).appendingPathComponent("intentd")
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            url = URL(fileURLWithPath: home).appendingPathComponent(".local/state/intentd")
        }
    }

    /// The path.
    public var path: String { url.path }

    /// The default client endpoint: `ipc://STATE/client.sock`.
    public var clientEndpoint: String { "ipc://\(path)/client.sock" }

    /// The default extension endpoint: `ipc://STATE/extensions.sock`.
    public var extensionEndpoint: String { "ipc://\(path)/extensions.sock" }

    /// The default updates endpoint, where the host publishes what extensions push:
    /// `ipc://STATE/updates.sock`.
    public var updatesEndpoint: String { "ipc://\(path)/updates.sock" }

    /// Where the host's and the local client's secret keys live: `STATE/keys` (0700).
    public var keysDirectory: URL { url.appendingPathComponent("keys") }

    /// The host's own key pair: `STATE/keys/server.key`.
    public var serverKeyFile: URL { keysDirectory.appendingPathComponent("server.key") }

    /// The last `intentctl bench` run against this host, as the console shows it:
    /// `STATE/bench-last.json`.
    public var lastBenchFile: URL { url.appendingPathComponent("bench-last.json") }

    /// The host's public key, published for clients and extensions: `STATE/server.pub`.
    public var serverPublicKeyFile: URL { url.appendingPathComponent("server.pub") }

    /// The local user's client key pair, trusted by the host: `STATE/keys/client.key`.
    public var clientKeyFile: URL { keysDirectory.appendingPathComponent("client.key") }

    /// Which keys the host trusts, for which bundle ids: `STATE/trust.json`.
    public var trustFile: URL { url.appendingPathComponent("trust.json") }

    /// The handles sent with a client's key, written down before they go (a day's).
    public var handleJournalFile: URL { url.appendingPathComponent("handles.jsonl") }

    /// Where the host keeps each launched extension's output (`BUNDLE-ID.log`) and its own log.
    public var logsDirectory: URL { url.appendingPathComponent("logs") }

    /// The host's own log, beside its extensions' logs (what it also writes to standard error).
    public var hostLogFile: URL { logsDirectory.appendingPathComponent("intentd.log") }

    /// The key pair the host made for an extension it launches (`bundle` is a validated
    /// bundle id): `STATE/keys/extensions/BUNDLE-ID.key`.
    public func launchedKeyFile(for bundle: String) -> URL {
        keysDirectory.appendingPathComponent("extensions").appendingPathComponent("\(bundle).key")
    }

    /// Why this directory must not hold the host's state (not owned by this user, or open
    /// to others), with the command that fixes it; `nil` if it is fine.
    public func ownershipProblem() -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot read \(path): \(String(cString: strerror(errno)))" }
        if info.st_uid != geteuid() {
            return "the state directory \(path) belongs to user \(info.st_uid), not to this user (\(geteuid())); use a directory of your own (--state-dir) or `chown \(geteuid()) \(path)`"
        }
        if info.st_mode & 0o077 != 0 {
            return "the state directory \(path) is open to other users (mode \(String(info.st_mode & 0o777, radix: 8))); fix it with `chmod 700 \(path)`"
        }
        return nil
    }

    /// An extension's private data directory: `STATE/sandboxes/BUNDLE-ID`.
    public func sandbox(for bundleIdentifier: String) -> URL {
        url.appendingPathComponent("sandboxes").appendingPathComponent(bundleIdentifier)
    }

    /// Creates `directory` (and its parents) readable by this user only.
    public static func create(_ directory: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StateDirectoryError(description: "cannot create \(directory.path): \(describeFileError(error))")
        }
    }
}

/// A state or sandbox directory that cannot be made.
public struct StateDirectoryError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String
}
