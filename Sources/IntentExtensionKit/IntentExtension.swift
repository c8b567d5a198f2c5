import Foundation
@_exported import IntentProtocol
@_exported import Logging
import ZeroMQ

/// An Intents extension: declare its manifest and hand out a handler per intent.
///
/// ```swift
/// @main
/// struct MyExtension: IntentExtension {
///     static var manifestURL: URL? { Bundle.module.url(forResource: "Manifest/Info", withExtension: "plist") }
///     init(context: ExtensionContext) async throws { ... open your data in context.sandboxDirectory ... }
///     func handler(for intent: Intent) -> (any IntentHandler)? { SendMessageHandler() }
/// }
/// ```
/// The SDK owns the connection to the host, registration, heartbeats, reconnection and
/// the sandbox directory; the extension only answers resolve, confirm and handle.
public protocol IntentExtension: Sendable {
    /// Where the Info.plist-style manifest is (usually inside `Bundle.module`).
    static var manifestURL: URL? { get }

    /// Creates the extension once, before it registers.
    init(context: ExtensionContext) async throws

    /// The object that handles `intent`, or `nil` if this extension does not.
    func handler(for intent: Intent) -> (any IntentHandler)?

    /// Where completed handles are kept by idempotency key (section 5a of the wire
    /// protocol); `nil`, the default, keeps them in memory for the process's life.
    var journal: (any HandleJournal)? { get }

    /// Called once on a clean stop (SIGTERM or SIGINT), after the host was told and the
    /// requests in flight were answered: close stores here (checkpoint, then close).
    func stop() async

    /// Whether the host may send several stages of an intent in one request (wire.md,
    /// section 5b); the SDK runs them exactly as it runs them one by one. `true` by default.
    static var takesBatchedStages: Bool { get }
}

extension IntentExtension {
    /// Completed handles are kept in memory.
    public var journal: (any HandleJournal)? { nil }

    /// Nothing to close.
    public func stop() async {}

    public static var takesBatchedStages: Bool { true }

    /// Runs the extension until the host rejects it or the process is stopped.
    public static func main() async {
        // Every logger in the process (the SDK's, the service group's) writes the host's line format.
        LoggingSystem.bootstrap { label in LineLogHandler(label: label, metadataProvider: RequestMetadata.provider) }
        do {
            try await ExtensionRunner.run(Self.self, arguments: Array(CommandLine.arguments.dropFirst()))
        } catch let error as ExtensionRunner.Exit {
            exit(error.status)
        } catch let error as DamagedStore {
            FileHandle.standardError.write(Data("fatal: \(error); not registering\n".utf8))
            exit(DamagedStore.exitStatus)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
    }
}

/// What the SDK gives an extension when it starts.
public struct ExtensionContext: Sendable {
    /// The extension's private directory: keep all its data here.
    public let sandboxDirectory: URL
    /// The bundle identifier from the manifest.
    public let bundleIdentifier: String
    /// A logger named after the app, in the project's line format on standard error (which
    /// the host keeps in the extension's log). Each line carries the app's name and, while a
    /// request is being served, its `request`, `stage`, `intent` and `session`.
    public let log: Logger
    /// Pushes updates (such as a ride's progress) that the host publishes to subscribers.
    public let updates: UpdatePublisher
    /// Sets the user-specific vocabulary the assistant uses to understand this app.
    public let vocabulary: VocabularyPublisher

    /// A context for `app` whose log goes through `logHandler`, and whose updates and
    /// vocabulary go nowhere: for tests.
    package init(
        sandboxDirectory: URL, bundleIdentifier: String, app: String, logHandler: @escaping @Sendable (String) -> any LogHandler
    ) throws {
        self.init(
            sandboxDirectory: sandboxDirectory, bundleIdentifier: bundleIdentifier, app: app, outbox: try Mailbox(),
            logHandler: logHandler)
    }

    /// A context for `app` whose log goes through `logHandler` and whose updates and
    /// vocabulary go to `outbox`, which the connection sends.
    init(
        sandboxDirectory: URL, bundleIdentifier: String, app: String, outbox: Mailbox<Outgoing>,
        logHandler: (@Sendable (String) -> any LogHandler)? = nil
    ) {
        self.sandboxDirectory = sandboxDirectory
        self.bundleIdentifier = bundleIdentifier
        log = RequestMetadata.logger(app: app, handler: logHandler)
        updates = UpdatePublisher(outbox: outbox)
        vocabulary = VocabularyPublisher(outbox: outbox)
    }
}

/// Sets user-specific vocabulary (contact names, playlist names, ...): for each type an
/// ordered set of terms, most important first, always replaced whole and effective at once.
public struct VocabularyPublisher: Sendable {
    let outbox: Mailbox<Outgoing>

    /// Replaces the terms of `type` (such as `contactName`); an empty list removes them.
    /// Repeated terms are sent once, the first of each. Returns false, and sends nothing,
    /// when more than `UserVocabulary.maximumTerms` different terms remain or `type` is not
    /// a type name (`UserVocabulary.problem(withType:)`): the host would refuse them whole
    /// (wire.md section 19b).
    @discardableResult
    public func set(_ terms: [String], for type: String) -> Bool {
        let vocabulary = UserVocabulary(type: type, terms: terms)
        guard vocabulary.terms.count <= UserVocabulary.maximumTerms, UserVocabulary.problem(withType: type) == nil else { return false }
        send(VocabularyRequest(set: vocabulary))
        return true
    }

    /// Removes every term of every type, as when the user logs out.
    public func removeAll() {
        send(VocabularyRequest(reset: true))
    }

    private func send(_ request: VocabularyRequest) {
        if let body = try? JSON.encode(request) { outbox.post(.vocabulary(body)) }
    }
}

/// Sends updates to the host, which publishes them as `APP/TOPIC` on its updates endpoint
/// (`intentctl watch` prints them). Safe to call from any task.
public struct UpdatePublisher: Sendable {
    let outbox: Mailbox<Outgoing>

    /// Publishes `payload` under `topic`, such as `ride`.
    public func publish(_ topic: String, _ payload: JSONValue) {
        outbox.post(.update(topic, payload.serialized()))
    }

    /// Reports the end of long work that answered `inProgress`: publishes `response`
    /// under the topic `completion`, with the intent's name and session id.
    public func complete(_ intent: Intent, with response: IntentResponse) {
        publish("completion", [
            "sessionId": .string(intent.sessionId), "intent": .string(intent.name),
            "code": .string(response.code), "response": .object(response.response),
        ])
    }
}
