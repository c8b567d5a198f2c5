import Foundation

/// The rules for every name a peer chooses for itself: bundle ids, app names, alternative
/// names and usage descriptions. Nothing a peer names becomes a file name, a map key, a log
/// line or text shown to the user without passing these.
public enum PeerNames {
    /// The longest bundle id accepted (Apple's limit for CFBundleIdentifier).
    public static let maximumBundleIdentifierLength = 155
    /// The longest app name or alternative name accepted.
    public static let maximumNameLength = 64
    /// The longest usage description accepted.
    public static let maximumUsageDescriptionLength = 500
    /// How much of a peer's string goes into one log line.
    public static let loggedLength = 80

    /// A name as names are compared: lower-case letters and digits only, so "List-o-Mat",
    /// "ListOMat" and "listomat" are one app, and "Café" is "café".
    public static func fold(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            var folded: [UInt8] = []
            folded.reserveCapacity(name.utf8.count)
            for byte in name.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): folded.append(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): folded.append(byte + 32)
                default: break
                }
            }
            return String(decoding: folded, as: UTF8.self)
        }
        var folded = String.UnicodeScalarView()
        for scalar in name.lowercased().unicodeScalars {
            let kept = scalar.isASCII
                ? (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || (scalar >= "A" && scalar <= "Z")
                : alphanumerics.contains(scalar)
            if kept { folded.append(scalar) }
        }
        return String(folded)
    }

    private static let alphanumerics = CharacterSet.alphanumerics

    /// Why `id` is not a reverse-DNS bundle id (letters, digits, `-` and `.`, at least two
    /// non-empty parts, none starting with `-`, at most 155 characters), or `nil` if it is one.
    public static func problem(withBundleIdentifier id: String) -> String? {
        if id.isEmpty { return "the bundle identifier is empty" }
        if id.utf8.count > maximumBundleIdentifierLength {
            return "the bundle identifier is longer than \(maximumBundleIdentifierLength) characters"
        }
        let allowed = id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): true
            default: false
            }
        }
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        guard allowed, parts.count >= 2, parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix("-") }) else {
            return "the bundle identifier \"\(loggable(id))\" is not reverse-DNS (such as com.example.app: letters, digits, - and . only)"
        }
        return nil
    }

    /// Whether `id` is a valid bundle id (see `problem(withBundleIdentifier:)`).
    public static func isBundleIdentifier(_ id: String) -> Bool {
        problem(withBundleIdentifier: id) == nil
    }

    /// Why `name` cannot be an app name or alternative name (`what` says which), or `nil`.
    public static func problem(withName name: String, what: String = "the app name") -> String? {
        if name.trimmingCharacters(in: .whitespaces).isEmpty { return "\(what) is empty" }
        if name.count > maximumNameLength { return "\(what) is longer than \(maximumNameLength) characters" }
        if hasControlCharacters(name) { return "\(what) \"\(loggable(name))\" contains control characters" }
        return nil
    }

    /// Why `text` cannot be a usage description, or `nil`.
    public static func problem(withUsageDescription text: String) -> String? {
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return "the usage description (NSSiriUsageDescription) is empty; say why the app wants the assistant"
        }
        if text.count > maximumUsageDescriptionLength {
            return "the usage description is longer than \(maximumUsageDescriptionLength) characters"
        }
        if hasControlCharacters(text) { return "the usage description contains control characters" }
        return nil
    }

    /// `text` made safe for one log line: control characters escaped, at most `loggedLength`
    /// characters (then `…`).
    public static func loggable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(loggedLength) {
            out += isControl(scalar) ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return text.unicodeScalars.count > loggedLength ? out + "…" : out
    }

    /// `text` safe to write to a terminal, lines kept: every control character but newline
    /// and tab, and every bidirectional override or isolate, becomes `\uXXXX` (so a peer's
    /// string cannot move the cursor, retitle the window, clear the screen or reorder what
    /// is shown). JSON already escapes control characters; the rest stays valid JSON.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnprintable) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isUnprintable(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: true
        default: false
        }
    }
}
