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

    /// Generates a new key pair; fails if libzmq was built without CURVE.
    public static func generate() throws(ZMQError) -> CurveKeyPair {
        var pub = [CChar](repeating: 0, count: 41)
        var sec = [CChar](repeating: 0, count: 41)
        _ = try retrying("zmq_curve_keypair") { Int(zmq_curve_keypair(&pub, &sec)) }
        return CurveKeyPair(publicKey: text(pub), secretKey: text(sec))
    }

    private static func text(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
