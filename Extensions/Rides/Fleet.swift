import Foundation
import IntentExtensionKit

/// The simulated fleet: a ride's phase follows from how long ago it was requested, so a
/// ride in progress continues where it was after any restart. SiriKit's phase numbers.
enum Fleet {
    /// Seconds per step of a ride (INTENTD_RIDE_SECONDS_PER_STEP, default 5).
    static let secondsPerStep: Double = ProcessInfo.processInfo.environment["INTENTD_RIDE_SECONDS_PER_STEP"].flatMap(Double.init) ?? 5

    enum Phase: String, Sendable, CaseIterable {
        case received, confirmed, approachingPickup, pickup, ongoing, completed

        var value: Int {
            switch self {
            case .received: 1
            case .confirmed: 2
            case .ongoing: 3
            case .completed: 4
            case .approachingPickup: 5
            case .pickup: 6
            }
        }

        /// The phase in words, for the ride's summary.
        var words: String {
            switch self {
            case .received: "requested"
            case .confirmed: "a driver is assigned"
            case .approachingPickup: "the driver is on the way to you"
            case .pickup: "the driver is at your pickup"
            case .ongoing: "on the way"
            case .completed: "arrived"
            }
        }

        /// Whether the rider has not been picked up yet (a ride may be cancelled then).
        var isBeforePickup: Bool { self == .received || self == .confirmed || self == .approachingPickup }
    }

    /// Steps: received 0, confirmed 1, approaching pickup 2-4, pickup 5, ongoing 6-7,
    /// completed from 8. Once a driver is assigned, the ETA counts down to the pickup.
    static func phase(requested: Date, now: Date = Date()) -> (Phase, etaSeconds: Double?) {
        let step = step(requested: requested, now: now)
        let eta = (Double(5 - step) * secondsPerStep * 10).rounded() / 10
        switch step {
        case ..<1: return (.received, nil)
        case 1: return (.confirmed, eta)
        case 2...4: return (.approachingPickup, eta)
        case 5: return (.pickup, nil)
        case 6...7: return (.ongoing, nil)
        default: return (.completed, nil)
        }
    }

    /// Steps since the ride was requested.
    static func step(requested: Date, now: Date = Date()) -> Int {
        max(0, Int(now.timeIntervalSince(requested) / secondsPerStep))
    }

    /// Where the car is at each step, as SiriKit's `INRideVehicle.location`: it sets out a
    /// few blocks north-west of the pickup, comes a quarter of the way closer at each step
    /// while approaching, waits at the pickup, and goes a third of the way to the drop-off
    /// at each step of the ride.
    static func vehicleLocation(requested: Date, pickup: Geography.Place, dropOff: Geography.Place, now: Date = Date())
        -> Geography.Place
    {
        let start = (latitude: pickup.latitude + 0.018, longitude: pickup.longitude - 0.022)
        func between(_ a: (latitude: Double, longitude: Double), _ b: Geography.Place, _ f: Double) -> Geography.Place {
            Geography.Place(
                name: "Car", latitude: a.latitude + (b.latitude - a.latitude) * f,
                longitude: a.longitude + (b.longitude - a.longitude) * f)
        }
        switch step(requested: requested, now: now) {
        case ..<2: return between(start, pickup, 0)
        case let s where s <= 4: return between(start, pickup, Double(s - 1) / 4)
        case 5: return between(start, pickup, 1)
        case let s where s <= 7: return between((pickup.latitude, pickup.longitude), dropOff, Double(s - 5) / 3)
        default: return between((pickup.latitude, pickup.longitude), dropOff, 1)
        }
    }
}
