/// How much work the host takes on at once. Past any of these bounds a new request is
/// refused at once with `overloaded` instead of waiting in a queue, so the requests already
/// admitted keep their latency and the host's memory stays flat under a flood.
///
/// The config file sets them under `admission`; a field left out keeps its default.
/// Defaults come from measurement (README, "Overload"): well above what keeps the bench
/// extension busy on a 2-core machine, well below what costs latency or memory.
public struct AdmissionLimits: Sendable, Hashable, Decodable {
    /// Client requests in flight in the whole host: STAGE requests awaiting their reply and
    /// SUBMIT lifecycles still running (SAYs have limits of their own, `maxSaying`).
    public var maxInFlight: Int?
    /// The same, for one client connection; below `maxInFlight`, so one client flooding the
    /// host leaves room for the others.
    public var maxInFlightPerClient: Int?
    /// Stage requests awaiting a reply from one extension instance (from clients' STAGEs,
    /// lifecycles and conversations together): a hung instance cannot take every slot.
    public var maxInFlightPerInstance: Int?
    /// Reply bytes the host holds for one client connection that it has not yet written to
    /// the connection (a client that does not read); past it, the client's new requests are
    /// refused until it reads.
    public var maxQueuedBytesPerClient: Int?
    /// Messages libzmq queues per peer in each direction (`ZMQ_SNDHWM`, `ZMQ_RCVHWM`) on the
    /// client and extension sockets. High enough that a reading client never loses a reply
    /// when it falls behind for a moment (about a second at 10,000 replies a second); what a
    /// client that does not read can make the host hold is bounded by
    /// `maxQueuedBytesPerClient` instead.
    public var highWaterMark: Int?
    /// Stage requests waiting for an app the host has known while it has no live instance
    /// (restarting, hung and dropped, or stopped), in the whole host; they wait up to their
    /// deadline for one to register.
    public var maxWaiting: Int?
    /// The same, for one app.
    public var maxWaitingPerApp: Int?
    /// The bytes of those requests' bodies, in the whole host.
    public var maxWaitingBytes: Int?
    /// The same, for one app.
    public var maxWaitingBytesPerApp: Int?
    /// Typed requests (SAY) the host works on at once in the whole host: from when it takes
    /// one until its turn is sent. Counted apart from `maxInFlight`, so that text, which
    /// costs far more to read than a stage costs to route, cannot take the room of SUBMIT
    /// and STAGE.
    public var maxSaying: Int?
    /// The same, for one client connection.
    public var maxSayingPerClient: Int?
    /// Conversations open at once in the whole host: started by a SAY and not ended
    /// (working, or waiting up to the session timeout for the user's answer).
    public var maxConversations: Int?
    /// The same, for one client connection.
    public var maxConversationsPerClient: Int?

    /// Creates limits; `nil` fields take the defaults when merged.
    public init(
        maxInFlight: Int? = nil, maxInFlightPerClient: Int? = nil, maxInFlightPerInstance: Int? = nil,
        maxQueuedBytesPerClient: Int? = nil, highWaterMark: Int? = nil, maxWaiting: Int? = nil,
        maxWaitingPerApp: Int? = nil, maxWaitingBytes: Int? = nil, maxWaitingBytesPerApp: Int? = nil,
        maxSaying: Int? = nil, maxSayingPerClient: Int? = nil, maxConversations: Int? = nil, maxConversationsPerClient: Int? = nil
    ) {
        self.maxInFlight = maxInFlight
        self.maxInFlightPerClient = maxInFlightPerClient
        self.maxInFlightPerInstance = maxInFlightPerInstance
        self.maxQueuedBytesPerClient = maxQueuedBytesPerClient
        self.highWaterMark = highWaterMark
        self.maxWaiting = maxWaiting
        self.maxWaitingPerApp = maxWaitingPerApp
        self.maxWaitingBytes = maxWaitingBytes
        self.maxWaitingBytesPerApp = maxWaitingBytesPerApp
        self.maxSaying = maxSaying
        self.maxSayingPerClient = maxSayingPerClient
        self.maxConversations = maxConversations
        self.maxConversationsPerClient = maxConversationsPerClient
    }

