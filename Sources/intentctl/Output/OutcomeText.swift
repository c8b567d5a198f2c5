import IntentProtocol

/// An outcome as a person reads it.
struct OutcomeText: CustomStringConvertible {
    let outcome: Outcome

    init(_ outcome: Outcome) { self.outcome = outcome }

    var description: String {
        var lines: [String] = []
        let head = "\(outcome.app) · \(outcome.intent)"
        switch outcome.outcome {
        case .success: lines.append("\(head): done (\(outcome.code))")
        case .needsUserInput: lines.append("\(head): needs your input (\(outcome.code))")
        case .refused: lines.append("\(head): refused (\(outcome.code)): \(outcome.message)")
        case .failure where outcome.code == ErrorCode.outcomeUnknown.rawValue:
            lines.append("\(head): OUTCOME UNKNOWN: it may or may not have been done")
            lines.append("  \(outcome.message)")
            if let key = outcome.idempotencyKey {
                lines.append("  it is done at most once, whenever it is sent again with --idempotency-key \(key)")
            }
        case .failure: lines.append("\(head): failed (\(outcome.code)): \(outcome.message)")
        }
        for resolution in outcome.resolutions {
            for result in resolution.results where result != .notRequired {
                lines.append("  \(resolution.parameter): \(Self.describe(result))")
            }
        }
        if outcome.outcome == .needsUserInput {
            lines.append("  \(outcome.message)")
            lines.append(outcome.code == "userConfirmationRequired"
                ? "  send it again with --confirm to have it done"
                : "  send it again with the value (name=value, or name:=JSON)")
        }
        if let response = outcome.response, !response.response.isEmpty {
            lines.append("  response: \(JSON.pretty(JSONValue.object(response.response)))")
        }
        return lines.joined(separator: "\n")
    }

    static func describe(_ result: ResolutionResult) -> String {
        switch result {
        case .success(let value): "\(value.displayText)"
        case .disambiguation(let options):
            "which one? " + options.enumerated().map { "\($0.offset + 1)) \($0.element.displayText)" }.joined(separator: "  ")
        case .confirmationRequired(let value, "listShouldBeCreated"): "no such list yet: create \(value.displayText)?"
        case .confirmationRequired(let value, _): "did you mean \(value.displayText)?"
        case .needsValue: "needs a value"
        case .notRequired: "not needed"
        case .unsupported(let reason): "not possible" + (reason.map { " (\($0))" } ?? "")
        }
    }
}

extension JSONValue {
    /// A short rendering for people: a person's name, text as is, anything else as JSON.
    var displayText: String {
        if let name = self["displayName"]?.stringValue { return name }
        if let name = self["name"]?.stringValue { return name }
        if let text = stringValue { return "\"\(text)\"" }
        return JSON.pretty(self)
    }
}
