import Foundation
import IntentExtensionKit

/// ListRideOptions: Zippy's options with a price and pickup estimate, where it drives.
struct ListRideOptionsHandler: ListRideOptionsIntentHandling {
    let rides: Rides

    func resolvePickupLocation(for intent: ListRideOptionsIntent) async throws -> ResolutionResult {
        rides.resolvePickup(intent.intent)
    }

    func resolveDropOffLocation(for intent: ListRideOptionsIntent) async throws -> ResolutionResult {
        rides.resolveDropOff(intent.intent, required: false)
    }

    func handle(intent: ListRideOptionsIntent) async throws -> ListRideOptionsResponse {
        if let drop = rides.geography.place(intent.intent["dropOffLocation"]), !rides.geography.covers(drop) {
            return ListRideOptionsResponse(.failureRequiringAppLaunchNoServiceInArea)
        }
        let options: [JSONValue] = rides.options.options.map { option in
            ["name": .string(option.name), "identifier": .string(option.identifier),
             "estimatedPickupSeconds": .number(option.estimatedPickupSeconds), "priceRange": .string(option.priceRange)]
        }
        return ListRideOptionsResponse(.success, ["rideOptions": .array(options)])
    }
}

/// RequestRide: pickup defaults to here; the drop-off must be in the area; one ride at a
/// time. The catalog makes the host ask the user to confirm before handle.
struct RequestRideHandler: RequestRideIntentHandling {
    let rides: Rides

    func resolvePickupLocation(for intent: RequestRideIntent) async throws -> ResolutionResult {
        rides.resolvePickup(intent.intent)
    }

    func resolveDropOffLocation(for intent: RequestRideIntent) async throws -> ResolutionResult {
        rides.resolveDropOff(intent.intent, required: true)
    }

    func resolveRideOptionName(for intent: RequestRideIntent) async throws -> ResolutionResult {
        guard let name = intent.rideOptionName else { return .notRequired }
        if let option = rides.options.option(named: name) { return .success(.string(option.name)) }
        return .disambiguation(rides.options.options.map { .string($0.name) })
    }

    func resolvePartySize(for intent: RequestRideIntent) async throws -> ResolutionResult {
        guard let size = intent.intent.number("partySize") else { return .notRequired }
        if Self.fits(intent) { return .success(.number(size)) }
        return size > Double(Self.mostRiders) ? .unsupported(reason: "tooManyRiders") : .unsupported
    }

    /// The most people one ride takes (a Zippy Van's seats).
    static let mostRiders = 6

    /// Zippy picks up now and books nothing ahead: a pickup time later than the car can come
    /// ("in 10 minutes", "tomorrow at 9", a day without a time) is refused
    /// (`cannotBookAhead`) rather than dropped, and one gone by (`alreadyPast`), so the user
    /// is asked again ("now") or stops.
    func resolveScheduledPickupTime(for intent: RequestRideIntent) async throws -> ResolutionResult {
        guard let said = intent.scheduledPickupTime else { return .notRequired }
        guard let time = try? Date(said, strategy: .iso8601) else { return .unsupported(reason: "cannotBookAhead") }
        let minutes = time.timeIntervalSinceNow / 60
        if minutes < -5 { return .unsupported(reason: "alreadyPast") }
        return minutes <= 5 ? .success(.string(said)) : .unsupported(reason: "cannotBookAhead")
    }

    /// Whether the party size, if given, is one a car takes (1 to 6); a request may send any number.
    static func fits(_ intent: RequestRideIntent) -> Bool {
        intent.intent.number("partySize") == nil || (1...mostRiders).contains(intent.intent.integer("partySize") ?? 0)
    }

    /// Why the ride cannot be booked now, as a response code; nil if it can.
    func problem(_ intent: RequestRideIntent) async throws -> RequestRideResponseCode? {
        guard let drop = rides.geography.place(intent.intent["dropOffLocation"]) else { return .failure }
        if !rides.geography.covers(drop) { return .failureRequiringAppLaunchNoServiceInArea }
        if try await rides.store.active() != nil { return .failureRequiringAppLaunchPreviousRideNeedsCompletion }
        return nil
    }

    func confirm(intent: RequestRideIntent) async throws -> RequestRideResponse {
        if let problem = try await problem(intent) { return RequestRideResponse(problem) }
        let option = rides.options.chosen(intent.rideOptionName)
        return RequestRideResponse(.ready, [
            "rideOption": .string(option?.name ?? "Zippy"), "estimatedPickupSeconds": .number(option?.estimatedPickupSeconds ?? 120),
        ])
    }

    func handle(intent: RequestRideIntent) async throws -> RequestRideResponse {
        guard let drop = rides.geography.place(intent.intent["dropOffLocation"]), Self.fits(intent) else { return RequestRideResponse(.failure) }
        if !rides.geography.covers(drop) { return RequestRideResponse(.failureRequiringAppLaunchNoServiceInArea) }
        let ride = Ride(
            identifier: "ride-" + UUID().uuidString.prefix(8).lowercased(), requested: Date().timeIntervalSince1970,
            pickup: rides.geography.place(intent.intent["pickupLocation"]) ?? rides.geography.currentLocation, dropOff: drop,
            option: rides.options.chosen(intent.rideOptionName)?.name ?? "Zippy",
            partySize: intent.intent.integer("partySize") ?? 1, cancelled: false)
        // The check for a ride under way and the booking are one write: two requests at
        // once book one ride, and a retry of this handle gets the ride its first run booked.
        guard let booked = try await rides.store.createUnlessActive(ride) else {
            return RequestRideResponse(.failureRequiringAppLaunchPreviousRideNeedsCompletion)
        }
        return RequestRideResponse(.success, ["rideStatus": booked.status],
            userActivity: ["activityType": "RequestRide", "rideIdentifier": .string(booked.identifier)])
    }
}

