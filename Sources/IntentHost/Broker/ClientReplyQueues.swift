import IntentProtocol
import ZeroMQ

/// The bytes of replies and errors the host has handed libzmq for each client connection
/// and libzmq has not yet written to it. A client that stops reading makes these grow; past the limit its
/// new requests are refused with `overloaded` until it reads again, so what it can make
/// the host hold is bounded in bytes (the limit plus what its requests in flight return),
/// not only in messages. Owned by the broker thread; libzmq's I/O thread only subtracts.
struct ClientReplyQueues {
    private let limit: Int
    private var queues: [RoutingID: QueuedBytes] = [:]

    init(limit: Int) { self.limit = limit }

    /// The gauge for replies to `client`, made on first use.
    mutating func queue(for client: RoutingID) -> QueuedBytes {
        if let queue = queues[client] { return queue }
        let queue = QueuedBytes()
        queues[client] = queue
        return queue
    }

    /// Why `client` may not send more now, if it has too much waiting unread.
    func refusal(for client: RoutingID) -> Refusal? {
        guard let queue = queues[client], queue.count > limit else { return nil }
        return Self.notReading
    }

    /// Bytes waiting for every client together.
    var total: Int { queues.values.reduce(0) { $0 + $1.count } }

    /// Forgets the gauges of clients with nothing waiting (such as those that left, whose
    /// queues libzmq dropped with the connection).
    mutating func prune() {
        guard !queues.isEmpty else { return }
        queues = queues.filter { $0.value.count > 0 }
    }

    private static let notReading = Refusal(
        code: .overloaded, message: "this connection has not read the replies the host already sent it; read them first")
}
