import Foundation

/// A JSON value: the body of every wire message is UTF-8 JSON made of these.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { try container.encode(Int64(value)) }
            else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The number, if this is one.
    public var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    /// The boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    /// The member named `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// Converts any `Encodable` value to a `JSONValue`.
    public init(encoding value: some Encodable) throws {
        if let convertible = value as? any JSONConvertible {
            self = convertible.json
        } else {
            self = try JSON.decode(JSONValue.self, from: JSON.encode(value))
        }
    }

    /// Converts this value to a `Decodable` type.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        if let convertible = type as? any JSONConvertible.Type, let value = try convertible.init(json: self) as? T {
            return value
        }
        return try JSON.decode(type, from: serialized())
    }
}

/// The JSON coding used for every wire body: UTF-8, sorted keys, no escaped slashes.
public enum JSON {
    /// Encodes `value` as UTF-8 JSON bytes.
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        if let convertible = value as? any JSONConvertible { return convertible.serialized() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// Encodes `value` as indented JSON text, for people.
    public static func pretty(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Decodes `type` from UTF-8 JSON bytes, with an error that says what was wrong.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws -> T {
        // Every body goes through the strict parser (RFC 8259, at most 128 levels deep, no
        // member name twice in one object), whichever decoder then builds the value.
        let json = try (bytes as? [UInt8]).map { (array) throws(ProtocolError) in try JSONValue.parse(array) } ?? JSONValue.parse(bytes)
        if let convertible = type as? any JSONConvertible.Type {
            if let value = try convertible.init(json: json) as? T { return value }
        }
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            throw ProtocolError.malformedBody(describe(error))
        }
    }

    /// The bytes of a JSON file a person wrote, without the UTF-8 byte order mark some
    /// editors put first (RFC 8259 lets a reader ignore it).
    public static func fileText(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }

    /// `error` said as where it is and what the value must be ("intents[0].required must be
    /// true or false (found a string)"), in no words of the decoder's.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            guard !keys.isEmpty else { return "the body" }
            return keys.enumerated().map { index, key in
                key.intValue.map { "[\($0)]" } ?? (index == 0 ? key.stringValue : ".\(key.stringValue)")
            }.joined()
        }
        switch error {
        case .dataCorrupted(let c): return "\(path(c.codingPath)): \(c.debugDescription)"
        case .keyNotFound(let key, let c): return "\(path(c.codingPath + [key])) is missing"
        case .typeMismatch(let type, let c):
            let found = c.debugDescription.firstMatch(of: /found (?:an? )?(\w+)/).map { " (found \(kind(String($0.1))))" } ?? ""
            return "\(path(c.codingPath)) must be \(kind(of: type))\(found)"
        case .valueNotFound(let type, let c): return "\(path(c.codingPath)) must be \(kind(of: type)), not null"
        @unknown default: return "\(error)"
        }
    }

    /// A Swift type as the JSON value it is read from.
    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is Bool.Type: return "true or false"
        case is String.Type: return "a string"
        case is any BinaryInteger.Type: return "a whole number"
        case is any BinaryFloatingPoint.Type: return "a number"
        default: return "\(type)".hasPrefix("Array") ? "an array" : "an object"
        }
    }

    /// The decoder's name for what it found, as JSON calls it.
    private static func kind(_ found: String) -> String {
        switch found {
        case "string": "a string"
        case "number": "a number"
        case "bool": "true or false"
        case "array": "an array"
        case "dictionary": "an object"
        default: found
        }
    }
}
