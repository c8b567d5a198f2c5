// Generated from Protocols/domains by TypedDomainsTests: do not edit by hand.
// Ride options, booking, status, cancellation and feedback. SiriKit's Ride Booking domain.

// MARK: - ListRideOptions

/// List the ride options between two places (INListRideOptionsIntent).
public struct ListRideOptionsIntent: TypedIntent {
    /// The catalog name.
    public static let name = "ListRideOptions"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
    public init(_ intent: Intent) { self.intent = intent }

    /// Where should it pick you up?
    public var pickupLocation: Place? { intent.place("pickupLocation") }

    /// Where are you going?
    public var dropOffLocation: Place? { intent.place("dropOffLocation") }
}

/// ListRideOptions's response codes, with SiriKit's numbers.
public enum ListRideOptionsResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch, failureRequiringAppLaunchMustVerifyCredentials, failureRequiringAppLaunchNoServiceInArea, failureRequiringAppLaunchServiceTemporarilyUnavailable, failureRequiringAppLaunchPreviousRideNeedsCompletion, failurePreviousRideNeedsFeedback

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        case .failureRequiringAppLaunchMustVerifyCredentials: 6
        case .failureRequiringAppLaunchNoServiceInArea: 7
        case .failureRequiringAppLaunchServiceTemporarilyUnavailable: 8
        case .failureRequiringAppLaunchPreviousRideNeedsCompletion: 9
        case .failurePreviousRideNeedsFeedback: 10
        }
    }
}

/// A typed response to ListRideOptions.
public typealias ListRideOptionsResponse = TypedResponse<ListRideOptionsResponseCode>

/// Handles ListRideOptions with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol ListRideOptionsIntentHandling: IntentHandler {
    /// Resolves `pickupLocation`.
    func resolvePickupLocation(for intent: ListRideOptionsIntent) async throws -> ResolutionResult
    /// Resolves `dropOffLocation`.
    func resolveDropOffLocation(for intent: ListRideOptionsIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: ListRideOptionsIntent) async throws -> ListRideOptionsResponse
    /// Does it, and describes the result.
    func handle(intent: ListRideOptionsIntent) async throws -> ListRideOptionsResponse
}

extension ListRideOptionsIntentHandling {
    /// By default, `pickupLocation` as given.
    public func resolvePickupLocation(for intent: ListRideOptionsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "pickupLocation", required: false)
    }

    /// By default, `dropOffLocation` as given.
    public func resolveDropOffLocation(for intent: ListRideOptionsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "dropOffLocation", required: false)
    }

    /// By default, ready.
    public func confirm(intent: ListRideOptionsIntent) async throws -> ListRideOptionsResponse { ListRideOptionsResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "pickupLocation": .single { try await resolvePickupLocation(for: ListRideOptionsIntent($0)) },
            "dropOffLocation": .single { try await resolveDropOffLocation(for: ListRideOptionsIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: ListRideOptionsIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: ListRideOptionsIntent(intent)).response }
}

// MARK: - RequestRide

/// Book a ride (INRequestRideIntent). The user confirms before it is handled.
public struct RequestRideIntent: TypedIntent {
    /// The catalog name.
    public static let name = "RequestRide"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
    public init(_ intent: Intent) { self.intent = intent }

    /// Where should it pick you up?
    public var pickupLocation: Place? { intent.place("pickupLocation") }

    /// Where are you going?
    public var dropOffLocation: Place? { intent.place("dropOffLocation") }

    /// Which kind of ride?
    public var rideOptionName: String? { intent.string("rideOptionName") }

    /// How many people?
    public var partySize: Int? { intent.integer("partySize") }

    /// How do you want to pay?
    public var paymentMethod: String? { intent.string("paymentMethod") }

    /// When should it pick you up?
    public var scheduledPickupTime: String? { intent.string("scheduledPickupTime") }
}

/// RequestRide's response codes, with SiriKit's numbers.
public enum RequestRideResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch, failureRequiringAppLaunchMustVerifyCredentials, failureRequiringAppLaunchNoServiceInArea, failureRequiringAppLaunchServiceTemporarilyUnavailable, failureRequiringAppLaunchPreviousRideNeedsCompletion

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        case .failureRequiringAppLaunchMustVerifyCredentials: 6
        case .failureRequiringAppLaunchNoServiceInArea: 7
        case .failureRequiringAppLaunchServiceTemporarilyUnavailable: 8
        case .failureRequiringAppLaunchPreviousRideNeedsCompletion: 9
        }
    }
}

