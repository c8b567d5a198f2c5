import ZeroMQ

/// The messages on the routing path, sent frame by frame straight from bytes: the
/// header built on the stack, names from the strings' own storage, and the body handed
/// to libzmq without a copy. Each returns `false` if the first frame would block.
public enum DirectFrames {
    private static func header(
        _ socket: Socket, _ routingID: [UInt8]?, _ command: Command, id: RequestID, flag: UInt8 = 0, wait: Bool
    ) throws(ZMQError) -> Bool {
        if let routingID {
            guard try socket.send(routingID, more: true, wait: wait) else { return false }
            try Wire.withHeader(command, id: id, flag: flag) { (raw) throws(ZMQError) in _ = try socket.send(bytes: raw, more: true) }
            return true
        }
        return try Wire.withHeader(command, id: id, flag: flag) { (raw) throws(ZMQError) in try socket.send(bytes: raw, more: true, wait: wait) }
    }

    /// REQUEST: host to extension.
    @discardableResult
    public static func request(
        _ socket: Socket, to routingID: [UInt8]?, id: RequestID, stage: Stage, intent: String, body: Message, wait: Bool = false
    ) throws(ZMQError) -> Bool {
        guard try header(socket, routingID, .request, id: id, flag: stage.rawValue, wait: wait) else { return false }
        try socket.send(intent, more: true)
        try socket.send(body)
        return true
    }

    /// RESULT: host to client.
    @discardableResult
    public static func result(_ socket: Socket, to routingID: [UInt8]?, id: RequestID, body: Message, wait: Bool = false) throws(ZMQError) -> Bool {
        guard try header(socket, routingID, .result, id: id, wait: wait) else { return false }
        try socket.send(body)
        return true
    }

    /// REPLY: extension to host.
    @discardableResult
    public static func reply(_ socket: Socket, id: RequestID, body: Message, wait: Bool = true) throws(ZMQError) -> Bool {
        guard try header(socket, nil, .reply, id: id, wait: wait) else { return false }
        try socket.send(body)
        return true
    }

    /// STAGE (with a stage) or SUBMIT (without): client to host.
    @discardableResult
    public static func clientRequest(
        _ socket: Socket, id: RequestID, app: String, intent: String, stage: Stage?, body: Message, wait: Bool = true
    ) throws(ZMQError) -> Bool {
        guard try header(socket, nil, stage == nil ? .submit : .stage, id: id, flag: stage?.rawValue ?? 0, wait: wait) else {
            return false
        }
        try socket.send(app, more: true)
        try socket.send(intent, more: true)
        try socket.send(body)
        return true
    }
}
