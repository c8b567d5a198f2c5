import Foundation
import IntentProtocol

/// A chat request whose outcome is unknown (intentd stopped answering, or an app gave no
/// usable answer), kept in `STATE/chat-unsettled.json` so that said again, in this chat or
/// the next one, within `keptFor`, it carries the same idempotency key and is done at most
/// once. Later, the same words are a new request.
struct UnsettledRequest: Codable, Equatable {
    /// How long the same words keep the key.
    static let keptFor: TimeInterval = 600

    var text: String
    var key: String
    /// The host it was said to.
    var endpoint: String
    /// Seconds since 1970 when it was said.
    var time: Double

    /// The key to say `text` to `endpoint` with, if it repeats this request in time.
    func key(for text: String, to endpoint: String, now: Date = Date()) -> String? {
        guard endpoint == self.endpoint, now.timeIntervalSince1970 - time < Self.keptFor,
            RequestAnnotation.saidAlike(text) == RequestAnnotation.saidAlike(self.text)
        else { return nil }
        return key
    }

    /// The one kept in `state`, if any.
    static func load(from state: StateDirectory) -> UnsettledRequest? {
        guard let data = try? Data(contentsOf: file(state)), data.count < 64 << 10 else { return nil }
        return try? JSON.decode(UnsettledRequest.self, from: Array(data))
    }

    /// Keeps `request` in `state` (nil: forgets it). A state directory that cannot be
    /// written keeps nothing: the key then lasts as long as this chat.
    static func save(_ request: UnsettledRequest?, in state: StateDirectory) {
        let url = file(state)
        guard let request, let bytes = try? JSON.encode(request) else {
            try? FileManager.default.removeItem(at: url)
            return
        }
        FileManager.default.createFile(atPath: url.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
    }

    private static func file(_ state: StateDirectory) -> URL { state.url.appendingPathComponent("chat-unsettled.json") }
}
