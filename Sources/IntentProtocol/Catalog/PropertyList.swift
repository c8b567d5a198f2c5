import Foundation

/// A property list read as plain values, for the manifest and vocabulary readers.
///
/// Read with `PropertyListDecoder` rather than `PropertyListSerialization`: on Linux the
/// latter leaks an error object (some 640 bytes) for every file it refuses.
enum PropertyList: Decodable, Equatable {
    case string(String)
    case bool(Bool)
    case number(Double)
    case array([PropertyList])
    case dictionary([String: PropertyList])
    /// Data or a date, which no reader here uses.
    case other

    /// Parses XML or binary property-list data.
    static func read(_ data: Data) throws(PropertyListError) -> PropertyList {
        do { return try PropertyListDecoder().decode(PropertyList.self, from: data) } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context): throw PropertyListError(context.debugDescription)
            default: throw PropertyListError("\(error)")
            }
        } catch {
            throw PropertyListError("\(error)")
        }
    }

    /// The dictionary at the root of a manifest or vocabulary file; errors name `source`.
    static func root(of data: Data, source: String) throws(ManifestError) -> PropertyList {
        let root: PropertyList
        do { root = try read(data) } catch { throw ManifestError("\(source) is not a property list: \(error)") }
        guard root.dictionary != nil else { throw ManifestError("\(source) must hold a dictionary") }
        return root
    }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            var members: [String: PropertyList] = [:]
            for key in keyed.allKeys { members[key.stringValue] = try keyed.decode(PropertyList.self, forKey: key) }
            self = .dictionary(members)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [PropertyList] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(PropertyList.self)) }
            self = .array(elements)
        } else {
            let value = try decoder.singleValueContainer()
            if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let string = try? value.decode(String.self) {
                self = .string(string)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else {
                self = .other
            }
        }
    }

    /// The member named `key` of a dictionary.
    subscript(key: String) -> PropertyList? {
        if case .dictionary(let members) = self { members[key] } else { nil }
    }

    /// The text, if this is a string.
    var string: String? { if case .string(let s) = self { s } else { nil } }

    /// The value, if this is a boolean.
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }

    /// The members, if this is a dictionary.
    var dictionary: [String: PropertyList]? { if case .dictionary(let d) = self { d } else { nil } }

    /// The elements, if this is an array whose elements are all strings.
    var strings: [String]? {
        guard case .array(let elements) = self else { return nil }
        var strings: [String] = []
        for element in elements {
            guard let string = element.string else { return nil }
            strings.append(string)
        }
        return strings
    }

    /// The elements, if this is an array whose elements are all dictionaries.
    var dictionaries: [PropertyList]? {
        guard case .array(let elements) = self, elements.allSatisfy({ $0.dictionary != nil }) else { return nil }
        return elements
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// Data that is not a property list.
struct PropertyListError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
