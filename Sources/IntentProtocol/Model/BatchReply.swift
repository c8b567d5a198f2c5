/// The REPLY body to a REQUEST that carries a `batch` (wire.md, section 5b): the reply of
/// each stage the extension ran, in order, each exactly the body it would have sent for
/// that stage alone (a ResolveReply, an IntentResponse or an ErrorReply). It holds fewer
/// replies than the batch asked for when the extension stopped early.
public struct BatchReply: Sendable, Hashable {
    /// The stages' replies, in the batch's order.
    public var replies: [JSONValue]

    /// Creates a reply.
    public init(replies: [JSONValue]) { self.replies = replies }
}

extension BatchReply: JSONConvertible {
    public init(json: JSONValue) throws(ProtocolError) {
        let replies = try JSONFields(json, "reply").array("replies")
        guard !replies.isEmpty else { throw .malformedBody("reply.replies is empty") }
        self.init(replies: replies)
    }

    public var json: JSONValue { ["replies": .array(replies)] }
}
