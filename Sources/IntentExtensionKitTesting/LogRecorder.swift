import Foundation
import InMemoryLogging
import IntentExtensionKit

/// An `ExtensionContext` for a unit test whose log is kept in memory, so a test reads what
/// an extension logged, with its metadata, instead of searching a file.
///
/// ```swift
/// let recorder = try LogRecorder(app: "MonkeyChat")
/// let chat = try await MonkeyChat(context: recorder.context)
/// #expect(recorder.entries.contains { $0.message.description.hasPrefix("opened") })
/// ```
public struct LogRecorder: Sendable {
    /// The context to give the extension.
    public let context: ExtensionContext
    /// Where its log lines went.
    public let handler: InMemoryLogHandler

    /// A context for `app` with its sandbox in `sandboxDirectory` (a new temporary one by default).
    public init(app: String, bundleIdentifier: String = "com.example.test", sandboxDirectory: URL? = nil) throws {
        let directory = sandboxDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let handler = InMemoryLogHandler()
        self.handler = handler
        var everything = handler
        everything.logLevel = .trace
        let shared = everything
        context = try ExtensionContext(
            sandboxDirectory: directory, bundleIdentifier: bundleIdentifier, app: app, logHandler: { _ in shared })
    }

    /// Every line logged so far, oldest first, each with all its metadata.
    public var entries: [InMemoryLogHandler.Entry] { handler.entries }
}
