import IntentProtocol
import ZeroMQ

/// The client requests the host has taken on and not yet answered, in all and per client
/// connection, against `AdmissionLimits`. Past either bound a new request is refused with
/// `overloaded` at once: a flood waits in no queue of the host's, and one client's flood
/// leaves the rest of the host's room to the others. Owned by the broker thread.
///
/// Every admitted request is released exactly once, when its answer goes out.
struct InFlightLedger {
    private let hostLimit: Int
    private let clientLimit: Int
    private(set) var total = 0
    private var byClient: [RoutingID: Int] = [:]
    /// Requests refused since the host started, for the log.
    private(set) var refused = 0

    private let hostFull: Refusal
    private let clientFull: Refusal

    /// The ledger of client requests (STAGE and SUBMIT) under `limits`.
    init(_ limits: AdmissionLimits) {
        let resolved = limits.resolved
        self.init(host: resolved.host, client: resolved.client, hostFull: Self.requestsHostFull, clientFull: Self.requestsClientFull)
    }

    /// A ledger of `host` items in all and `client` per client connection, refused with
    /// `hostFull` and `clientFull` past them.
    init(host: Int, client: Int, hostFull: Refusal, clientFull: Refusal) {
        hostLimit = host
        clientLimit = client
        self.hostFull = hostFull
        self.clientFull = clientFull
    }

    /// Takes one request from `client` on, or says why not.
    mutating func admit(_ client: RoutingID) -> Refusal? {
        if total >= hostLimit {
            refused &+= 1
            return hostFull
        }
        let mine = byClient[client, default: 0]
        if mine >= clientLimit {
            refused &+= 1
            return clientFull
        }
        total += 1
        byClient[client] = mine + 1
        return nil
    }

    /// Counts one request that could not be admitted for another reason (a client that is
    /// not reading its replies).
    mutating func noteRefused() { refused &+= 1 }

    /// Gives back the slot of one answered request from `client`.
    mutating func release(_ client: RoutingID) {
        guard let mine = byClient[client] else { return }
        total -= 1
        byClient[client] = mine > 1 ? mine - 1 : nil
    }

    /// Requests in flight from `client`.
    func inFlight(from client: RoutingID) -> Int { byClient[client, default: 0] }

    private static let requestsHostFull = Refusal(
        code: .overloaded, message: "intentd has as many requests in flight as it takes at once; try again shortly")
    private static let requestsClientFull = Refusal(
        code: .overloaded, message: "this connection has as many requests in flight as the host takes from one client; wait for some answers")
}
