import Foundation

/// A small structured logger writing one line per event to standard error.
public struct Log: Sendable {
    /// How much to say.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        var label: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// Who is speaking, such as `intentd` or `MonkeyChat`.
    public let component: String
    /// The least severe level written.
    public let minimum: Level

    /// Creates a logger; `INTENTD_LOG_LEVEL` (debug, info, warning, error) overrides `minimum`.
    public init(_ component: String, minimum: Level = .info) {
        self.component = component
        let env = ProcessInfo.processInfo.environment["INTENTD_LOG_LEVEL"]?.lowercased()
        self.minimum = Level.allCases.first { $0.label == env } ?? minimum
    }

    /// Writes a line at `level`.
    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimum else { return }
        let time = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
        FileHandle.standardError.write(Data("\(time) \(component) \(level.label): \(message())\n".utf8))
    }

    /// Writes a debug line.
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Writes an info line.
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Writes a warning.
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Writes an error.
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}
