import ExtensionStorage
import Foundation
import GRDB
import IntentExtensionKit

/// Zippy's rides, in SQLite in the extension's sandbox.
final class RideStore: Sendable {
    private let database: SandboxDatabase

    /// Completed handles, kept in this database with the writes they made.
    var journal: SandboxJournal { SandboxJournal(database) }

    /// Checkpoints and closes the database, on a clean stop.
    func close() { database.close() }

    init(directory: URL) throws {
        database = try SandboxDatabase.open("zippy.sqlite", in: directory) { db in
            try db.create(table: Ride.databaseTableName) { t in
                t.primaryKey("identifier", .text)
                t.column("requested", .double).notNull()
                t.column("pickup", .text).notNull()
                t.column("dropOff", .text).notNull()
                t.column("option", .text).notNull()
                t.column("partySize", .integer).notNull()
                t.column("cancelled", .boolean).notNull()
                t.column("rating", .integer)
                t.column("tip", .double)
            }
        }
    }

    /// Stores `ride` unless one is under way, in one write: nil when one is. Run again for
    /// the same handle (a retry), it returns what the first run did.
    func createUnlessActive(_ ride: Ride) async throws -> Ride? {
        try await database.journaledWrite { db -> Ride? in
            if try Ride.fetchAll(db).contains(where: \.isActive) { return nil }
            try ride.insert(db)
            return ride
        }
    }

    func ride(_ id: String) async throws -> Ride? { try await database.read { db in try Ride.fetchOne(db, key: id) } }

    func all() async throws -> [Ride] { try await database.read { db in try Ride.order(Column("requested")).fetchAll(db) } }

    /// The ride not yet completed or cancelled, if any.
    func active() async throws -> Ride? { try await all().last { $0.isActive } }

    /// Cancels ride `id` if it is not cancelled and not yet picked up, in one write; whether
    /// it did. Run again for the same handle, it returns what the first run did.
    func cancelBeforePickup(_ id: String) async throws -> Bool {
        try await database.journaledWrite { db -> Bool in
            guard let ride = try Ride.fetchOne(db, key: id), !ride.cancelled, ride.phase.0.isBeforePickup else { return false }
            try db.execute(sql: "UPDATE ride SET cancelled = 1 WHERE identifier = ?", arguments: [id])
            return true
        }
    }

    /// Sets the rating and the tip given; one not given keeps what the ride had.
    func feedback(_ id: String, rating: Int?, tip: Double?) async throws {
        try await database.journaledWrite { db in
            try db.execute(
                sql: "UPDATE ride SET rating = coalesce(?, rating), tip = coalesce(?, tip) WHERE identifier = ?", arguments: [rating, tip, id])
        }
    }
}

/// One ride, stored; its phase follows from when it was requested.
struct Ride: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "ride"
    var identifier: String
    var requested: Double
    var pickup: Geography.Place
    var dropOff: Geography.Place
    var option: String
    var partySize: Int
    var cancelled: Bool
    var rating: Int?
    var tip: Double?

    var phase: (Fleet.Phase, etaSeconds: Double?) { Fleet.phase(requested: Date(timeIntervalSince1970: requested)) }
    var isActive: Bool { !cancelled && phase.0 != .completed }

    /// "15 seconds", "about 2 minutes": a wait as a person says it.
    static func inWords(_ seconds: Double) -> String {
        let rounded = max(1, Int(seconds.rounded()))
        if rounded < 60 { return rounded == 1 ? "1 second" : "\(rounded) seconds" }
        let minutes = Int((Double(rounded) / 60).rounded())
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }

    /// The ride's status as responses and updates report it.
    var status: JSONValue {
        let (phase, eta) = self.phase
        var summary = "\(option) to \(dropOff.name): " + (cancelled ? "cancelled" : phase.words)
        if let eta, !cancelled { summary += ", about \(Self.inWords(eta)) away" }
        var status: [String: JSONValue] = [
            "rideIdentifier": .string(identifier), "phase": .string(cancelled ? "cancelled" : phase.rawValue),
            "phaseValue": .number(Double(cancelled ? 0 : phase.value)), "pickupLocation": pickup.json,
            "dropOffLocation": dropOff.json, "rideOption": .string(option), "partySize": .number(Double(partySize)),
            "summary": .string(summary),
        ]
        if let eta, !cancelled { status["estimatedPickupSeconds"] = .number(eta) }
        if !cancelled {
            status["vehicleLocation"] = Fleet.vehicleLocation(
                requested: Date(timeIntervalSince1970: requested), pickup: pickup, dropOff: dropOff
            ).json
        }
        if let rating { status["rating"] = .number(Double(rating)) }
        if let tip { status["tip"] = .number(tip) }
        return .object(status)
    }

    /// The ride's status but for the feedback given once it ended: what an update says.
    var progress: JSONValue {
        guard case .object(var status) = status else { return status }
        status["rating"] = nil
        status["tip"] = nil
        return .object(status)
    }
}
