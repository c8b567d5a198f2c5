import Foundation

/// Where host state lives, and the default endpoints inside it.
///
/// Resolved in this order: an explicit path (`--state-dir`), the environment variable
/// `INTENTD_STATE_DIR`, `$XDG_STATE_HOME/intentd`, then `~/.local/state/intentd`.
public struct StateDirectory: Sendable, Hashable {
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
