import Foundation
import IntentExtensionKit

/// Where Zippy drives: its coverage polygon (GeoJSON) and the places it knows by name.
struct Geography: Sendable {
    struct Place: Codable, Sendable, Equatable {
        var name: String
        var latitude: Double
        var longitude: Double
        /// Other names the place goes by ("SFO" for the airport).
        var aliases: [String]?

        var json: JSONValue { ["name": .string(name), "latitude": .number(latitude), "longitude": .number(longitude)] }
    }

    let currentLocation: Place
    let places: [Place]
    /// Rings of [longitude, latitude] pairs, as GeoJSON has them.
    let coverage: [[[Double]]]

    init(directory: URL) throws {
        struct Places: Decodable { var currentLocation: Place; var places: [Place] }
        let places = try JSONDecoder().decode(Places.self, from: Data(contentsOf: directory.appendingPathComponent("places.json")))
        currentLocation = places.currentLocation
        self.places = places.places
        let geo = try JSONValue.parse(Array(try Data(contentsOf: directory.appendingPathComponent("coverage.geojson"))))
        coverage = (geo["features"]?.arrayValue ?? []).compactMap { feature in
            feature["geometry"]?["coordinates"]?.arrayValue?.first?.arrayValue?.map { ($0.arrayValue ?? []).compactMap(\.numberValue) }
        }
    }

    /// The place a location value means: coordinates as given, else a known name.
    func place(_ value: JSONValue?) -> Place? {
        guard let value else { return nil }
        if let lat = value["latitude"]?.numberValue, let lon = value["longitude"]?.numberValue {
            return Place(name: value["name"]?.stringValue ?? "Dropped pin", latitude: lat, longitude: lon)
        }
        guard let name = value["name"]?.stringValue ?? value.stringValue else { return nil }
        let wanted = name.lowercased().trimmingCharacters(in: .whitespaces)
        if ["current location", "here", "my location"].contains(wanted) { return currentLocation }
        if let exact = places.first(where: { $0.name.lowercased() == wanted || $0.aliases?.contains { $0.lowercased() == wanted } == true }) {
            return exact
        }
        // Somewhere at a place Zippy knows ("the cafe at the ferry building"): driven to that
        // place, named as said ("cafe at Ferry Building").
        let said = name.trimmingCharacters(in: .whitespaces)
        if let at = said.range(of: " at ", options: [.backwards, .caseInsensitive]), at.lowerBound > said.startIndex {
            var known = String(said[at.upperBound...])
            if known.lowercased().hasPrefix("the ") { known.removeFirst(4) }
            if let place = place(.string(known)), place != currentLocation {
                return Place(name: "\(said[..<at.lowerBound]) at \(place.name)", latitude: place.latitude, longitude: place.longitude)
            }
        }
        // Said short ("union sq", "golden gate", "ferry"): each word the start of the name's
        // word in the same place, the first at least three letters, one place only.
        let words = wanted.split(separator: " ")
        guard let first = words.first, first.count >= 3 else { return nil }
        let matching = places.filter { place in
            let known = place.name.lowercased().split(separator: " ")
            return words.count <= known.count && zip(words, known).allSatisfy { $1.hasPrefix($0) }
        }
        return matching.count == 1 ? matching[0] : nil
    }

    /// The one place whose name `value` spells with a typo or two in its words ("golden
    /// gate prk", "ferry bulding"), each word as long as the name's; nil when none or
    /// several are that close.
    func misspelled(_ value: JSONValue) -> Place? {
        guard let name = value["name"]?.stringValue ?? value.stringValue, name.count <= 200 else { return nil }
        let words = name.lowercased().split(separator: " ").map(String.init)
        let close = places.filter { place in
            let known = place.name.lowercased().split(separator: " ").map(String.init)
            return words.count == known.count && zip(words, known).allSatisfy { said, word in
                said == word || SpellingDistance.between(said, word) <= SpellingDistance.allowed(inWordOf: word.count)
            }
        }
        return close.count == 1 ? close[0] : nil
    }

    /// Whether Zippy serves `place` (ray casting over the coverage polygons).
    func covers(_ place: Place) -> Bool {
        coverage.contains { ring in
            var inside = false
            var j = ring.count - 1
            for i in ring.indices where ring[i].count == 2 && ring[j].count == 2 {
                let (xi, yi, xj, yj) = (ring[i][0], ring[i][1], ring[j][0], ring[j][1])
                if (yi > place.latitude) != (yj > place.latitude),
                    place.longitude < (xj - xi) * (place.latitude - yi) / (yj - yi) + xi
                {
                    inside.toggle()
                }
                j = i
            }
            return inside
        }
    }
}

/// Zippy's ride options: the terms its AppIntentVocabulary.plist gives for
/// `RequestRide.rideOptionName`, read with the SDK's vocabulary reader, in the order of
/// their prices (each costs more and comes later than the one before).
struct RideOptions: Sendable {
    struct Option: Sendable {
        var identifier: String
        var name: String
        var synonyms: [String]
        /// The price, as the app says it ("$12-16"), and its top in dollars.
        var priceRange: String
        var highestPrice: Double
        /// How soon it can pick up.
        var estimatedPickupSeconds: Double
    }
    let options: [Option]

    init(vocabulary url: URL) throws {
        let items = try AppVocabulary(contentsOf: url).parameterVocabularies
            .filter { $0.parameterNames.contains("RequestRide.rideOptionName") }
            .flatMap(\.items)
        options = items.enumerated().compactMap { index, item in
            let phrases = item.synonyms.map(\.phrase)
            return phrases.first.map {
                Option(identifier: item.identifier, name: $0, synonyms: phrases,
                       priceRange: "$\(12 + 6 * index)-\(16 + 8 * index)", highestPrice: Double(16 + 8 * index),
                       estimatedPickupSeconds: Double(2 + index) * 60)
            }
        }
    }

    /// The option a spoken name means, by any synonym, ignoring case; "cheapest", "fastest"
    /// and "biggest" (and their like) mean the option that costs least, comes soonest, or
    /// costs most (the largest car).
    func option(named name: String) -> Option? {
        let said = name.lowercased()
        if Self.cheapest.contains(said) { return options.first }
        if Self.fastest.contains(said) { return options.min { $0.estimatedPickupSeconds < $1.estimatedPickupSeconds } }
        if Self.dearest.contains(said) { return options.last }
        return options.first { $0.synonyms.contains { $0.caseInsensitiveCompare(name) == .orderedSame } }
    }

    /// The option `name` means, if any; else the first (the cheapest), as with none said.
    func chosen(_ name: String?) -> Option? {
        name.flatMap(option(named:)) ?? options.first
    }

    static let cheapest: Set = ["cheapest", "least expensive"]
    static let fastest: Set = ["fastest", "quickest"]
    static let dearest: Set = ["most expensive", "priciest", "biggest", "largest"]
}
