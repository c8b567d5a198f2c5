// Generated from Protocols/domains by TypedDomainsTests: do not edit by hand.
// Send and search text messages, and mark them read, unread, flagged or played. SiriKit's Messages domain.

// MARK: - SendMessage

/// Send a message to one or more recipients (INSendMessageIntent).
public struct SendMessageIntent: TypedIntent {
    /// The catalog name.
    public static let name = "SendMessage"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
    public init(_ intent: Intent) { self.intent = intent }

    /// Who do you want to send it to?
    public var recipients: [Person] { intent.persons("recipients") }

    /// What do you want to say?
    public var content: String? { intent.string("content") }

    /// Which group should it go to?
    public var groupName: String? { intent.string("groupName") }

    /// Which service should send it?
    public var serviceName: String? { intent.string("serviceName") }
}

/// SendMessage's response codes, with SiriKit's numbers.
public enum SendMessageResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch, failureMessageServiceNotAvailable, failureRequiringInAppAuthentication

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        case .failureMessageServiceNotAvailable: 6
        case .failureRequiringInAppAuthentication: 7
        }
    }
}

/// A typed response to SendMessage.
public typealias SendMessageResponse = TypedResponse<SendMessageResponseCode>

/// Handles SendMessage with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol SendMessageIntentHandling: IntentHandler {
    /// Resolves `recipients`, one result per value.
    func resolveRecipients(for intent: SendMessageIntent) async throws -> [ResolutionResult]
    /// Resolves `content`.
    func resolveContent(for intent: SendMessageIntent) async throws -> ResolutionResult
    /// Resolves `groupName`.
    func resolveGroupName(for intent: SendMessageIntent) async throws -> ResolutionResult
    /// Resolves `serviceName`.
    func resolveServiceName(for intent: SendMessageIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: SendMessageIntent) async throws -> SendMessageResponse
    /// Does it, and describes the result.
    func handle(intent: SendMessageIntent) async throws -> SendMessageResponse
}

extension SendMessageIntentHandling {
    /// By default, `recipients` as given; needsValue when missing.
    public func resolveRecipients(for intent: SendMessageIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "recipients", required: true)
    }

    /// By default, `content` as given; needsValue when missing.
    public func resolveContent(for intent: SendMessageIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "content", required: true)
    }

    /// By default, `groupName` as given.
    public func resolveGroupName(for intent: SendMessageIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "groupName", required: false)
    }

    /// By default, `serviceName` as given.
    public func resolveServiceName(for intent: SendMessageIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "serviceName", required: false)
    }

    /// By default, ready.
    public func confirm(intent: SendMessageIntent) async throws -> SendMessageResponse { SendMessageResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "recipients": .list { try await resolveRecipients(for: SendMessageIntent($0)) },
            "content": .single { try await resolveContent(for: SendMessageIntent($0)) },
            "groupName": .single { try await resolveGroupName(for: SendMessageIntent($0)) },
            "serviceName": .single { try await resolveServiceName(for: SendMessageIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: SendMessageIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: SendMessageIntent(intent)).response }
}

// MARK: - SearchForMessages

/// Find messages by recipient, sender, words, attribute, date or identifier (INSearchForMessagesIntent).
public struct SearchForMessagesIntent: TypedIntent {
    /// The catalog name.
    public static let name = "SearchForMessages"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
    public init(_ intent: Intent) { self.intent = intent }

    /// Messages to whom?
    public var recipients: [Person] { intent.persons("recipients") }

    /// Messages from whom?
    public var senders: [Person] { intent.persons("senders") }

    /// What words should the messages contain?
    public var searchTerms: [String] { intent.strings("searchTerms") }

    /// Which kind of messages?
    public var attributes: [Attributes] { intent.values("attributes") }

    /// From when?
    public var dateTime: String? { intent.string("dateTime") }

    /// Which messages?
    public var identifiers: [String] { intent.strings("identifiers") }

    /// In which groups?
    public var groupNames: [String] { intent.strings("groupNames") }

    /// The values of `attributes`.
    public enum Attributes: String, Sendable, CaseIterable {
        /// The catalog's values.
        case read, unread, flagged, unflagged, played
    }
}

/// SearchForMessages's response codes, with SiriKit's numbers.
public enum SearchForMessagesResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch, failureMessageServiceNotAvailable, failureMessageTooManyResults

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        case .failureMessageServiceNotAvailable: 6
        case .failureMessageTooManyResults: 7
        }
    }
}

/// A typed response to SearchForMessages.
public typealias SearchForMessagesResponse = TypedResponse<SearchForMessagesResponseCode>

