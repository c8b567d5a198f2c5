import Foundation
import IntentProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The secret that opens the console: 32 random bytes as hex, kept in `STATE/console-token`
/// (mode 0600) so the address stays the same across restarts, and renewed when the console
/// cannot have its usual address. Every request and websocket must carry it; it is compared
/// in constant time.
public final class ConsoleToken: Sendable {
    private let file: URL
    private let current: Mutex<String>

    /// The token's text.
    public var value: String { current.withLock { $0 } }

    private init(file: URL, value: String) {
        self.file = file
        current = Mutex(value)
    }

    /// Reads the token from `file`, or makes one and writes it there (0600) if the file is
    /// missing or does not hold a token.
    public static func loadOrCreate(at file: URL) throws -> ConsoleToken {
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if isWellFormed(token) {
                chmod(file.path, 0o600)
                return ConsoleToken(file: file, value: token)
            }
        }
        let made = ConsoleToken(file: file, value: "")
        try made.renew()
        return made
    }

    /// Makes a new token, on disk (0600) before it is used: from then on the old one opens
    /// nothing.
    public func renew() throws {
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
        try DurableFile.write(Array((token + "\n").utf8), to: file)
        current.withLock { $0 = token }
    }

    /// Whether `candidate` is this token. Takes the same time whatever the first differing
    /// byte is; only the length (public: always 64) can end it early.
    public func matches(_ candidate: String?) -> Bool {
        guard let candidate else { return false }
        let a = Array(value.utf8), b = Array(candidate.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<a.count { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    private static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 64 && token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// Why the console cannot start.
public struct ConsoleError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, in words.
    public let description: String
    init(_ description: String) { self.description = description }
}
