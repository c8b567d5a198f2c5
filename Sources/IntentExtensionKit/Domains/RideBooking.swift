// Generated from Protocols/domains by TypedDomainsTests: do not edit by hand.
// Ride options, booking, status, cancellation and feedback. SiriKit's Ride Booking domain.

// MARK: - ListRideOptions

/// List the ride options between two places (INListRideOptionsIntent).
public struct ListRideOptionsIntent: TypedIntent {
    public static let name = "ListRideOptions"
    public let intent: Intent

    public init(_ intent: Intent) { self.intent = intent }

    /// Where should it pick you up?
    public var pickupLocation: Place? { intent.place("pickupLocation") }

    /// Where are you going?
    public var dropOffLocation: Place? { intent.place("dropOffLocation") }
}

/// ListRideOptions's response codes, with SiriKit's numbers.
public enum ListRideOptionsResponseCode: String, Sendable, CaseIterable {
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
    func resolvePickupLocation(for intent: ListRideOptionsIntent) async throws -> ResolutionResult
    func resolveDropOffLocation(for intent: ListRideOptionsIntent) async throws -> ResolutionResult
    func confirm(intent: ListRideOptionsIntent) async throws -> ListRideOptionsResponse
    func handle(intent: ListRideOptionsIntent) async throws -> ListRideOptionsResponse
}

extension ListRideOptionsIntentHandling {
    public func resolvePickupLocation(for intent: ListRideOptionsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "pickupLocation", required: false)
    }

    public func resolveDropOffLocation(for intent: ListRideOptionsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "dropOffLocation", required: false)
    }

    public func confirm(intent: ListRideOptionsIntent) async throws -> ListRideOptionsResponse { ListRideOptionsResponse(.ready) }

    public var resolvers: [String: Resolver] {
        [
            "pickupLocation": .single { try await resolvePickupLocation(for: ListRideOptionsIntent($0)) },
            "dropOffLocation": .single { try await resolveDropOffLocation(for: ListRideOptionsIntent($0)) },
        ]
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: ListRideOptionsIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: ListRideOptionsIntent(intent)).response }
}

// MARK: - RequestRide

/// Book a ride (INRequestRideIntent). The user confirms before it is handled.
public struct RequestRideIntent: TypedIntent {
    public static let name = "RequestRide"
    public let intent: Intent

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
    func resolvePickupLocation(for intent: RequestRideIntent) async throws -> ResolutionResult
    func resolveDropOffLocation(for intent: RequestRideIntent) async throws -> ResolutionResult
    func resolveRideOptionName(for intent: RequestRideIntent) async throws -> ResolutionResult
    func resolvePartySize(for intent: RequestRideIntent) async throws -> ResolutionResult
    func resolvePaymentMethod(for intent: RequestRideIntent) async throws -> ResolutionResult
    func resolveScheduledPickupTime(for intent: RequestRideIntent) async throws -> ResolutionResult
    func confirm(intent: RequestRideIntent) async throws -> RequestRideResponse
    func handle(intent: RequestRideIntent) async throws -> RequestRideResponse
}

extension RequestRideIntentHandling {
    public func resolvePickupLocation(for intent: RequestRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "pickupLocation", required: false)
    }

    public func resolveDropOffLocation(for intent: RequestRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "dropOffLocation", required: true)
    }

    public func resolveRideOptionName(for intent: RequestRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "rideOptionName", required: false)
    }

    public func resolvePartySize(for intent: RequestRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "partySize", required: false)
    }

    public func resolvePaymentMethod(for intent: RequestRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "paymentMethod", required: false)
    }

    public func resolveScheduledPickupTime(for intent: RequestRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "scheduledPickupTime", required: false)
    }

    public func confirm(intent: RequestRideIntent) async throws -> RequestRideResponse { RequestRideResponse(.ready) }

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

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: RequestRideIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: RequestRideIntent(intent)).response }
}

// MARK: - GetRideStatus

/// The current ride's status (INGetRideStatusIntent); the app can also push updates.
public struct GetRideStatusIntent: TypedIntent {
    public static let name = "GetRideStatus"
    public let intent: Intent

    public init(_ intent: Intent) { self.intent = intent }
}

/// GetRideStatus's response codes, with SiriKit's numbers.
public enum GetRideStatusResponseCode: String, Sendable, CaseIterable {
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
    func confirm(intent: GetRideStatusIntent) async throws -> GetRideStatusResponse
    func handle(intent: GetRideStatusIntent) async throws -> GetRideStatusResponse
}

extension GetRideStatusIntentHandling {
    public func confirm(intent: GetRideStatusIntent) async throws -> GetRideStatusResponse { GetRideStatusResponse(.ready) }

    public var resolvers: [String: Resolver] {
        [
            :
        ]
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: GetRideStatusIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: GetRideStatusIntent(intent)).response }
}

// MARK: - CancelRide

/// Cancel a ride before pickup (INCancelRideIntent).
public struct CancelRideIntent: TypedIntent {
    public static let name = "CancelRide"
    public let intent: Intent

    public init(_ intent: Intent) { self.intent = intent }

    /// Which ride?
    public var rideIdentifier: String? { intent.string("rideIdentifier") }
}

/// CancelRide's response codes, with SiriKit's numbers.
public enum CancelRideResponseCode: String, Sendable, CaseIterable {
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
    func resolveRideIdentifier(for intent: CancelRideIntent) async throws -> ResolutionResult
    func confirm(intent: CancelRideIntent) async throws -> CancelRideResponse
    func handle(intent: CancelRideIntent) async throws -> CancelRideResponse
}

extension CancelRideIntentHandling {
    public func resolveRideIdentifier(for intent: CancelRideIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "rideIdentifier", required: true)
    }

    public func confirm(intent: CancelRideIntent) async throws -> CancelRideResponse { CancelRideResponse(.ready) }

    public var resolvers: [String: Resolver] {
        [
            "rideIdentifier": .single { try await resolveRideIdentifier(for: CancelRideIntent($0)) },
        ]
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: CancelRideIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: CancelRideIntent(intent)).response }
}

// MARK: - SendRideFeedback

/// Rate a finished ride and add a tip (INSendRideFeedbackIntent).
public struct SendRideFeedbackIntent: TypedIntent {
    public static let name = "SendRideFeedback"
    public let intent: Intent

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
    func resolveRideIdentifier(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult
    func resolveRating(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult
    func resolveTip(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult
    func confirm(intent: SendRideFeedbackIntent) async throws -> SendRideFeedbackResponse
    func handle(intent: SendRideFeedbackIntent) async throws -> SendRideFeedbackResponse
}

extension SendRideFeedbackIntentHandling {
    public func resolveRideIdentifier(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "rideIdentifier", required: true)
    }

    public func resolveRating(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "rating", required: false)
    }

    public func resolveTip(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "tip", required: false)
    }

    public func confirm(intent: SendRideFeedbackIntent) async throws -> SendRideFeedbackResponse { SendRideFeedbackResponse(.ready) }

    public var resolvers: [String: Resolver] {
        [
            "rideIdentifier": .single { try await resolveRideIdentifier(for: SendRideFeedbackIntent($0)) },
            "rating": .single { try await resolveRating(for: SendRideFeedbackIntent($0)) },
            "tip": .single { try await resolveTip(for: SendRideFeedbackIntent($0)) },
        ]
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: SendRideFeedbackIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: SendRideFeedbackIntent(intent)).response }
}
