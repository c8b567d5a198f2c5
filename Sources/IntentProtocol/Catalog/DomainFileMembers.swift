/// The members a domain file may have, object by object, so that one misspelled
/// (`requiresUserConfirmaton`, `requried`) is refused instead of silently changing nothing:
/// such a typo would turn off the user's confirmation or make a parameter optional. A
/// parameter's `type` and a code's `kind` are named among those there are, too.
/// `handleResponse`, `confirmResponse` and `responseTypes` are JSON Schemas, not checked here.
enum DomainFileMembers {
    static let domain: Set<String> = ["name", "description", "intents", "enums", "responseTypes"]
    static let intent: Set<String> = [
        "name", "description", "requiresUserConfirmation", "readOnly", "parameters", "responseCodes", "handleResponse", "confirmResponse",
    ]
    static let parameter: Set<String> = [
        "name", "type", "list", "required", "prompt", "values", "unsupportedReasons", "confirmationReasons", "freeText", "from",
        "answeredBy", "carriedFrom", "past", "range", "vocabulary",
    ]
    static let responseCode: Set<String> = ["name", "value", "kind"]
    static let shownValues: Set<String> = ["intent", "list", "field"]

    /// The first member of `file` (a domain file, read) that no domain file has, said with
    /// where it is and the nearest member there is; nil when every member is known.
    static func problem(in file: JSONValue) -> String? {
        if let problem = unknown(file, domain, in: "the domain") { return problem }
        for (name, codes) in (file["enums"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            for code in codes.arrayValue ?? [] {
                if let problem = unknown(code, responseCode, in: "a value of enum \(PeerNames.loggable(name))") { return problem }
            }
        }
        for intent in file["intents"]?.arrayValue ?? [] {
            let name = PeerNames.loggable(intent["name"]?.stringValue ?? "?")
            if let problem = unknown(intent, self.intent, in: "intent \(name)") { return problem }
            for code in intent["responseCodes"]?.arrayValue ?? [] {
                let place = "a response code of \(name)"
                if let problem = unknown(code, responseCode, in: place) { return problem }
                if let kind = code["kind"]?.stringValue, ResponseCode.Kind(rawValue: kind) == nil {
                    return unknown(value: kind, "kind", among: ResponseCode.Kind.allCases.map(\.rawValue), in: place)
                }
            }
            for parameter in intent["parameters"]?.arrayValue ?? [] {
                let place = "parameter \(name).\(PeerNames.loggable(parameter["name"]?.stringValue ?? "?"))"
                if let problem = unknown(parameter, self.parameter, in: place) { return problem }
                if let type = parameter["type"]?.stringValue, ParameterType(rawValue: type) == nil {
                    return unknown(value: type, "type", among: ParameterType.allCases.map(\.rawValue), in: place)
                }
                let reasons = (parameter["unsupportedReasons"]?.arrayValue ?? []) + (parameter["confirmationReasons"]?.arrayValue ?? [])
                for reason in reasons {
                    if let problem = unknown(reason, responseCode, in: "a reason of \(place)") { return problem }
                }
                let from = parameter["from"].map { $0.arrayValue ?? [$0] } ?? []
                for source in from {
                    if let problem = unknown(source, shownValues, in: "the from of \(place)") { return problem }
                }
            }
        }
        return nil
    }

    /// The first member of `value`, if it is an object, not in `known`.
    private static func unknown(_ value: JSONValue, _ known: Set<String>, in place: String) -> String? {
        guard let member = value.objectValue?.keys.sorted().first(where: { !known.contains($0) }) else { return nil }
        return "\(place) has the member \"\(PeerNames.loggable(member))\", which domain files do not have"
            + hint(member, known.sorted()) + "; it may have \(known.sorted().joined(separator: ", "))"
    }

    /// `value`, the `what` of `place`, which is none of `known`.
    private static func unknown(value: String, _ what: String, among known: [String], in place: String) -> String {
        "\(place) has the \(what) \"\(PeerNames.loggable(value))\"" + hint(value, known) + "; it may be \(known.joined(separator: ", "))"
    }

    /// " (did you mean …?)" with the one of `known` nearest `word`, if any is near.
    private static func hint(_ word: String, _ known: [String]) -> String {
        SpellingDistance.nearest(to: word, among: known).map { " (did you mean \"\($0)\"?)" } ?? ""
    }
}
