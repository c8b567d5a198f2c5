import Foundation
import Logging

/// One line in the project's log format (see `LineLogHandler`), read back: what tests and
/// `intentctl logs --trace` look at instead of searching text.
public struct LogLine: Sendable, Equatable {
    /// The time as written (ISO 8601).
    public var time: String
    /// Who wrote it, such as `intentd` or `MonkeyChat`.
    public var label: String
    /// The level's name, such as `info`.
    public var level: String
    /// The metadata, values without their quotes (still escaped as written).
    public var metadata: [String: String]
    /// The message, as written (escaped).
    public var message: String

    /// Reads `text` (one line without its newline); nil if it is not in the format.
    public init?(_ text: Substring) {
        var rest = text
        guard let time = Self.word(&rest), let label = Self.word(&rest) else { return nil }
        var level = ""
        while let c = rest.first, c != " ", c != ":" {
            level.append(c)
            rest.removeFirst()
        }
        guard Logger.Level(rawValue: level) != nil else { return nil }
        var metadata: [String: String] = [:]
        if rest.hasPrefix(" [") {
            rest.removeFirst(2)
            while let c = rest.first, c != "]" {
                if c == " " {
                    rest.removeFirst()
                    continue
                }
                guard let equals = rest.firstIndex(of: "=") else { return nil }
                let key = String(rest[..<equals])
                rest = rest[rest.index(after: equals)...]
                guard let value = Self.value(&rest) else { return nil }
                metadata[key] = value
            }
            guard rest.first == "]" else { return nil }
            rest.removeFirst()
        }
        guard rest.hasPrefix(": ") else { return nil }
        self.time = String(time)
        self.label = String(label)
        self.level = level
        self.metadata = metadata
        message = String(rest.dropFirst(2))
    }

    /// Every line of `text` in the format, in order; other lines are skipped.
    public static func all(in text: String) -> [LogLine] {
        text.split(separator: "\n").compactMap { LogLine($0) }
    }

    /// A line for these parts, ending with a newline.
    public static func format(time: Date, label: String, level: Logger.Level, metadata: Logger.Metadata, message: String) -> String {
        var line = time.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
        line += " \(escape(label)) \(level.rawValue)"
        if !metadata.isEmpty {
            line += " ["
            var first = true
            for key in metadata.keys.sorted() {
                guard let value = metadata[key] else { continue }
                if !first { line += " " }
                first = false
                line += "\(escape(key).filter { $0 != " " && $0 != "=" && $0 != "]" })=\(quoted(escape("\(value)")))"
            }
            line += "]"
        }
        line += ": \(escape(message))\n"
        return line
    }

    /// `text` with control characters (and format, separator, private-use ones) as `\u{N}`
    /// and backslashes doubled: one line, however hostile the text.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || needsEscape($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                out += "\\\\"
            } else if needsEscape(scalar) {
                out += scalar.escaped(asASCII: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x20 || scalar.value == 0x7F { return true }
        if scalar.isASCII { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
        default: return false
        }
    }

    /// A value as written: bare, or in quotes (with `\"`) when it holds a space, `=`, `]` or `"`.
    private static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "=" || $0 == "]" || $0 == "\"" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private static func word(_ rest: inout Substring) -> Substring? {
        guard let space = rest.firstIndex(of: " ") else { return nil }
        let word = rest[..<space]
        rest = rest[rest.index(after: space)...]
        return word.isEmpty ? nil : word
    }

    /// Reads one metadata value (bare or quoted) from the front of `rest`.
    private static func value(_ rest: inout Substring) -> String? {
        guard rest.first == "\"" else {
            let end = rest.firstIndex { $0 == " " || $0 == "]" } ?? rest.endIndex
            defer { rest = rest[end...] }
            return String(rest[..<end])
        }
        rest.removeFirst()
        var out = ""
        while let c = rest.first {
            rest.removeFirst()
            if c == "\"" { return out }
            if c == "\\", let next = rest.first {
                // A pair: `\"` is a quote inside the value; any other keeps both characters.
                if next != "\"" { out.append(c) }
                out.append(next)
                rest.removeFirst()
            } else {
                out.append(c)
            }
        }
        return nil
    }
}