/// GetRideStatus: the current ride, or the last one.
struct GetRideStatusHandler: GetRideStatusIntentHandling {
    let rides: Rides

    func handle(intent: GetRideStatusIntent) async throws -> GetRideStatusResponse {
        guard let ride = try await rides.store.all().last else {
            return GetRideStatusResponse(.failure, ["reason": "you have no ride booked"])
        }
        return GetRideStatusResponse(.success, ["rideStatus": ride.status])
    }
}

/// CancelRide: only before pickup. As in SiriKit, where the ride status supplies the ride,
/// a request that names none cancels the one ride under way, and asks which only when
/// there are several.
struct CancelRideHandler: CancelRideIntentHandling {
    let rides: Rides

    func resolveRideIdentifier(for intent: CancelRideIntent) async throws -> ResolutionResult {
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

    func confirm(intent: CancelRideIntent) async throws -> CancelRideResponse {
        guard let id = Self.rideIdentifier(intent) else {
            return CancelRideResponse(.failure, ["reason": "you have no ride under way"])
        }
        guard let ride = try await rides.store.ride(id), !ride.cancelled, ride.phase.0.isBeforePickup else {
            return CancelRideResponse(.failure, ["reason": "the ride can be cancelled only before pickup"])
        }
        return CancelRideResponse(.ready, ["cancellationFee": 0])
    }

    func handle(intent: CancelRideIntent) async throws -> CancelRideResponse {
        guard let id = Self.rideIdentifier(intent) else { return try await confirm(intent: intent) }
        // Checked and cancelled in one write: a retry of this handle gets its first run's answer.
        guard try await rides.store.cancelBeforePickup(id) else {
            let check = try await confirm(intent: intent)
            return check.code == .ready ? CancelRideResponse(.failure, ["reason": "the ride can be cancelled only before pickup"]) : check
        }
        return CancelRideResponse(.success, ["cancellationFee": 0])
    }

    /// The ride named: an identifier, or the option the user picked from several.
    static func rideIdentifier(_ intent: CancelRideIntent) -> String? {
        intent.rideIdentifier ?? intent.intent.parameters["rideIdentifier"]?.objectValue?["identifier"]?.stringValue
    }
}

/// SendRideFeedback: a rating from 1 to 5 and a tip, for a completed ride.
struct SendRideFeedbackHandler: SendRideFeedbackIntentHandling {
    let rides: Rides

    func resolveRideIdentifier(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult {
        if let id = intent.rideIdentifier {
            return try await rides.store.ride(id) == nil ? .unsupported : .success(.string(id))
        }
        // A user cannot know a ride's id: feedback is for the last ride completed; with
        // none, handle says so in words.
        guard let last = try await rides.store.all().last(where: { !$0.cancelled && $0.phase.0 == .completed }) else {
            return .notRequired
        }
        return .success(.string(last.identifier))
    }

    /// Feedback without a rating or a tip ("rate it") asks for the stars.
    func resolveRating(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult {
        guard let rating = intent.intent.number("rating") else { return intent.tip == nil ? .needsValue : .notRequired }
        return (1...5).contains(intent.intent.integer("rating") ?? 0) ? .success(.number(rating)) : .unsupported
    }

    /// A tip is money sent: one larger than the dearest ride costs is said back first
    /// (`largeTip`), and one over the most of `tips` is refused (`tipTooLarge`).
    func resolveTip(for intent: SendRideFeedbackIntent) async throws -> ResolutionResult {
        guard let tip = intent.tip else { return .notRequired }
        guard tip >= 0 else { return .unsupported }
        guard Self.tips.contains(tip) else { return .unsupported(reason: "tipTooLarge") }
        let dearest = rides.options.options.map(\.highestPrice).max() ?? 0
        return tip > dearest ? .confirmationRequired(.number(tip), reason: "largeTip") : .success(.number(tip))
    }

    /// The tips sent, in dollars.
    static let tips = 0.0...200.0

    func handle(intent: SendRideFeedbackIntent) async throws -> SendRideFeedbackResponse {
        guard let id = intent.rideIdentifier, let ride = try await rides.store.ride(id), !ride.cancelled,
            ride.phase.0 == .completed
        else { return SendRideFeedbackResponse(.failure, ["reason": "feedback is for completed rides"]) }
        guard intent.rating != nil || intent.tip != nil else { return SendRideFeedbackResponse(.failure, ["reason": "no rating or tip was given"]) }
        // A program may send handle alone: the tip's bounds hold there too.
        if let tip = intent.tip, !Self.tips.contains(tip) {
            return SendRideFeedbackResponse(.failure, ["reason": .string("a tip can be at most $\(Int(Self.tips.upperBound))")])
        }
        try await rides.store.feedback(id, rating: intent.rating, tip: intent.tip)
        // Which ride it went to, for the words: the last one completed, not always the last booked.
        let rated = try await rides.store.ride(id)
        return SendRideFeedbackResponse(.success, rated.map { ["rideStatus": $0.status] } ?? [:])
    }
}
