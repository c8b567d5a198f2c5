import ExtensionStorage
import Foundation
import IntentExtensionKit

/// Zippy's Intents extension: ride options, booking, status (pushed as it changes),
/// cancellation before pickup, and feedback.
@main
struct ZippyExtension: IntentExtension {
    static var manifestURL: URL? { Bundle.module.url(forResource: "Info", withExtension: "plist", subdirectory: "Manifest") }

    let rides: Rides

    /// Handles done, by idempotency key, in the app's own database.
    var journal: (any HandleJournal)? { rides.store.journal }

    init(context: ExtensionContext) async throws {
        guard let folder = Bundle.module.url(forResource: "Manifest", withExtension: nil) else {
            throw ManifestError("Zippy's Manifest folder is missing from its bundle")
        }
        rides = Rides(
            store: try RideStore(directory: context.sandboxDirectory), geography: try Geography(directory: folder),
            options: try RideOptions(vocabulary: folder.appendingPathComponent("AppIntentVocabulary.plist")))
        let rides = self.rides
        let updates = context.updates
        // Push every phase change, as the assistant's UI shows the car approaching; a rating
        // or a tip given afterwards is no news of the ride.
        Task {
            var published: [String: JSONValue] = [:]
            while true {
                for ride in (try? await rides.store.all()) ?? [] where published[ride.identifier] != ride.progress {
                    let progress = ride.progress
                    if published[ride.identifier] != nil || ride.isActive { updates.publish("ride", progress) }
                    published[ride.identifier] = progress
                }
                try? await Task.sleep(for: .milliseconds(Int(Fleet.secondsPerStep * 250)))
            }
        }
    }

    func stop() async { rides.store.close() }

    func handler(for intent: Intent) -> (any IntentHandler)? {
        switch intent.name {
        case "ListRideOptions": ListRideOptionsHandler(rides: rides)
        case "RequestRide": RequestRideHandler(rides: rides)
        case "GetRideStatus": GetRideStatusHandler(rides: rides)
        case "CancelRide": CancelRideHandler(rides: rides)
        case "SendRideFeedback": SendRideFeedbackHandler(rides: rides)
        default: nil
        }
    }
}

/// What every ride handler shares.
struct Rides: Sendable {
    let store: RideStore
    let geography: Geography
    let options: RideOptions

    /// A pickup defaults to the user's current location; a named place must be known.
    func resolvePickup(_ intent: Intent) -> ResolutionResult {
        guard let value = intent["pickupLocation"] else { return .success(geography.currentLocation.json) }
        return resolvePlace(value)
    }

    /// A drop-off must be a known place in the area Zippy drives in (`outsideArea`).
    func resolveDropOff(_ intent: Intent, required: Bool) -> ResolutionResult {
        guard let value = intent["dropOffLocation"] else { return required ? .needsValue : .notRequired }
        if let place = geography.place(value), !geography.covers(place) { return .unsupported(reason: "outsideArea") }
        return resolvePlace(value)
    }

    /// A known place; one spelled with a typo is asked about ("Did you mean Ferry Building?"),
    /// and one Zippy does not know is said so (`unknownPlace`).
    private func resolvePlace(_ value: JSONValue) -> ResolutionResult {
        if let place = geography.place(value) { return .success(place.json) }
        if let place = geography.misspelled(value) { return .confirmationRequired(place.json) }
        return .unsupported(reason: "unknownPlace")
    }
}
