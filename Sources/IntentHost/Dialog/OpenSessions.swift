import ZeroMQ

/// How many conversations may be open at once (started and not ended: working, or waiting
/// up to the session timeout for the user's answer), in the whole host and per client
/// connection. Past either, a new conversation is refused with `overloaded`.
struct ConversationLimits: Sendable {
    var host: Int
    var client: Int
}

/// The open conversations, by id, and how many each client connection has open.
struct OpenSessions {
    private(set) var byID: [String: DialogSession] = [:]
    private var byClient: [RoutingID: Int] = [:]

    /// Opens `session` for `client`, or says why not.
    mutating func open(_ session: DialogSession, for client: RoutingID, within limits: ConversationLimits) -> String? {
        if byID.count >= limits.host {
            return "intentd has as many conversations open as it keeps at once (\(limits.host)); try again shortly"
        }
        let mine = byClient[client, default: 0]
        if mine >= limits.client {
            return "this connection has \(limits.client) conversations open, as many as the host keeps for one client; finish or leave some first"
        }
        byID[session.id] = session
        byClient[client] = mine + 1
        return nil
    }

    /// Closes the conversation `id` that `client` opened.
    mutating func close(_ id: String, for client: RoutingID) {
        guard byID.removeValue(forKey: id) != nil, let mine = byClient[client] else { return }
        byClient[client] = mine > 1 ? mine - 1 : nil
    }
}
