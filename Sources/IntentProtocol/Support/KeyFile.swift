import Foundation
import ZeroMQ

/// A CURVE key pair kept in a file readable by its owner only (mode 0600, in a 0700
/// directory), as JSON: `{"publicKey": "…", "secretKey": "…"}`, both Z85.
public enum KeyFile {
    /// Reads the key pair in `url`.
    public static func load(_ url: URL) throws -> CurveKeyPair {
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: Data(contentsOf: url))
        } catch let error as DecodingError {
            throw KeyError("\(url.path) is not a key file: \(error)")
        } catch {
            throw KeyError("cannot read the key file \(url.path): \(describeFileError(error))")
        }
        guard let pair = CurveKeyPair(secretKey: stored.secretKey), pair.publicKey == stored.publicKey else {
            throw KeyError("\(url.path) does not hold a CURVE key pair")
        }
        return pair
    }

    /// Reads the key pair in `url`, first creating a new one there if there is none. Two
    /// processes creating the same file at once end up with the same pair, and neither
    /// reads it half written: it is written whole under another name and linked into place.
    public static func loadOrCreate(_ url: URL) throws -> CurveKeyPair {
        if FileManager.default.fileExists(atPath: url.path) { return try load(url) }
        try StateDirectory.create(url.deletingLastPathComponent())
        let pair = try CurveKeyPair.generate()
        let data = try JSONEncoder().encode(Stored(publicKey: pair.publicKey, secretKey: pair.secretKey))
        let temporary = url.path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw KeyError("cannot create the key file \(temporary): \(String(cString: strerror(errno)))") }
        defer { unlink(temporary) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        guard link(temporary, url.path) == 0 else {
            if errno == EEXIST { return try load(url) }
            throw KeyError("cannot create the key file \(url.path): \(String(cString: strerror(errno)))")
        }
        return pair
    }

    /// Writes a public key as one line of text (for `server.pub`), readable by others.
    public static func publish(_ publicKey: String, to url: URL) throws {
        let data = Data((publicKey + "\n").utf8)
        // Already there as it is (every start after the first): nothing to write, so a full
        // disk does not stop the host.
        if (try? Data(contentsOf: url)) == data { return }
        do { try data.write(to: url, options: .atomic) } catch {
            throw KeyError("cannot write \(url.path): \(describeFileError(error))")
        }
    }

    /// Reads a public key: 40 Z85 characters given as they are, or a file holding them
    /// (a published `.pub` file or a key file, whose public half is taken).
    public static func publicKey(_ keyOrFile: String) throws -> String {
        if CurveKeyPair.isKey(keyOrFile) { return keyOrFile }
        let url = URL(fileURLWithPath: keyOrFile)
        guard let data = try? Data(contentsOf: url) else {
            throw KeyError("\"\(PeerNames.loggable(keyOrFile))\" is neither a CURVE public key (40 Z85 characters) nor a readable file")
        }
        if let stored = try? JSONDecoder().decode(Stored.self, from: data), CurveKeyPair.isKey(stored.publicKey) {
            return stored.publicKey
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard CurveKeyPair.isKey(text) else { throw KeyError("\(url.path) does not hold a CURVE public key") }
        return text
    }

    private struct Stored: Codable {
        var publicKey: String
        var secretKey: String
    }
}

/// A key that is missing, unreadable or not a CURVE key.
public struct KeyError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