/// A typed response to RequestRide.
public typealias RequestRideResponse = TypedResponse<RequestRideResponseCode>

/// Handles RequestRide with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol RequestRideIntentHandling: IntentHandler {
    /// Resolves `pickupLocation`.
    func resolvePickupLocation(for intent: RequestRideIntent) async throws -> ResolutionResult
    /// Resolves `dropOffLocation`.
    func resolveDropOffLocation(for intent: RequestRideIntent) async throws -> ResolutionResult
    /// Resolves `rideOptionName`.
    func resolveRideOptionName(for intent: RequestRideIntent) async throws -> ResolutionResult
    /// Resolves `partySize`.
    func resolvePartySize(for intent: RequestRideIntent) async throws -> ResolutionResult
    /// Resolves `paymentMethod`.
    func resolvePaymentMethod(for intent: RequestRideIntent) async throws -> ResolutionResult
    /// Resolves `scheduledPickupTime`.
    func resolveScheduledPickupTime(for intent: RequestRideIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: RequestRideIntent) async throws -> RequestRideResponse
    /// Does it, and describes the result.
    func handle(intent: RequestRideIntent) async throws -> RequestRideResponse
}

extension RequestRideIntentHandling {
    /// By default, `pickupLocation` as given.
    public func resolvePickupLocation(for intent: RequestRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "pickupLocation", required: false)
    }

    /// By default, `dropOffLocation` as given; needsValue when missing.
    public func resolveDropOffLocation(for intent: RequestRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "dropOffLocation", required: true)
    }

    /// By default, `rideOptionName` as given.
    public func resolveRideOptionName(for intent: RequestRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "rideOptionName", required: false)
    }

    /// By default, `partySize` as given.
    public func resolvePartySize(for intent: RequestRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "partySize", required: false)
    }

    /// By default, `paymentMethod` as given.
    public func resolvePaymentMethod(for intent: RequestRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "paymentMethod", required: false)
    }

    /// By default, `scheduledPickupTime` as given.
    public func resolveScheduledPickupTime(for intent: RequestRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "scheduledPickupTime", required: false)
    }

    /// By default, ready.
    public func confirm(intent: RequestRideIntent) async throws -> RequestRideResponse { RequestRideResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "pickupLocation": .single { try await resolvePickupLocation(for: RequestRideIntent($0)) },
            "dropOffLocation": .single { try await resolveDropOffLocation(for: RequestRideIntent($0)) },
            "rideOptionName": .single { try await resolveRideOptionName(for: RequestRideIntent($0)) },
            "partySize": .single { try await resolvePartySize(for: RequestRideIntent($0)) },
            "paymentMethod": .single { try await resolvePaymentMethod(for: RequestRideIntent($0)) },
            "scheduledPickupTime": .single { try await resolveScheduledPickupTime(for: RequestRideIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: RequestRideIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: RequestRideIntent(intent)).response }
}

// MARK: - GetRideStatus

/// The current ride's status (INGetRideStatusIntent); the app can also push updates.
public struct GetRideStatusIntent: TypedIntent {
    /// The catalog name.
    public static let name = "GetRideStatus"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
    public init(_ intent: Intent) { self.intent = intent }
}

/// GetRideStatus's response codes, with SiriKit's numbers.
public enum GetRideStatusResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch, failureRequiringAppLaunchMustVerifyCredentials, failureRequiringAppLaunchServiceTemporarilyUnavailable

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        case .failureRequiringAppLaunchMustVerifyCredentials: 6
        case .failureRequiringAppLaunchServiceTemporarilyUnavailable: 7
        }
    }
}

/// A typed response to GetRideStatus.
public typealias GetRideStatusResponse = TypedResponse<GetRideStatusResponseCode>

/// Handles GetRideStatus with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol GetRideStatusIntentHandling: IntentHandler {
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: GetRideStatusIntent) async throws -> GetRideStatusResponse
    /// Does it, and describes the result.
    func handle(intent: GetRideStatusIntent) async throws -> GetRideStatusResponse
}

