import IntentProtocol

/// A conversation as it went: what the user said and each turn the host answered.
struct Transcript {
    /// One line of it.
    struct Line: Encodable {
        /// "user" or "host".
        var speaker: String
        var text: String
        var app: String?
        var expecting: Turn.Expectation?
        var options: [String]?
        var end: EndReason?

        init(speaker: String, text: String) {
            self.speaker = speaker
            self.text = text
        }

        /// The host's turn.
        init(_ turn: Turn) {
            self.init(speaker: "host", text: turn.text)
            app = turn.app
            expecting = turn.expecting
            options = turn.options
            end = turn.end
        }

        /// As a person reads it: "> " and what the user said, or the app's name, the
        /// host's words and any numbered options.
        var shown: String {
            guard speaker == "host" else { return "> \(text)" }
            var shown = "\(app ?? "intentd"): \(text)"
            if expecting == .choice, let options, !text.contains("1. ") {
                for (index, option) in options.enumerated() { shown += "\n  \(index + 1). \(option)" }
            }
            return shown
        }
    }

    private(set) var lines: [Line] = []
    private(set) var last: Turn?

    mutating func user(_ text: String) {
        lines.append(Line(speaker: "user", text: text))
    }

    mutating func host(_ turn: Turn) {
        lines.append(Line(turn))
        last = turn
    }

    /// How the conversation stands, in `send`'s terms: the outcome of the intent if it
    /// reached an app, else one made from the last turn.
    var outcome: Outcome {
        if let outcome = last?.outcome, last?.end != .cancelled { return outcome }
        let turn = last
        let kind: Outcome.Kind
        let code: String
        switch turn?.end {
        case .completed?: (kind, code) = (.success, "completed")
        case .cancelled?: (kind, code) = (.failure, "cancelled")
        case .timedOut?: (kind, code) = (.failure, "timedOut")
        case .failed?: (kind, code) = (turn?.outcome?.outcome ?? .failure, turn?.outcome?.code ?? "failed")
        case nil: (kind, code) = (.needsUserInput, turn?.expecting?.rawValue ?? "value")
        }
        return Outcome(
            outcome: kind, code: code, app: turn?.app ?? "", intent: turn?.intent ?? "", sessionId: turn?.sessionId ?? "",
            resolutions: turn?.outcome?.resolutions ?? [], response: turn?.outcome?.response, message: turn?.text ?? "")
    }

    /// `send --json`'s object plus `end` and `transcript`.
    var json: JSONValue {
        var object = (try? JSONValue(encoding: outcome))?.objectValue ?? [:]
        object["end"] = last?.end.map { .string($0.rawValue) } ?? .null
        object["transcript"] = (try? JSONValue(encoding: lines)) ?? .array([])
        return .object(object)
    }

    /// Every line as a person reads it.
    var text: String { lines.map(\.shown).joined(separator: "\n") }
}
