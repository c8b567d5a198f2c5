import Foundation
import Logging
import Synchronization

/// The project's log format as a swift-log `LogHandler`: one line per event,
/// `TIME LABEL LEVEL [key=value ...]: MESSAGE`, such as
/// `2026-11-23T12:00:00.123Z intentd info [app=MonkeyChat request=7]: registered MonkeyChat`.
///
/// Peers are hostile, and their strings reach messages and metadata: both are escaped
/// (`LogLine.escape`), so no value can end a line early or write what reads like another
/// line; a metadata value with a space, `=`, `]` or `"` is quoted. Metadata keys are sorted,
/// so the same event always reads the same. `LogLine` reads such lines back.
public struct LineLogHandler: LogHandler {
    /// Where finished lines go (standard error by default).
    public typealias Sink = @Sendable ([UInt8]) -> Void

    /// Metadata on every line of this handler.
    public var metadata: Logger.Metadata = [:]
    /// Adds metadata at the time of each event (such as the request a task is serving).
    public var metadataProvider: Logger.MetadataProvider?
    /// The least severe level written.
    public var logLevel: Logger.Level
    private let label: String
    private let sink: Sink

    /// A handler for `label`; `INTENTD_LOG_LEVEL` (trace, debug, info, notice, warning,
    /// error, critical) overrides `level`.
    public init(label: String, level: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil, sink: Sink? = nil) {
        self.label = label
        logLevel = Self.levelFromEnvironment ?? level
        self.metadataProvider = metadataProvider
        self.sink = sink ?? Self.standardError
    }

    /// The level `INTENTD_LOG_LEVEL` names, if any.
    public static var levelFromEnvironment: Logger.Level? {
        ProcessInfo.processInfo.environment["INTENTD_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) }
    }

    /// Writes `bytes` to standard error in one `write`, so lines from threads do not mix.
    public static let standardError: Sink = { bytes in
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(2, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// Formats and writes one event.
    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let own = event.metadata { all.merge(own) { _, new in new } }
        if let error = event.error { all["error"] = "\(error)" }
        let line = LogLine.format(
            time: Date(), label: label, level: event.level, metadata: all, message: event.message.description)
        sink(Array(line.utf8))
    }

    /// One metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
