import CZeroMQ

/// A CURVE key pair, each key as 40 characters of Z85 text.
public struct CurveKeyPair: Sendable, Equatable {
    /// The public key, safe to share.
    public let publicKey: String
    /// The secret key; keep it private.
    public let secretKey: String

    /// Wraps existing keys.
    public init(publicKey: String, secretKey: String) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// The pair whose secret key is `secretKey`, its public key derived from it; `nil` if
    /// `secretKey` is not 40 characters of Z85.
    public init?(secretKey: String) {
        guard let publicKey = Self.publicKey(forSecretKey: secretKey) else { return nil }
        self.init(publicKey: publicKey, secretKey: secretKey)
    }

    /// Generates a new key pair; fails if libzmq was built without CURVE.
    public static func generate() throws(ZMQError) -> CurveKeyPair {
        var pub = [CChar](repeating: 0, count: 41)
        var sec = [CChar](repeating: 0, count: 41)
        _ = try retrying("zmq_curve_keypair") { Int(zmq_curve_keypair(&pub, &sec)) }
        return CurveKeyPair(publicKey: text(pub), secretKey: text(sec))
    }

    /// The public key that belongs to `secretKey`, or `nil` if it is not a Z85 key.
    public static func publicKey(forSecretKey secretKey: String) -> String? {
        guard isKey(secretKey) else { return nil }
        var pub = [CChar](repeating: 0, count: 41)
        guard zmq_curve_public(&pub, secretKey) == 0 else { return nil }
        return text(pub)
    }

    /// Whether `key` is a CURVE key in Z85 text: 40 characters that decode to 32 bytes.
    public static func isKey(_ key: String) -> Bool {
        decode(key) != nil
    }

    /// The 32 bytes of a Z85 key, or `nil` if `key` is not one.
    public static func decode(_ key: String) -> [UInt8]? {
        guard key.utf8.count == 40, key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        guard zmq_z85_decode(&bytes, key) != nil else { return nil }
        return bytes
    }

    /// The Z85 text of a 32-byte key, or `nil` if `bytes` is not 32 bytes long.
    public static func encode(_ bytes: [UInt8]) -> String? {
        guard bytes.count == 32 else { return nil }
        var chars = [CChar](repeating: 0, count: 41)
        guard zmq_z85_encode(&chars, bytes, 32) != nil else { return nil }
        return text(chars)
    }

    /// The fingerprint of a public key as `ssh-keygen -l` prints one: `SHA256:` and the
    /// unpadded base64 of the SHA-256 of the key's 32 bytes.
    public static func fingerprint(of publicKey: String) -> String {
        guard let bytes = decode(publicKey) else { return "SHA256:?" }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = SHA256(bytes, bytes.count, &digest)
        return "SHA256:" + base64(digest)
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let chunk = bytes[i..<min(i + 3, bytes.count)]
            let n = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for j in 0...chunk.count { out.append(alphabet[Int((n >> (18 - 6 * UInt32(j))) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func text(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
