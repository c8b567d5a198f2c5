import Foundation
import IntentProtocol
import Logging

/// Where the host's log lines go: standard error and `STATE/logs/intentd.log` (rotated like
/// the extensions' logs), every line in the project's format (`LineLogHandler`), so
/// `intentctl logs` can read the host's lines beside its extensions'.
public enum HostLog {
    /// The label of the host's loggers.
    public static let label = "intentd"

    /// Sends every `Logger` of this process to standard error and the host's log file.
    /// Call once, before the host starts.
    public static func bootstrap(state: StateDirectory) throws {
        try StateDirectory.create(state.url)
        let file = try ExtensionLog(directory: state.logsDirectory, bundleIdentifier: label, maxBytes: 8 << 20)
        let sink: LineLogHandler.Sink = { bytes in
            LineLogHandler.standardError(bytes)
            // A failure to write the file is not logged: that would write to the file again.
            _ = file.write(bytes)
        }
        LoggingSystem.bootstrap { name in LineLogHandler(label: name, sink: sink) }
    }
}