extension GetRideStatusIntentHandling {
    /// By default, ready.
    public func confirm(intent: GetRideStatusIntent) async throws -> GetRideStatusResponse { GetRideStatusResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            :
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: GetRideStatusIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: GetRideStatusIntent(intent)).response }
}

// MARK: - CancelRide

/// Cancel a ride before pickup (INCancelRideIntent). The user confirms before it is handled.
public struct CancelRideIntent: TypedIntent {
    /// The catalog name.
    public static let name = "CancelRide"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
    public init(_ intent: Intent) { self.intent = intent }

    /// Which ride?
    public var rideIdentifier: String? { intent.string("rideIdentifier") }
}

/// CancelRide's response codes, with SiriKit's numbers.
public enum CancelRideResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
    case unspecified, ready, success, failure

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .success: 2
        case .failure: 3
        }
    }
}

/// A typed response to CancelRide.
public typealias CancelRideResponse = TypedResponse<CancelRideResponseCode>

/// Handles CancelRide with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol CancelRideIntentHandling: IntentHandler {
    /// Resolves `rideIdentifier`.
    func resolveRideIdentifier(for intent: CancelRideIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: CancelRideIntent) async throws -> CancelRideResponse
    /// Does it, and describes the result.
    func handle(intent: CancelRideIntent) async throws -> CancelRideResponse
}

extension CancelRideIntentHandling {
    /// By default, `rideIdentifier` as given; needsValue when missing.
    public func resolveRideIdentifier(for intent: CancelRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "rideIdentifier", required: true)
    }

    /// By default, ready.
    public func confirm(intent: CancelRideIntent) async throws -> CancelRideResponse { CancelRideResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "rideIdentifier": .single { try await resolveRideIdentifier(for: CancelRideIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: CancelRideIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: CancelRideIntent(intent)).response }
}

// MARK: - SendRideFeedback

/// Rate a finished ride and add a tip (INSendRideFeedbackIntent).
public struct SendRideFeedbackIntent: TypedIntent {
    /// The catalog name.
    public static let name = "SendRideFeedback"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
    public init(_ intent: Intent) { self.intent = intent }

    /// Which ride?
    public var rideIdentifier: String? { intent.string("rideIdentifier") }

    /// How many stars, from 1 to 5?
    public var rating: Int? { intent.integer("rating") }

    /// How much of a tip?
    public var tip: Double? { intent.number("tip") }
}

/// SendRideFeedback's response codes, with SiriKit's numbers.
public enum SendRideFeedbackResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
    case unspecified, ready, success, failure

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .success: 2
        case .failure: 3
        }
    }
}

/// A typed response to SendRideFeedback.
public typealias SendRideFeedbackResponse = TypedResponse<SendRideFeedbackResponseCode>

/// Handles SendRideFeedback with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol SendRideFeedbackIntentHandling: IntentHandler {
    /// Resolves `rideIdentifier`.
    func resolveRideIdentifier(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult
    /// Resolves `rating`.
    func resolveRating(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult
    /// Resolves `tip`.
    func resolveTip(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: SendRideFeedbackIntent) async throws -> SendRideFeedbackResponse
    /// Does it, and describes the result.
    func handle(intent: SendRideFeedbackIntent) async throws -> SendRideFeedbackResponse
}

extension SendRideFeedbackIntentHandling {
    /// By default, `rideIdentifier` as given; needsValue when missing.
    public func resolveRideIdentifier(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "rideIdentifier", required: true)
    }

    /// By default, `rating` as given.
    public func resolveRating(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "rating", required: false)
    }

    /// By default, `tip` as given.
    public func resolveTip(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "tip", required: false)
    }

    /// By default, ready.
    public func confirm(intent: SendRideFeedbackIntent) async throws -> SendRideFeedbackResponse { SendRideFeedbackResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "rideIdentifier": .single { try await resolveRideIdentifier(for: SendRideFeedbackIntent($0)) },
            "rating": .single { try await resolveRating(for: SendRideFeedbackIntent($0)) },
            "tip": .single { try await resolveTip(for: SendRideFeedbackIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: SendRideFeedbackIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: SendRideFeedbackIntent(intent)).response }
}
