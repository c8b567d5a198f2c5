/// Why a message could not be understood.
public enum ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The frames are not a message of this protocol.
    case malformedFrames(String)
    /// The JSON body does not have the expected shape.
    case malformedBody(String)
    /// The message is larger than the limit.
    case tooLarge(Int, limit: Int)

    public var description: String {
        switch self {
        case .malformedFrames(let why): "malformed message: \(why)"
        case .malformedBody(let why): "malformed body: \(why)"
        case .tooLarge(let size, let limit): "message of \(size) bytes is over the limit of \(limit) bytes"
        }
    }

    /// What is wrong with a JSON file read as a body (a domain or config file), said
    /// without the wire's words: a file is no message body.
    public var inFile: String {
        if case .malformedBody(let why) = self { why } else { description }
    }

    /// The wire error code for this problem.
    public var code: ErrorCode {
        switch self {
        case .malformedFrames, .malformedBody: .malformed
        case .tooLarge: .tooLarge
        }
    }
}
