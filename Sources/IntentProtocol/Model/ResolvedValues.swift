/// How resolution results change an intent's parameter values for the stages after them
/// (wire.md, section 9 step 4). The host applies it between stages; an extension running
/// a batch applies it between its resolvers, so both see the same values.
public enum ResolvedValues {
    /// How many results a resolve must give for a parameter whose value is `given`: one
    /// per element for a list (one when it is absent), else one.
    public static func expectedCount(given: JSONValue?, list: Bool) -> Int {
        list ? max(1, given?.arrayValue?.count ?? 0) : 1
    }

    /// Puts `results` for `parameter` in place in `parameters`: `success` → its value;
    /// `notRequired` → the value (element) is removed; any other kind keeps the given value
    /// (element); an emptied list is removed. Returns a problem, and changes nothing, when
    /// the number of results does not fit.
    public static func apply(
        _ results: [ResolutionResult], to parameter: String, list: Bool, in parameters: inout [String: JSONValue]
    ) -> String? {
        let given = parameters[parameter]
        let expected = expectedCount(given: given, list: list)
        guard results.count == expected else { return "\(results.count) results for \(parameter); expected \(expected)" }
        if list {
            let values = given?.arrayValue ?? []
            var kept: [JSONValue] = []
            for (index, result) in results.enumerated() {
                switch result {
                case .success(let value): kept.append(value)
                case .notRequired: continue
                default: if index < values.count { kept.append(values[index]) }
                }
            }
            parameters[parameter] = kept.isEmpty ? nil : .array(kept)
        } else {
            switch results[0] {
            case .success(let value): parameters[parameter] = value
            case .notRequired: parameters[parameter] = nil
            default: break
            }
        }
        return nil
    }
}
