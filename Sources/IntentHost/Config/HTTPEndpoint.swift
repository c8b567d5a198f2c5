import Synchronization

/// Where the host's HTTP side listens, filled in once it does (its port may be chosen at
/// start-up), for STATUS to show.
public final class HTTPEndpoint: Sendable {
    private let url = Mutex<String?>(nil)

    /// An endpoint not yet listening.
    public init() {}

    /// The URL, such as `http://127.0.0.1:8470`, once the server listens.
    public var current: String? { url.withLock { $0 } }

    /// Notes the URL the server listens on.
    public func listening(at url: String) {
        self.url.withLock { $0 = url }
    }
}
