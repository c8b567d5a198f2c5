/// What the host publishes on its updates endpoint: frame 0 is the topic
/// (`APP/TOPIC`, such as `RideApp/ride`), frame 1 this JSON body.
public struct Update: Sendable, Hashable, Codable {
    /// The app that pushed it.
    public var app: String
    /// The extension's topic, such as `ride`.
    public var topic: String
    /// What the extension sent.
    public var payload: JSONValue
    /// When the host received it, ISO 8601.
    public var time: String

    /// Creates an update.
    public init(app: String, topic: String, payload: JSONValue, time: String) {
        self.app = app
        self.topic = topic
        self.payload = payload
        self.time = time
    }
}
