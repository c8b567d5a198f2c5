import IntentProtocol

/// Whether an extension's reply body is one the protocol allows for a stage of a catalog
/// intent (wire.md sections 10.5 to 10.7); `nil` means it is, else why not.
enum ReplyCheck {
    static let kinds: Set<String> = ["success", "disambiguation", "confirmationRequired", "needsValue", "notRequired", "unsupported"]

    /// A ResolveReply with `count` results of valid kinds whose values fit `parameter`.
    static func resolveProblem(_ body: [UInt8], parameter: ParameterDefinition, count: Int) -> String? {
        guard let reply = try? JSON.decode(JSONValue.self, from: body), reply.objectValue != nil else {
            return "the reply is not a JSON object: \(excerpt(body))"
        }
        if let error = reply["error"]?.stringValue { return "an ErrorReply: \(PeerNames.loggable(error))" }
        guard let results = reply["results"]?.arrayValue else { return "no results array: \(excerpt(body))" }
        guard results.count == count else { return "\(results.count) results for \(count) value(s)" }
        for result in results {
            if let problem = resultProblem(result, parameter: parameter) { return problem }
        }
        return nil
    }

    private static func resultProblem(_ result: JSONValue, parameter: ParameterDefinition) -> String? {
        guard let kind = result["kind"]?.stringValue, kinds.contains(kind) else {
            return "a result of no valid kind: \(excerpt(result))"
        }
        switch kind {
        case "success", "confirmationRequired":
            guard let value = result["value"] else { return "\(kind) without a value" }
            if kind == "confirmationRequired", let problem = reasonProblem(result["reason"], "confirmationRequired", parameter.confirmationReasons) {
                return problem
            }
            return valueProblem(value, parameter: parameter).map { "\(kind) value \($0)" }
        case "disambiguation":
            guard let options = result["options"]?.arrayValue else { return "disambiguation without options" }
            guard (2...ResolutionResult.maximumOptions).contains(options.count) else {
                return "disambiguation with \(options.count) options (2 to \(ResolutionResult.maximumOptions) allowed)"
            }
            for option in options {
                if let problem = valueProblem(option, parameter: parameter) { return "disambiguation option \(problem)" }
            }
        case "unsupported":
            return reasonProblem(result["reason"], "unsupported", parameter.unsupportedReasons)
        default:
            break
        }
        return nil
    }

    /// A result's optional `reason`, checked against the parameter's reasons for its kind.
    private static func reasonProblem(_ reason: JSONValue?, _ kind: String, _ reasons: [ResponseCode]?) -> String? {
        guard let reason, reason != .null else { return nil }
        let allowed = (reasons ?? []).map(\.name)
        guard let name = reason.stringValue, allowed.contains(name) else {
            return "\(kind) reason \(excerpt(reason)) is not one of the parameter's (\(allowed.joined(separator: ", ")))"
        }
        return nil
    }

    /// Whether `value` is one element of `parameter`'s type, in the host's coerced form.
    static func valueProblem(_ value: JSONValue, parameter: ParameterDefinition) -> String? {
        var single = parameter
        single.list = false
        guard let coerced = try? single.coerce(value), coerced == value || isCoercedObject(value, coerced) else {
            return "\(excerpt(value)) is not a \(parameter.type.rawValue)"
        }
        return nil
    }

    /// Objects (persons, places) pass coercion unchanged, extra members and all.
    private static func isCoercedObject(_ value: JSONValue, _ coerced: JSONValue) -> Bool {
        value.objectValue != nil && coerced.objectValue != nil
    }

    /// An IntentResponse whose code is one of `intent`'s response codes.
    static func responseProblem(_ body: [UInt8], intent: IntentDefinition) -> String? {
        guard let reply = try? JSON.decode(JSONValue.self, from: body), reply.objectValue != nil else {
            return "the reply is not a JSON object: \(excerpt(body))"
        }
        if let error = reply["error"]?.stringValue { return "an ErrorReply: \(PeerNames.loggable(error))" }
        guard let code = reply["code"]?.stringValue else { return "no code: \(excerpt(body))" }
        let codes = intent.responseCodes.map(\.name)
        guard codes.contains(code) else {
            return "code \(PeerNames.loggable(code)) is not one of \(intent.name)'s (\(codes.joined(separator: ", ")))"
        }
        if let response = reply["response"], response != .null, response.objectValue == nil { return "response is not an object" }
        return nil
    }

    /// A handle reply whose code is a success but whose response lacks a member the
    /// intent's `handleResponse` requires (`createdNote` of CreateNote): the assistant then
    /// cannot say what was done, nor take it for "add milk to it".
    static func successProblem(_ body: [UInt8], intent: IntentDefinition) -> String? {
        guard let reply = try? JSON.decode(JSONValue.self, from: body), let code = reply["code"]?.stringValue,
            intent.responseCode(code)?.kind == .success
        else { return nil }
        let required = intent.handleResponse?["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let response = reply["response"]?.objectValue ?? [:]
        let missing = required.filter { response[$0] == nil || response[$0] == .null }
        guard !missing.isEmpty else { return nil }
        return "\(code) without \(missing.joined(separator: ", ")), which \(intent.name)'s handleResponse requires of a success"
    }

    /// An ErrorReply: a JSON object with a string `error`.
    static func isErrorReply(_ body: [UInt8]) -> Bool {
        (try? JSON.decode(JSONValue.self, from: body))?["error"]?.stringValue != nil
    }

    /// Where two bodies first differ: a little of each from there.
    static func difference(_ first: [UInt8], _ second: [UInt8]) -> String {
        let shorter = min(first.count, second.count)
        let at = (0..<shorter).first { first[$0] != second[$0] } ?? shorter
        let from = max(0, at - 20)
        return "…\(excerpt(Array(first.dropFirst(from).prefix(60)))) then …\(excerpt(Array(second.dropFirst(from).prefix(60))))"
    }

    static func excerpt(_ body: [UInt8]) -> String { PeerNames.loggable(String(decoding: body.prefix(120), as: UTF8.self)) }
    static func excerpt(_ value: JSONValue) -> String { excerpt(value.serialized()) }
}
