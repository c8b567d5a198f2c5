import ZeroMQ

/// A message this side sends: built into one frame, or written straight into a frame
/// libzmq owns and sent, which is what the routing path does.
public protocol OutgoingMessage {
    /// The message's header fields, names and rest.
    var parts: Wire.Parts { get }
}

extension OutgoingMessage {
    /// The one frame to send (without a routing id); fails only for a name over the limit.
    public func frame() throws(ProtocolError) -> Message { try parts.message() }

    /// Sends the message as one frame, after `routingID` when sending from a ROUTER;
    /// `false` if `wait` is false and the socket cannot take it now. Fails for a name over
    /// the limit (before anything is sent), or as the socket fails.
    @discardableResult
    public func send(on socket: Socket, to routingID: RoutingID? = nil, wait: Bool = true) throws -> Bool {
        try parts.send(on: socket, to: routingID, wait: wait)
    }

    /// Sends the message as `send(on:to:wait:)` does, counted in the gauge `counting`
    /// returns for its size (none: not counted) until libzmq has written it.
    @discardableResult
    public func send(
        on socket: Socket, to routingID: RoutingID? = nil, wait: Bool = true, counting: (Int) -> QueuedBytes?
    ) throws -> Bool {
        try parts.send(on: socket, to: routingID, wait: wait, counting: counting)
    }
}

extension ClientMessage: OutgoingMessage {}
extension HostToClient: OutgoingMessage {}
extension ExtensionMessage: OutgoingMessage {}
extension HostToExtension: OutgoingMessage {}
