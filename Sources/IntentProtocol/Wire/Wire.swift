import ZeroMQ

/// Constants and the one frame layout of wire protocol version 2. `Protocols/wire.md` is
/// the normative text.
///
/// Every message is one ZeroMQ frame: the signature `intentd/2`, one command byte, then
/// (for commands that carry them) an 8-byte big-endian request id and one flag byte (the
/// stage, or the lock state), then the command's names, each one length byte and that
/// many bytes of UTF-8, then the rest of the frame: a JSON body or a text.
public enum Wire {
    /// The start of every message: the protocol name and version.
    public static let signature = "intentd/2"
    /// The version this build speaks.
    public static let version = 2
    /// The default limit on one message.
    public static let maxMessageBytes = 1 << 20
    /// The limit on a name (app, intent, topic or code).
    public static let maxNameBytes = 255

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

    /// The header's length for a command: signature, command, id and flag.
    static func headerCount(_ command: Command) -> Int {
        signatureCount + 1 + (hasID(command) ? 8 : 0) + (hasFlag(command) ? 1 : 0)
    }

    /// How many names follow a command's header.
    static func nameCount(_ command: Command) -> Int {
        switch command {
        case .submit, .stage: 2
        case .vocab, .authorize, .restart, .request, .update, .rejected, .error: 1
        default: 0
        }
    }

    /// What a command's name number `i` is, for errors.
    static func nameRole(_ command: Command, _ i: Int) -> String {
        switch command {
        case .submit, .stage: i == 0 ? "the app name" : "the intent name"
        case .vocab, .authorize, .restart: "the app name"
        case .request: "the intent name"
        case .update: "the topic"
        default: "the code"
        }
    }

    /// Whether a command may carry bytes after its names (a body or a text).
    static func hasRest(_ command: Command) -> Bool {
        command != .heartbeat && command != .status && command != .lock && command != .restart
    }

    /// A parsed message: its header, up to two names, and the rest.
    struct Parsed {
        let command: Command
        let id: RequestID
        let flag: UInt8
        let first: String
        let second: String
        let rest: Body
    }

    /// Parses the one frame of a message (after any routing id).
    static func parse(_ frames: ArraySlice<Message>) throws(ProtocolError) -> Parsed {
        guard let frame = frames.first else { throw .malformedFrames("no frames") }
        guard frames.count == 1 else { throw .malformedFrames("a message is one frame, not \(frames.count)") }
        return try frame.withUnsafeBytes { (raw) throws(ProtocolError) -> Parsed in
            guard raw.count > signatureCount, startsWithSignature(raw) else {
                throw .malformedFrames("a message must start with the signature \"\(signature)\"")
            }
            guard let command = Command(rawValue: raw[signatureCount]) else {
                throw .malformedFrames("byte 9 is not a known command")
            }
            let headerCount = headerCount(command)
            guard raw.count >= headerCount else {
                throw .malformedFrames("the \(command) header is \(headerCount) bytes, the message only \(raw.count)")
            }
            let id = hasID(command) ? RequestID(bytes: UnsafeRawBufferPointer(rebasing: raw[10..<18])) : nil
            var at = headerCount
            func name(_ i: Int) throws(ProtocolError) -> String {
                guard i < nameCount(command) else { return "" }
                let end = at + 1 + (at < raw.count ? Int(raw[at]) : 0)
                guard at < raw.count, raw[at] > 0, end <= raw.count,
                    let name = text(UnsafeRawBufferPointer(rebasing: raw[(at + 1)..<end]))
                else {
                    throw .malformedFrames("\(nameRole(command, i)) must be 1 to \(maxNameBytes) bytes of UTF-8, after its length byte")
                }
                at = end
                return name
            }
            let first = try name(0)
            let second = try name(1)
            guard hasRest(command) || at == raw.count else {
                throw .malformedFrames("\(command) carries nothing after its header, got \(raw.count - at) bytes")
            }
            return Parsed(
                command: command, id: id ?? RequestID(0), flag: hasFlag(command) ? raw[headerCount - 1] : 0,
                first: first, second: second, rest: Body(frame: frame, offset: at))
        }
    }

    /// A message to send: its header fields, the names its command takes, and the rest.
    public struct Parts: Sendable {
        /// The command byte.
        public var command: Command
        /// The request id, for commands that carry one.
        public var id = RequestID(0)
        /// The stage or lock byte, for commands that carry one.
        public var flag: UInt8 = 0
        /// The first name (app, intent, topic or code), for commands that take one.
        public var first: String?
        /// The second name (the intent after the app), for commands that take two.
        public var second: String?
        /// The body or text after the names.
        public var rest = Body([])

