import ZeroMQ

/// Constants of wire protocol version 1. `Protocols/wire.md` is the normative text.
///
/// Every message starts with one header frame: the signature `intentd/1`, one command
/// byte, then (for commands that carry them) an 8-byte big-endian request id and one
/// flag byte (the stage, or the lock state). Names and the JSON body follow as frames.
public enum Wire {
    /// The start of every header frame: the protocol name and version.
    public static let signature = "intentd/1"
    /// The protocol version this build speaks.
    public static let version = 1
    /// The default limit on one message, all frames together.
    public static let maxMessageBytes = 1 << 20
    /// The limit on a name frame (app or intent name).
    public static let maxNameBytes = 256

    static let signatureBytes = Array(signature.utf8)
    static let signatureCount = 9

    /// Whether a command's header carries a request id.
    static func hasID(_ command: Command) -> Bool {
        switch command {
        case .register, .registered, .rejected, .heartbeat, .disconnect, .update, .vocabulary: false
        default: true
        }
    }

    /// Whether a command's header carries a flag byte (stage or lock state).
    static func hasFlag(_ command: Command) -> Bool {
        command == .request || command == .stage || command == .lock
    }

    /// The header frame's length for a command.
    static func headerCount(_ command: Command) -> Int {
        signatureCount + 1 + (hasID(command) ? 8 : 0) + (hasFlag(command) ? 1 : 0)
    }

    /// A parsed header frame.
    struct Header {
        let command: Command
        let id: RequestID
        let flag: UInt8
    }

    /// Parses the header frame and returns it with the frames that follow.
    static func header(_ frames: ArraySlice<Message>) throws(ProtocolError) -> (Header, ArraySlice<Message>) {
        guard let first = frames.first else { throw .malformedFrames("no frames") }
        let header = try first.withUnsafeBytes { (raw) throws(ProtocolError) -> Header in
            guard raw.count > signatureCount, raw.prefix(signatureCount).elementsEqual(signatureBytes) else {
                throw .malformedFrames("frame 0 must start with the signature \"\(signature)\"")
            }
            guard let command = Command(rawValue: raw[signatureCount]) else {
                throw .malformedFrames("byte 9 of frame 0 is not a known command")
            }
            guard raw.count == headerCount(command) else {
                throw .malformedFrames("the \(command) header is \(headerCount(command)) bytes, not \(raw.count)")
            }
            let id = hasID(command) ? RequestID(bytes: UnsafeRawBufferPointer(rebasing: raw[10..<18])) : nil
            return Header(command: command, id: id ?? RequestID(0), flag: hasFlag(command) ? raw[raw.count - 1] : 0)
        }
        return (header, frames.dropFirst())
    }

    /// Calls `body` with the header frame's bytes, built on the stack.
    static func withHeader<R>(_ command: Command, id: RequestID = RequestID(0), flag: UInt8 = 0, _ body: (UnsafeRawBufferPointer) throws(ZMQError) -> R) throws(ZMQError) -> R {
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return try withUnsafeMutableBytes(of: &buffer) { (raw) throws(ZMQError) -> R in
            for (i, byte) in signatureBytes.enumerated() { raw[i] = byte }
            raw[signatureCount] = command.rawValue
            if hasID(command) { id.write(into: raw, at: 10) }
            let count = headerCount(command)
            if hasFlag(command) { raw[count - 1] = flag }
            return try body(UnsafeRawBufferPointer(rebasing: raw[..<count]))
        }
    }

    /// The header frame as a message.
    static func start(_ command: Command, id: RequestID = RequestID(0), flag: UInt8 = 0) -> Message {
        // Building on the stack cannot fail; the closure throws nothing.
        (try? withHeader(command, id: id, flag: flag) { Message($0) }) ?? Message()
    }

    /// Checks the frame count after the header.
    static func expect(_ count: Int, _ frames: ArraySlice<Message>, _ command: Command) throws(ProtocolError) {
        guard frames.count == count else {
            throw .malformedFrames("\(command) takes \(count) frames after the header, got \(frames.count)")
        }
    }

    static func name(_ frame: Message, _ what: String) throws(ProtocolError) -> String {
        guard frame.count > 0, frame.count <= maxNameBytes, let name = frame.string else {
            throw .malformedFrames("\(what) must be 1 to \(maxNameBytes) bytes of UTF-8")
        }
        return name
    }

    static func stage(_ flag: UInt8) throws(ProtocolError) -> Stage {
        guard let stage = Stage(rawValue: flag) else {
            throw .malformedFrames("the stage byte must be 1 resolve, 2 confirm or 3 handle")
        }
        return stage
    }

    /// The total payload size of `frames`.
    public static func size(_ frames: ArraySlice<Message>) -> Int {
        frames.reduce(0) { $0 + $1.count }
    }

    /// The request id of a client message that failed to parse, if its header holds one.
    public static func bestEffortRequestID(_ frames: ArraySlice<Message>) -> RequestID {
        guard let first = frames.first else { return RequestID(0) }
        return first.withUnsafeBytes { raw in
            guard raw.count >= 18, raw.prefix(signatureCount).elementsEqual(signatureBytes) else { return RequestID(0) }
            return RequestID(bytes: UnsafeRawBufferPointer(rebasing: raw[10..<18])) ?? RequestID(0)
        }
    }
}
