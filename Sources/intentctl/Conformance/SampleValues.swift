import IntentProtocol

/// Values of each catalog type for the conformance kit's test requests: what a user could
/// have said, already in the form the host's coercion gives (wire.md section 15).
enum SampleValues {
    /// One value of `parameter`'s type; for a list parameter, a list of two.
    static func value(for parameter: ParameterDefinition) -> JSONValue {
        let one = element(for: parameter, index: 0)
        return parameter.isList ? .array([one, element(for: parameter, index: 1)]) : one
    }

    /// How many results a resolve of `parameter` with `value(for:)` must have.
    static func resultCount(for parameter: ParameterDefinition) -> Int { parameter.isList ? 2 : 1 }

    /// Every parameter of `intent` with a sample value.
    static func parameters(of intent: IntentDefinition) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: intent.parameters.map { ($0.name, value(for: $0)) })
    }

    private static func element(for parameter: ParameterDefinition, index: Int) -> JSONValue {
        switch parameter.type {
        case .string: .string(index == 0 ? "conformance check" : "second item")
        case .person: ["displayName": .string(index == 0 ? "Kiki" : "Bobo")]
        case .location: ["name": .string(index == 0 ? "Union Square" : "the airport")]
        case .integer: .number(Double(2 + index))
        case .number: .number(2.5 + Double(index))
        case .boolean: .bool(index == 0)
        // Where the parameter takes a range, one: an extension must read that form too.
        case .dateTime where parameter.isRange: .string("2030-01-13T00:00:00Z/2030-01-20T00:00:00Z")
        case .dateTime: .string(index == 0 ? "2030-01-15T09:30:00Z" : "2030-01-16")
        case .enum: .string(parameter.values?.first ?? "")
        }
    }
}
