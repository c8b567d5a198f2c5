/// A place, as `location` parameters carry it: a name, coordinates, or both.
public struct Place: Sendable, Hashable, Codable {
    /// What the place is called, such as "Ferry Building".
    public var name: String?
    /// Degrees north.
    public var latitude: Double?
    /// Degrees east.
    public var longitude: Double?

    /// Creates a place.
    public init(name: String? = nil, latitude: Double? = nil, longitude: Double? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}
