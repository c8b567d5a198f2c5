/// A parameter of an intent named as the catalog and the language file write it,
/// `Intent.parameter` (`ListRideOptions.dropOffLocation`), for the members that name one
/// of another intent (`carriedFrom`, `answeredBy`) and the patterns' `{_Intent.parameter}`.
public struct IntentParameterName: Hashable, Sendable, CustomStringConvertible {
    /// The intent's catalog name.
    public let intent: String
    /// The parameter's name.
    public let parameter: String

    /// Creates the name of `parameter` of `intent`.
    public init(intent: String, parameter: String) {
        self.intent = intent
        self.parameter = parameter
    }

    /// Reads `text`, `Intent.parameter`: nil unless it is two non-empty names joined by one dot.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        self.init(intent: String(parts[0]), parameter: String(parts[1]))
    }

    /// `Intent.parameter`.
    public var description: String { "\(intent).\(parameter)" }
}
