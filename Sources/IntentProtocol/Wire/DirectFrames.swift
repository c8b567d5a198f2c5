import ZeroMQ

/// The messages on the routing path, sent frame by frame straight from bytes: no
/// `Message` objects for headers, and the body handed to libzmq without a copy.
/// Each returns `false` if the first frame would block (the peer is not reading).
public enum DirectFrames {
    private static let signature = Array(Wire.signature.utf8)
    private static let commands: [[UInt8]] = (0...0x15).map { [UInt8($0)] }
    private static let stages: [[UInt8]] = (0...3).map { [UInt8($0)] }

    private static func header(_ socket: Socket, _ routingID: [UInt8]?, _ command: Command, wait: Bool) throws(ZMQError) -> Bool {
        if let routingID {
            guard try socket.send(routingID, more: true, wait: wait) else { return false }
            try socket.send(signature, more: true)
        } else {
            guard try socket.send(signature, more: true, wait: wait) else { return false }
        }
        try socket.send(commands[Int(command.rawValue)], more: true)
        return true
    }

    /// REQUEST: host to extension.
    @discardableResult
    public static func request(
        _ socket: Socket, to routingID: [UInt8]?, id: RequestID, stage: Stage, intent: String, body: Message, wait: Bool = false
    ) throws(ZMQError) -> Bool {
        guard try header(socket, routingID, .request, wait: wait) else { return false }
        try socket.send(bigEndian: id.value, more: true)
        try socket.send(stages[Int(stage.rawValue)], more: true)
        try socket.send(intent, more: true)
        try socket.send(body)
        return true
    }

    /// RESULT: host to client.
    @discardableResult
    public static func result(_ socket: Socket, to routingID: [UInt8]?, id: RequestID, body: Message, wait: Bool = false) throws(ZMQError) -> Bool {
        guard try header(socket, routingID, .result, wait: wait) else { return false }
        try socket.send(bigEndian: id.value, more: true)
        try socket.send(body)
        return true
    }

    /// REPLY: extension to host.
    @discardableResult
    public static func reply(_ socket: Socket, id: RequestID, body: Message, wait: Bool = true) throws(ZMQError) -> Bool {
        guard try header(socket, nil, .reply, wait: wait) else { return false }
        try socket.send(bigEndian: id.value, more: true)
        try socket.send(body)
        return true
    }

    /// STAGE or SUBMIT: client to host.
    @discardableResult
    public static func clientRequest(
        _ socket: Socket, id: RequestID, app: String, intent: String, stage: Stage?, body: Message, wait: Bool = true
    ) throws(ZMQError) -> Bool {
        guard try header(socket, nil, stage == nil ? .submit : .stage, wait: wait) else { return false }
        try socket.send(bigEndian: id.value, more: true)
        try socket.send(app, more: true)
        try socket.send(intent, more: true)
        if let stage { try socket.send(stages[Int(stage.rawValue)], more: true) }
        try socket.send(body)
        return true
    }
}
