/// Thrown while an extension starts when its own data is damaged (a store that fails its
/// integrity check): the extension says why and exits with status 74 instead of registering,
/// and the host shows it as `unhealthy` and does not restart it until `intentctl restart`.
public struct DamagedStore: Error, CustomStringConvertible {
    /// The exit status that tells the host "my data is damaged".
    public static let exitStatus: Int32 = 74

    /// What is damaged, and how.
    public let description: String

    /// Describes the damage.
    public init(_ description: String) { self.description = description }
}
