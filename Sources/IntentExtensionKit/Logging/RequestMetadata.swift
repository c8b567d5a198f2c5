import Logging

/// The request a task is serving, for the metadata of every line logged while it does:
/// `ExtensionContext.log` adds its `request`, `stage`, `intent`, `session` and `trace` (the
/// trace id of the `traceparent` the host sent, wire.md section 5b).
///
/// The session is read from the body only when a line is actually written, so a request
/// that logs nothing pays for nothing but setting the task-local value.
struct RequestMetadata: Sendable {
    @TaskLocal static var current: RequestMetadata?

    let id: RequestID
    let stage: Stage
    let intent: String
    let body: [UInt8]

    /// The metadata of the request the current task serves, if any.
    static let provider = Logger.MetadataProvider {
        guard let request = current else { return [:] }
        var metadata: Logger.Metadata = [
            "request": "\(request.id)", "stage": "\(request.stage)", "intent": "\(request.intent)",
        ]
        if let parsed = try? LazyStageRequest(request.body) { metadata["session"] = "\(parsed.sessionId)" }
        if let trace = TraceParent.traceID(in: request.body) { metadata["trace"] = "\(trace)" }
        return metadata
    }

    /// A logger for `app` with the app's name and the current request's metadata on every
    /// line, through `handler` (the project's line format on standard error by default).
    static func logger(app: String, handler: (@Sendable (String) -> any LogHandler)? = nil) -> Logger {
        let make = handler ?? { label in LineLogHandler(label: label) }
        var logger = Logger(label: app) { label, _ in
            var handler = make(label)
            handler.metadataProvider = provider
            return handler
        }
        logger[metadataKey: "app"] = "\(app)"
        return logger
    }
}