        /// The message's size; fails if a name the command takes is empty or over the limit.
        func size() throws(ProtocolError) -> Int {
            func size(_ i: Int, _ name: String?) throws(ProtocolError) -> Int {
                guard i < nameCount(command) else { return 0 }
                let size = name?.utf8.count ?? 0
                guard (1...maxNameBytes).contains(size) else {
                    throw .malformedFrames("\(nameRole(command, i)) must be 1 to \(maxNameBytes) bytes of UTF-8, not \(size)")
                }
                return 1 + size
            }
            return headerCount(command) + (try size(0, first)) + (try size(1, second)) + rest.count
        }

        /// Writes the message into `raw`, which holds exactly `size()` bytes.
        func write(into raw: UnsafeMutableRawBufferPointer) {
            let headerCount = headerCount(command)
            for (i, byte) in signatureBytes.enumerated() { raw[i] = byte }
            raw[signatureCount] = command.rawValue
            if hasID(command) { id.write(into: raw, at: 10) }
            if hasFlag(command) { raw[headerCount - 1] = flag }
            var at = headerCount
            func put(_ name: String?) {
                guard var name else { return }
                name.withUTF8 { utf8 in
                    raw[at] = UInt8(utf8.count)
                    UnsafeMutableRawBufferPointer(rebasing: raw[(at + 1)...]).copyMemory(from: UnsafeRawBufferPointer(utf8))
                    at += 1 + utf8.count
                }
            }
            if nameCount(command) > 0 { put(first) }
            if nameCount(command) > 1 { put(second) }
            rest.withUnsafeBytes { rest in
                if rest.count > 0 { UnsafeMutableRawBufferPointer(rebasing: raw[at...]).copyMemory(from: rest) }
            }
        }

        /// The message as a frame.
        func message() throws(ProtocolError) -> Message {
            let message = Message(count: try size())
            message.withUnsafeMutableBytes { write(into: $0) }
            return message
        }

        /// Writes the message straight into a frame libzmq owns and sends it, after
        /// `routingID` when sending from a ROUTER; `false` if `wait` is false and the socket
        /// cannot take it now. Names are checked before anything is sent.
        func send(
            on socket: Socket, to routingID: RoutingID?, wait: Bool, counting: (Int) -> QueuedBytes? = { _ in nil }
        ) throws -> Bool {
            let count = try size()
            let gauge = counting(count)
            func sendBody(wait: Bool) throws -> Bool {
                if let gauge { return try socket.send(count: count, wait: wait, counting: gauge) { write(into: $0) } }
                return try socket.send(count: count, wait: wait) { write(into: $0) }
            }
            if let routingID {
                guard try socket.send(routingID, more: true, wait: wait) else { return false }
                // The envelope is queued: the rest of the message must follow it.
                return try sendBody(wait: true)
            }
            return try sendBody(wait: wait)
        }
    }

    /// Whether `raw` starts with the signature: one 8-byte and one 1-byte comparison.
    static func startsWithSignature(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard raw.count >= signatureCount else { return false }
        return raw.loadUnaligned(as: UInt64.self) == signaturePrefix && raw[8] == signatureLast
    }

    private static let signaturePrefix = signatureBytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    private static let signatureLast = signatureBytes[8]

    /// Text as UTF-8, or `nil` if it is not valid UTF-8.
    static func text(_ raw: UnsafeRawBufferPointer) -> String? {
        // ASCII, the usual case for names, needs no validation.
        if !raw.contains(where: { $0 >= 0x80 }) { return String(decoding: raw, as: UTF8.self) }
        return String(validating: raw.bindMemory(to: UInt8.self), as: UTF8.self)
    }

    static func stage(_ flag: UInt8) throws(ProtocolError) -> Stage {
        guard let stage = Stage(rawValue: flag) else {
            throw .malformedFrames("the stage byte must be 1 resolve, 2 confirm or 3 handle")
        }
        return stage
    }

    /// The total size of `frames`.
    public static func size(_ frames: ArraySlice<Message>) -> Int {
        frames.reduce(0) { $0 + $1.count }
    }

    /// The request id of a client message that failed to parse, if its header holds one.
    public static func bestEffortRequestID(_ frames: ArraySlice<Message>) -> RequestID {
        guard let first = frames.first else { return RequestID(0) }
        return first.withUnsafeBytes { raw in
            guard raw.count >= 18, startsWithSignature(raw) else { return RequestID(0) }
            return RequestID(bytes: UnsafeRawBufferPointer(rebasing: raw[10..<18])) ?? RequestID(0)
        }
    }
}