/// Handles SearchForMessages with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol SearchForMessagesIntentHandling: IntentHandler {
    /// Resolves `recipients`, one result per value.
    func resolveRecipients(for intent: SearchForMessagesIntent) async throws -> [ResolutionResult]
    /// Resolves `senders`, one result per value.
    func resolveSenders(for intent: SearchForMessagesIntent) async throws -> [ResolutionResult]
    /// Resolves `searchTerms`, one result per value.
    func resolveSearchTerms(for intent: SearchForMessagesIntent) async throws -> [ResolutionResult]
    /// Resolves `attributes`, one result per value.
    func resolveAttributes(for intent: SearchForMessagesIntent) async throws -> [ResolutionResult]
    /// Resolves `dateTime`.
    func resolveDateTime(for intent: SearchForMessagesIntent) async throws -> ResolutionResult
    /// Resolves `identifiers`, one result per value.
    func resolveIdentifiers(for intent: SearchForMessagesIntent) async throws -> [ResolutionResult]
    /// Resolves `groupNames`, one result per value.
    func resolveGroupNames(for intent: SearchForMessagesIntent) async throws -> [ResolutionResult]
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: SearchForMessagesIntent) async throws -> SearchForMessagesResponse
    /// Does it, and describes the result.
    func handle(intent: SearchForMessagesIntent) async throws -> SearchForMessagesResponse
}

extension SearchForMessagesIntentHandling {
    /// By default, `recipients` as given.
    public func resolveRecipients(for intent: SearchForMessagesIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "recipients", required: false)
    }

    /// By default, `senders` as given.
    public func resolveSenders(for intent: SearchForMessagesIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "senders", required: false)
    }

    /// By default, `searchTerms` as given.
    public func resolveSearchTerms(for intent: SearchForMessagesIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "searchTerms", required: false)
    }

    /// By default, `attributes` as given.
    public func resolveAttributes(for intent: SearchForMessagesIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "attributes", required: false)
    }

    /// By default, `dateTime` as given.
    public func resolveDateTime(for intent: SearchForMessagesIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "dateTime", required: false)
    }

    /// By default, `identifiers` as given.
    public func resolveIdentifiers(for intent: SearchForMessagesIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "identifiers", required: false)
    }

    /// By default, `groupNames` as given.
    public func resolveGroupNames(for intent: SearchForMessagesIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "groupNames", required: false)
    }

    /// By default, ready.
    public func confirm(intent: SearchForMessagesIntent) async throws -> SearchForMessagesResponse { SearchForMessagesResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "recipients": .list { try await resolveRecipients(for: SearchForMessagesIntent($0)) },
            "senders": .list { try await resolveSenders(for: SearchForMessagesIntent($0)) },
            "searchTerms": .list { try await resolveSearchTerms(for: SearchForMessagesIntent($0)) },
            "attributes": .list { try await resolveAttributes(for: SearchForMessagesIntent($0)) },
            "dateTime": .single { try await resolveDateTime(for: SearchForMessagesIntent($0)) },
            "identifiers": .list { try await resolveIdentifiers(for: SearchForMessagesIntent($0)) },
            "groupNames": .list { try await resolveGroupNames(for: SearchForMessagesIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: SearchForMessagesIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: SearchForMessagesIntent(intent)).response }
}

// MARK: - SetMessageAttribute

/// Mark messages read, unread, flagged, unflagged or played (INSetMessageAttributeIntent).
public struct SetMessageAttributeIntent: TypedIntent {
    /// The catalog name.
    public static let name = "SetMessageAttribute"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
    public init(_ intent: Intent) { self.intent = intent }

    /// Which messages?
    public var identifiers: [String] { intent.strings("identifiers") }

    /// Mark them as what?
    public var attribute: Attribute? { intent.string("attribute").flatMap(Attribute.init(rawValue:)) }

    /// The values of `attribute`.
    public enum Attribute: String, Sendable, CaseIterable {
        /// The catalog's values.
        case read, unread, flagged, unflagged, played
    }
}

/// SetMessageAttribute's response codes, with SiriKit's numbers.
public enum SetMessageAttributeResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch, failureMessageNotFound, failureMessageAttributeNotSet

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        case .failureMessageNotFound: 6
        case .failureMessageAttributeNotSet: 7
        }
    }
}

/// A typed response to SetMessageAttribute.
public typealias SetMessageAttributeResponse = TypedResponse<SetMessageAttributeResponseCode>

/// Handles SetMessageAttribute with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol SetMessageAttributeIntentHandling: IntentHandler {
    /// Resolves `identifiers`, one result per value.
    func resolveIdentifiers(for intent: SetMessageAttributeIntent) async throws -> [ResolutionResult]
    /// Resolves `attribute`.
    func resolveAttribute(for intent: SetMessageAttributeIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: SetMessageAttributeIntent) async throws -> SetMessageAttributeResponse
    /// Does it, and describes the result.
    func handle(intent: SetMessageAttributeIntent) async throws -> SetMessageAttributeResponse
}

extension SetMessageAttributeIntentHandling {
    /// By default, `identifiers` as given; needsValue when missing.
    public func resolveIdentifiers(for intent: SetMessageAttributeIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "identifiers", required: true)
    }

    /// By default, `attribute` as given; needsValue when missing.
    public func resolveAttribute(for intent: SetMessageAttributeIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "attribute", required: true)
    }

    /// By default, ready.
    public func confirm(intent: SetMessageAttributeIntent) async throws -> SetMessageAttributeResponse { SetMessageAttributeResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "identifiers": .list { try await resolveIdentifiers(for: SetMessageAttributeIntent($0)) },
            "attribute": .single { try await resolveAttribute(for: SetMessageAttributeIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: SetMessageAttributeIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: SetMessageAttributeIntent(intent)).response }
}
