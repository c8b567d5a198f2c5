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
                guard Self.isISO8601(start), Self.isISO8601(end), Self.instant(start) ?? .distantFuture < Self.instant(end) ?? .distantPast else {
                    throw ParameterError(parameter: name, "expects an ISO 8601 date, date and time, or range START/END with the start first, such as 2026-11-22T00:00:00Z/2026-11-29T00:00:00Z, got \"\(text)\"")
                }
                return value
            }
            guard Self.isISO8601(text) else {
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

    /// The instant of an ISO 8601 value `isISO8601` accepts (a date alone: its midnight, UTC).
    static func instant(_ text: String) -> Date? {
        if text.utf8.count == 10 { return try? Date(text, strategy: .iso8601.year().month().day()) }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// Whether `text` is an ISO 8601 date (`2026-11-22`) or a date and time with a zone
    /// (`2026-11-22T09:30:00Z`, `2026-11-22T09:30:00.250+01:00`), with every field in range.
    static func isISO8601(_ text: String) -> Bool {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for byte in b[from..<(from + count)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func at(_ i: Int, _ c: Character) -> Bool { i < b.count && b[i] == c.asciiValue }
        guard let year = number(0, 4), at(4, "-"), let month = number(5, 2), at(7, "-"), let day = number(8, 2),
            (1...12).contains(month)
        else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return false }
        if b.count == 10 { return true }
        guard at(10, "T"), let hour = number(11, 2), at(13, ":"), let minute = number(14, 2), at(16, ":"),
            let second = number(17, 2), hour < 24, minute < 60, second < 61
        else { return false }
        var i = 19
        if at(i, ".") {
            i += 1
            let start = i
            while i < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) { i += 1 }
            guard i > start else { return false }
        }
        if at(i, "Z") { return i + 1 == b.count }
        guard at(i, "+") || at(i, "-"), let zoneHour = number(i + 1, 2), at(i + 3, ":"), let zoneMinute = number(i + 4, 2),
            zoneHour < 24, zoneMinute < 60
        else { return false }
        return i + 6 == b.count
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
