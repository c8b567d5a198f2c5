import Foundation
import IntentExtensionKit

/// ListRideOptions: Zippy's options with a price and pickup estimate, where it drives.
struct ListRideOptionsHandler: IntentHandler {
    let rides: Rides

    var resolvers: [String: Resolver] {
        ["pickupLocation": .single { rides.resolvePickup($0) }, "dropOffLocation": .single { rides.resolveDropOff($0, required: false) }]
    }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        if let drop = rides.geography.place(intent["dropOffLocation"]), !rides.geography.covers(drop) {
            return IntentResponse(code: "failureRequiringAppLaunchNoServiceInArea")
        }
        let options: [JSONValue] = rides.options.options.enumerated().map { index, option in
            ["name": .string(option.name), "identifier": .string(option.identifier),
             "estimatedPickupSeconds": .number(Double(2 + index) * 60), "priceRange": .string("$\(12 + 6 * index)-\(16 + 8 * index)")]
        }
        return IntentResponse(code: "success", response: ["rideOptions": .array(options)])
    }
}

/// RequestRide: pickup defaults to here; the drop-off must be in the area; one ride at a
/// time. The catalog makes the host ask the user to confirm before handle.
struct RequestRideHandler: IntentHandler {
    let rides: Rides

    var resolvers: [String: Resolver] {
        [
            "pickupLocation": .single { rides.resolvePickup($0) },
            "dropOffLocation": .single { rides.resolveDropOff($0, required: true) },
            "rideOptionName": .single(resolveOption),
            "partySize": .single(resolvePartySize),
        ]
    }

    func resolveOption(_ intent: Intent) async throws -> ResolutionResult {
        guard let name = intent.string("rideOptionName") else { return .notRequired }
        if let option = rides.options.option(named: name) { return .success(.string(option.name)) }
        return .disambiguation(rides.options.options.map { .string($0.name) })
    }

    func resolvePartySize(_ intent: Intent) async throws -> ResolutionResult {
        guard let size = intent.number("partySize") else { return .notRequired }
        return (1...6).contains(Int(size)) ? .success(.number(size)) : .unsupported
    }

    /// Why the ride cannot be booked now, as a response code; nil if it can.
    func problem(_ intent: Intent) async throws -> String? {
        guard let drop = rides.geography.place(intent["dropOffLocation"]) else { return "failure" }
        if !rides.geography.covers(drop) { return "failureRequiringAppLaunchNoServiceInArea" }
        if try await rides.store.active() != nil { return "failureRequiringAppLaunchPreviousRideNeedsCompletion" }
        return nil
    }

    func confirm(_ intent: Intent) async throws -> IntentResponse {
        if let problem = try await problem(intent) { return IntentResponse(code: problem) }
        let option = intent.string("rideOptionName") ?? rides.options.options.first?.name ?? "Zippy"
        return IntentResponse(code: "ready", response: ["rideOption": .string(option), "estimatedPickupSeconds": 120])
    }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        if let problem = try await problem(intent) { return IntentResponse(code: problem) }
        guard let drop = rides.geography.place(intent["dropOffLocation"]) else { return IntentResponse(code: "failure") }
        let ride = Ride(
            identifier: "ride-" + UUID().uuidString.prefix(8).lowercased(), requested: Date().timeIntervalSince1970,
            pickup: rides.geography.place(intent["pickupLocation"]) ?? rides.geography.currentLocation, dropOff: drop,
            option: intent.string("rideOptionName") ?? rides.options.options.first?.name ?? "Zippy",
            partySize: Int(intent.number("partySize") ?? 1), cancelled: false)
        try await rides.store.create(ride)
        return IntentResponse(code: "success", response: ["rideStatus": ride.status],
            userActivity: ["activityType": "RequestRide", "rideIdentifier": .string(ride.identifier)])
    }
}

/// GetRideStatus: the current ride, or the last one.
struct GetRideStatusHandler: IntentHandler {
    let rides: Rides

    func handle(_ intent: Intent) async throws -> IntentResponse {
        guard let ride = try await rides.store.all().last else {
            return IntentResponse(code: "failure", response: ["reason": "you have no ride booked"])
        }
        return IntentResponse(code: "success", response: ["rideStatus": ride.status])
    }
}

/// CancelRide: only before pickup. As in SiriKit, where the ride status supplies the ride,
/// a request that names none cancels the one ride under way, and asks which only when
/// there are several.
struct CancelRideHandler: IntentHandler {
    let rides: Rides

    var resolvers: [String: Resolver] { ["rideIdentifier": .single(resolveRide)] }

    func resolveRide(_ intent: Intent) async throws -> ResolutionResult {
        if let id = Self.rideIdentifier(intent) {
            return try await rides.store.ride(id) == nil ? .unsupported : .success(.string(id))
        }
        let active = try await rides.store.all().filter(\.isActive)
        switch active.count {
        // Nothing to cancel: confirm says so in words.
        case 0: return .notRequired
        case 1: return .success(.string(active[0].identifier))
        default:
            return .disambiguation(active.suffix(ResolutionResult.maximumOptions).map { ride in
                .object(["title": .string("\(ride.option) to \(ride.dropOff.name)"), "identifier": .string(ride.identifier)])
            })
        }
    }

    func confirm(_ intent: Intent) async throws -> IntentResponse {
        guard let id = Self.rideIdentifier(intent) else {
            return IntentResponse(code: "failure", response: ["reason": "you have no ride under way"])
        }
        guard let ride = try await rides.store.ride(id), !ride.cancelled, ride.phase.0.isBeforePickup else {
            return IntentResponse(code: "failure", response: ["reason": "the ride can be cancelled only before pickup"])
        }
        return IntentResponse(code: "ready", response: ["cancellationFee": 0])
    }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        let check = try await confirm(intent)
        guard check.code == "ready", let id = Self.rideIdentifier(intent) else { return check }
        try await rides.store.cancel(id)
        return IntentResponse(code: "success", response: ["cancellationFee": 0])
    }

    /// The ride named: an identifier, or the option the user picked from several.
    static func rideIdentifier(_ intent: Intent) -> String? {
        intent.string("rideIdentifier") ?? intent.parameters["rideIdentifier"]?.objectValue?["identifier"]?.stringValue
    }
}

/// SendRideFeedback: a rating from 1 to 5 and a tip, for a completed ride.
struct SendRideFeedbackHandler: IntentHandler {
    let rides: Rides

    var resolvers: [String: Resolver] {
        ["rideIdentifier": .single(resolveRide), "rating": .single(resolveRating)]
    }

    func resolveRide(_ intent: Intent) async throws -> ResolutionResult {
        guard let id = intent.string("rideIdentifier") else { return .needsValue }
        return try await rides.store.ride(id) == nil ? .unsupported : .success(.string(id))
    }

    func resolveRating(_ intent: Intent) async throws -> ResolutionResult {
        guard let rating = intent.number("rating") else { return .notRequired }
        return (1...5).contains(Int(rating)) ? .success(.number(rating)) : .unsupported
    }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        guard let id = intent.string("rideIdentifier"), let ride = try await rides.store.ride(id), !ride.cancelled,
            ride.phase.0 == .completed
        else { return IntentResponse(code: "failure", response: ["reason": "feedback is for completed rides"]) }
        try await rides.store.feedback(id, rating: intent.number("rating").map(Int.init), tip: intent.number("tip"))
        return IntentResponse(code: "success")
    }
}
