/// The command byte, byte 9 of every message. See `Protocols/wire.md`.
public enum Command: UInt8, Sendable, CaseIterable {
    // Extension endpoint.
    case register = 0x01
    case registered = 0x02
    case rejected = 0x03
    case request = 0x04
    case reply = 0x05
    case heartbeat = 0x06
    case disconnect = 0x07
    case update = 0x08
    case vocabulary = 0x09
    // Client endpoint.
    case submit = 0x10
    case stage = 0x11
    case result = 0x12
    case error = 0x13
    case status = 0x14
    case lock = 0x15
    case vocab = 0x16
    case authorize = 0x17
    case say = 0x18
    case restart = 0x19
}

/// One stage of an intent's lifecycle.
public enum Stage: UInt8, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case resolve = 1
    case confirm = 2
    case handle = 3

    /// Parses `resolve`, `confirm` or `handle`.
    public init?(name: String) {
        guard let stage = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = stage
    }

    public var description: String {
        switch self {
        case .resolve: "resolve"
        case .confirm: "confirm"
        case .handle: "handle"
        }
    }
}

/// The codes the host puts in ERROR frames and in refused or failed outcomes.
public enum ErrorCode: String, Sendable, Codable, CaseIterable {
    /// The frames or the body could not be parsed.
    case malformed
    /// The message was over the size limit.
    case tooLarge
    /// No registered extension serves the named app.
    case unknownApp
    /// The intent is not in the catalog, or the app does not support it.
    case unknownIntent
    /// A parameter is not in the catalog or has the wrong type.
    case invalidParameter
    /// The intent is restricted while the device is locked.
    case requiresUnlock
    /// The user has denied the app (`intentctl authorize APP allow` to change it).
    case notAuthorized
    /// The app's extension is registered but no instance is alive to take the request.
    case extensionUnavailable
    /// The extension did not answer before the deadline.
    case extensionTimeout
    /// A handle was sent and no answer came: it may or may not have been done. Send it
    /// again with the same idempotency key to find out; it is never done twice.
    case outcomeUnknown
    /// The extension answered with a body the host could not use.
    case invalidReply
    /// The extension answered with an error instead of a result.
    case extensionError
    /// The host is shutting down.
    case shuttingDown
    /// A SAY named a conversation the host does not know (or no longer remembers).
    case unknownSession
    /// A SAY arrived while the host was still working on the conversation's last turn.
    case sessionBusy
    /// A SAY asked for a language the host has no language file for.
    case unknownLanguage
    /// The host could not save a change to its state (a full disk, a read-only file
    /// system); nothing was changed.
    case stateNotSaved
    /// RESTART named an app whose extension runs, but not as a launch of this host.
    case notLaunched
    /// The host has as much work in flight as its admission limits allow (in all, for this
    /// client connection, or for every instance of the app), or this client is not reading
    /// its replies; nothing was done. A refusal: try again shortly.
    case overloaded
}
