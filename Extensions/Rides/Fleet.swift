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

        /// Whether the rider has not been picked up yet (a ride may be cancelled then).
        var isBeforePickup: Bool { self == .received || self == .confirmed || self == .approachingPickup }
    }

    /// Steps: received 0, confirmed 1, approaching pickup 2-4 (the ETA counts down),
    /// pickup 5, ongoing 6-7, completed from 8.
    static func phase(requested: Date, now: Date = Date()) -> (Phase, etaSeconds: Double?) {
        let step = Int(now.timeIntervalSince(requested) / secondsPerStep)
        switch step {
        case ..<1: return (.received, nil)
        case 1: return (.confirmed, nil)
        case 2...4: return (.approachingPickup, (Double(5 - step) * secondsPerStep * 10).rounded() / 10)
        case 5: return (.pickup, nil)
        case 6...7: return (.ongoing, nil)
        default: return (.completed, nil)
        }
    }
}
