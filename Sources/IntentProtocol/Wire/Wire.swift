import ZeroMQ

/// Constants of wire protocol version 1. `Protocols/wire.md` is the normative text.
public enum Wire {
    /// Frame 0 of every message: the protocol name and version.
    public static let signature = "intentd/1"
    /// The protocol version this build speaks.
    public static let version = 1
    /// The default limit on one message, all frames together.
    public static let maxMessageBytes = 1 << 20
    /// The limit on a name frame (app or intent name).
    public static let maxNameBytes = 256

    static let signatureBytes = Array(signature.utf8)

    /// Splits off and checks the signature and command frames.
    static func header(_ frames: ArraySlice<Message>) throws(ProtocolError) -> (Command, ArraySlice<Message>) {
        guard frames.count >= 2 else { throw .malformedFrames("expected at least 2 frames, got \(frames.count)") }
        let first = frames[frames.startIndex]
        let isSignature = first.withUnsafeBytes { $0.elementsEqual(signatureBytes) }
        guard isSignature else {
            throw .malformedFrames("frame 0 must be the signature \"\(signature)\"")
        }
        let commandFrame = frames[frames.startIndex + 1]
        guard commandFrame.count == 1, let command = Command(rawValue: commandFrame.withUnsafeBytes { $0[0] }) else {
            throw .malformedFrames("frame 1 is not a known command byte")
        }
        return (command, frames.dropFirst(2))
    }

    /// The signature and command frames that start a message.
    static func start(_ command: Command) -> [Message] {
        [Message(bytes: signatureBytes), Message(bytes: [command.rawValue])]
    }

    /// Checks the frame count after the command.
    static func expect(_ count: Int, _ frames: ArraySlice<Message>, _ command: Command) throws(ProtocolError) {
        guard frames.count == count else {
            throw .malformedFrames("\(command) takes \(count) frames after the command, got \(frames.count)")
        }
    }

    static func requestID(_ frame: Message) throws(ProtocolError) -> RequestID {
        guard let id = frame.withUnsafeBytes({ RequestID(bytes: $0) }) else {
            throw .malformedFrames("a request id is exactly 8 bytes")
        }
        return id
    }

    static func name(_ frame: Message, _ what: String) throws(ProtocolError) -> String {
        guard frame.count > 0, frame.count <= maxNameBytes, let name = frame.string else {
            throw .malformedFrames("\(what) must be 1 to \(maxNameBytes) bytes of UTF-8")
        }
        return name
    }

    static func stage(_ frame: Message) throws(ProtocolError) -> Stage {
        guard frame.count == 1, let stage = Stage(rawValue: frame.withUnsafeBytes { $0[0] }) else {
            throw .malformedFrames("a stage is one byte: 1 resolve, 2 confirm, 3 handle")
        }
        return stage
    }

    /// The total payload size of `frames`.
    public static func size(_ frames: ArraySlice<Message>) -> Int {
        frames.reduce(0) { $0 + $1.count }
    }

    /// The request id of a client message that failed to parse, if frame 2 holds one.
    public static func bestEffortRequestID(_ frames: ArraySlice<Message>) -> RequestID {
        let index = frames.startIndex + 2
        guard frames.indices.contains(index) else { return RequestID(0) }
        return frames[index].withUnsafeBytes { RequestID(bytes: $0) } ?? RequestID(0)
    }
}
