/// A person, as a recipient or sender: the value type of `person` parameters.
public struct Person: Sendable, Hashable, Codable {
    /// The name as the user said it or as the app knows it.
    public var displayName: String
    /// The app's own identifier, once resolved.
    public var identifier: String?
    /// A handle such as a screen name or an address.
    public var handle: String?

    /// Creates a person.
    public init(displayName: String, identifier: String? = nil, handle: String? = nil) {
        self.displayName = displayName
        self.identifier = identifier
        self.handle = handle
    }
}