    /// The limits unless the config says otherwise.
    public static let defaults = AdmissionLimits(
        maxInFlight: 64, maxInFlightPerClient: 32, maxInFlightPerInstance: 64,
        maxQueuedBytesPerClient: 8 << 20, highWaterMark: 10_000, maxWaiting: 256, maxWaitingPerApp: 64,
        maxWaitingBytes: 8 << 20, maxWaitingBytesPerApp: 2 << 20, maxSaying: 32, maxSayingPerClient: 8,
        maxConversations: 1_024, maxConversationsPerClient: 16)

    /// These limits, with every field `other` sets taken from it.
    public func overridden(by other: AdmissionLimits?) -> AdmissionLimits {
        guard let other else { return self }
        return AdmissionLimits(
            maxInFlight: other.maxInFlight ?? maxInFlight,
            maxInFlightPerClient: other.maxInFlightPerClient ?? maxInFlightPerClient,
            maxInFlightPerInstance: other.maxInFlightPerInstance ?? maxInFlightPerInstance,
            maxQueuedBytesPerClient: other.maxQueuedBytesPerClient ?? maxQueuedBytesPerClient,
            highWaterMark: other.highWaterMark ?? highWaterMark, maxWaiting: other.maxWaiting ?? maxWaiting,
            maxWaitingPerApp: other.maxWaitingPerApp ?? maxWaitingPerApp,
            maxWaitingBytes: other.maxWaitingBytes ?? maxWaitingBytes,
            maxWaitingBytesPerApp: other.maxWaitingBytesPerApp ?? maxWaitingBytesPerApp,
            maxSaying: other.maxSaying ?? maxSaying, maxSayingPerClient: other.maxSayingPerClient ?? maxSayingPerClient,
            maxConversations: other.maxConversations ?? maxConversations,
            maxConversationsPerClient: other.maxConversationsPerClient ?? maxConversationsPerClient)
    }

    /// Throws unless every limit set is positive.
    func validate(_ context: String) throws {
        let fields = [
            ("maxInFlight", maxInFlight), ("maxInFlightPerClient", maxInFlightPerClient),
            ("maxInFlightPerInstance", maxInFlightPerInstance), ("maxQueuedBytesPerClient", maxQueuedBytesPerClient),
            ("highWaterMark", highWaterMark), ("maxWaiting", maxWaiting), ("maxWaitingPerApp", maxWaitingPerApp),
            ("maxWaitingBytes", maxWaitingBytes), ("maxWaitingBytesPerApp", maxWaitingBytesPerApp),
            ("maxSaying", maxSaying), ("maxSayingPerClient", maxSayingPerClient), ("maxConversations", maxConversations), ("maxConversationsPerClient", maxConversationsPerClient),
        ]
        for (name, value) in fields {
            if let value, value < 1 { throw ConfigurationError("\(context): \(name) must be at least 1") }
        }
    }

    /// Every field, with the defaults for those not set.
    var resolved: (host: Int, client: Int, instance: Int, queuedBytes: Int, highWaterMark: Int) {
        let d = Self.defaults
        return (
            maxInFlight ?? d.maxInFlight ?? 64, maxInFlightPerClient ?? d.maxInFlightPerClient ?? 32,
            maxInFlightPerInstance ?? d.maxInFlightPerInstance ?? 64,
            maxQueuedBytesPerClient ?? d.maxQueuedBytesPerClient ?? 8 << 20, highWaterMark ?? d.highWaterMark ?? 10_000
        )
    }

    /// The bounds on requests waiting for an app with no live instance, with the defaults
    /// for those not set.
    var waiting: (requests: Int, requestsPerApp: Int, bytes: Int, bytesPerApp: Int) {
        let d = Self.defaults
        return (
            maxWaiting ?? d.maxWaiting ?? 256, maxWaitingPerApp ?? d.maxWaitingPerApp ?? 64,
            maxWaitingBytes ?? d.maxWaitingBytes ?? 8 << 20, maxWaitingBytesPerApp ?? d.maxWaitingBytesPerApp ?? 2 << 20)
    }

    /// The bounds on open conversations, with the defaults for those not set.
    var conversations: ConversationLimits {
        let d = Self.defaults
        return ConversationLimits(
            host: maxConversations ?? d.maxConversations ?? 1_024, client: maxConversationsPerClient ?? d.maxConversationsPerClient ?? 16)
    }

    /// The bounds on SAYs being worked on, with the defaults for those not set.
    var saying: (host: Int, client: Int) {
        let d = Self.defaults
        return (maxSaying ?? d.maxSaying ?? 32, maxSayingPerClient ?? d.maxSayingPerClient ?? 8)
    }
}
