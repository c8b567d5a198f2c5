import IntentProtocol

/// One message on the console's websocket; `type` says which of the rest is set:
/// `snapshot`, `status` (or `error` when the host did not answer), `traffic`, `update`, `bench`.
struct ConsoleMessage: Encodable, Sendable {
    var type: String
    var snapshot: Snapshot?
    var status: HostStatus?
    var error: String?
    var traffic: [TrafficSample]?
    var updates: [Update]?
    var bench: JSONValue?
}

/// Everything a page needs when it opens.
struct Snapshot: Encodable, Sendable {
    var status: HostStatus?
    var error: String?
    var traffic: [TrafficSample]
    var updates: [Update]
    var bench: JSONValue?
}
