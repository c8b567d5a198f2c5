import Foundation

extension ParameterDefinition {
    /// Converts a value given by a user or program into this parameter's type: strings
    /// become persons, numbers or booleans; a single value becomes a one-element list.
    /// Throws a message a person can act on when the value does not fit.
    public func coerce(_ value: JSONValue) throws(ParameterError) -> JSONValue {
        if isList {
            let elements = value.arrayValue ?? [value]
            var coerced: [JSONValue] = []
            for element in elements { coerced.append(try coerceElement(element)) }
            return .array(coerced)
        }
        if case .array(let elements) = value {
            guard elements.count == 1 else {
                throw ParameterError(parameter: name, "takes one value, got \(elements.count)")
            }
            return try coerceElement(elements[0])
        }
        return try coerceElement(value)
    }

    private func coerceElement(_ value: JSONValue) throws(ParameterError) -> JSONValue {
        switch (type, value) {
        case (.string, .string), (.boolean, .bool):
            return value
        case (.number, .number(let n)):
            guard n.isFinite else { throw ParameterError(parameter: name, "expects a finite number") }
            return value
        case (.dateTime, .string(let text)):
            if isRange, let slash = text.firstIndex(of: "/") {
                let start = String(text[..<slash]), end = String(text[text.index(after: slash)...])
                guard let from = DateTimeText.instant(start), let to = DateTimeText.instant(end), from < to else {
                    throw ParameterError(parameter: name, "expects an ISO 8601 date, date and time, or range START/END with the start first, such as 2026-11-22T00:00:00Z/2026-11-29T00:00:00Z, got \"\(text)\"")
                }
                return value
            }
            guard DateTimeText.isValid(text) else {
                throw ParameterError(parameter: name, "expects an ISO 8601 date or date and time, such as 2026-11-22T09:30:00Z, got \"\(text)\"")
            }
            return value
        case (.person, .string(let name)):
            return .object(["displayName": .string(name)])
        case (.person, .object(let object)) where object["displayName"]?.stringValue != nil:
            return value
        case (.location, .string(let name)):
            return .object(["name": .string(name)])
        case (.location, .object(let object)):
            let hasName = object["name"]?.stringValue != nil
            let hasPoint = object["latitude"]?.numberValue != nil && object["longitude"]?.numberValue != nil
            guard hasName || hasPoint else {
                throw ParameterError(parameter: name, "expects a place with a name, or a latitude and a longitude")
            }
            return value
        case (.integer, .number(let n)) where n.rounded() == n:
            return value
        case (.integer, .string(let text)):
            // "2.0" is 2, as the JSON number 2.0 is.
            let digits = text.trimmingCharacters(in: .whitespaces)
            let whole = digits.firstIndex(of: ".").map { dot in
                let fraction = digits[digits.index(after: dot)...]
                return !fraction.isEmpty && fraction.allSatisfy { $0 == "0" } ? digits[..<dot] : ""
            } ?? digits[...]
            guard let n = Int(whole) else {
                throw ParameterError(parameter: name, "expects a whole number, got \"\(text)\"")
            }
            return .number(Double(n))
        case (.number, .string(let text)):
            guard let n = Double(text.trimmingCharacters(in: .whitespaces)), n.isFinite else {
                throw ParameterError(parameter: name, "expects a number, got \"\(text)\"")
            }
            return .number(n)
        case (.boolean, .string(let text)):
            switch text.lowercased() {
            case "true", "yes", "1", "on": return .bool(true)
            case "false", "no", "0", "off": return .bool(false)
            default: throw ParameterError(parameter: name, "expects true or false, got \"\(text)\"")
            }
        case (.enum, .string(let text)):
            let allowed = values ?? []
            guard let match = allowed.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
                throw ParameterError(parameter: name, "expects one of \(allowed.joined(separator: ", ")), got \"\(text)\"")
            }
            return .string(match)
        default:
            throw ParameterError(parameter: name, "expects a \(type.rawValue), got \(JSON.pretty(value))")
        }
    }
}

extension IntentDefinition {
    /// Checks every given parameter against the catalog and converts it to its type.
    public func coerce(_ parameters: [String: JSONValue]) throws(ParameterError) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (key, value) in parameters {
            guard let definition = parameter(key) else {
                let known = self.parameters.map(\.name).joined(separator: ", ")
                throw ParameterError(parameter: key, "is not a parameter of \(name) (it takes \(known))")
            }
            if value == .null { continue }
            result[key] = try definition.coerce(value)
        }
        return result
    }
}

/// A parameter value that does not fit the catalog.
public struct ParameterError: Error, CustomStringConvertible, Sendable {
    /// The parameter's name.
    public let parameter: String
    /// What is wrong.
    public let problem: String

    init(parameter: String, _ problem: String) {
        self.parameter = parameter
        self.problem = problem
    }

    public var description: String { "\(parameter) \(problem)" }
}
