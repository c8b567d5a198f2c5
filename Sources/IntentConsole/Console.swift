import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import IntentClient
import IntentHost
import IntentProtocol
import ServiceLifecycle
import Synchronization

/// The console: a web page of the host as a whole (its apps, the lock, a conversation with
/// the assistant, pushed updates with a ride on a map, traffic and the last load test),
/// behind a token. It is a client of the host like `intentctl`, through the client and
/// updates endpoints, so the host checks everything it asks for; `addRoutes` puts its
/// pages, API and websocket on any Hummingbird router, and `run` (a service, beside the
/// server's) keeps its live data coming.
public final class Console: Service, Sendable {
    /// Where the console finds the host and its files.
    public struct Setup: Sendable {
        /// The host's state directory (the token, the client key, the last load test).
        public var stateDirectory: StateDirectory
        /// The host's client endpoint.
        public var clientEndpoint: String
        /// Where the host publishes extensions' updates.
        public var updatesEndpoint: String
        /// The folder of the map drawn under rides, if there is one: Zippy's manifest folder,
        /// with its coverage area (`coverage.geojson`) and the places it knows (`places.json`).
        public var map: URL?
        /// The host's stage counters, read once a second.
        public var traffic: TrafficMeter
        /// How long a conversation turn or a control request may take.
        public var timeout: Duration = .seconds(30)

        /// Creates a setup.
        public init(stateDirectory: StateDirectory, clientEndpoint: String, updatesEndpoint: String, map: URL?, traffic: TrafficMeter) {
            self.stateDirectory = stateDirectory
            self.clientEndpoint = clientEndpoint
            self.updatesEndpoint = updatesEndpoint
            self.map = map
            self.traffic = traffic
        }
    }

    /// The token every request must carry.
    public let token: ConsoleToken

    private let setup: Setup
    private let page: ConsolePage
    private let hub = ConsoleHub()
    private let control: HostLink
    private let chat: HostLink
    private let live = Mutex(LiveState())
    /// The largest request body the console reads.
    static let maxBody = 16 * 1024
    /// The longest thing the user may type in one turn.
    static let maxUtterance = 1000

    /// Loads the page and the token (making it, 0600, on first start).
    public init(setup: Setup) throws {
        self.setup = setup
        page = try ConsolePage.load(map: setup.map)
        token = try ConsoleToken.loadOrCreate(at: setup.stateDirectory.url.appendingPathComponent("console-token"))
        let state = setup.stateDirectory
        let security: @Sendable () throws -> ConnectionSecurity = { try ConnectionSecurity.client(state: state) }
        control = HostLink(name: "control", endpoint: setup.clientEndpoint, timeout: .seconds(5), security: security)
        chat = HostLink(name: "chat", endpoint: setup.clientEndpoint, timeout: setup.timeout, security: security)
    }

    /// The page's address on a server listening at `host`:`port`, with the token unless
    /// asked not to.
    public func address(host: String, port: Int, withToken: Bool = true) -> String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(port)/" + (withToken ? "?token=\(token.value)" : "")
    }

    /// Adds the console's routes to `router`: `/` (the page), its script, style and map
    /// (`/coverage.geojson`, `/places.json`), each also for HEAD,
    /// `/api/…` and the websocket `/ws`. Each checks the token (a `token` query parameter
    /// or `Authorization: Bearer`); other routes on the router are left alone.
    public func addRoutes<Context: WebSocketRequestContext & RequestContext>(to router: Router<Context>) {
        let routes = router.group().add(middleware: ConsoleGuard<Context>(token: token))
        // HEAD as GET: a link checker or `curl -I` hears what is there.
        let files: [(RouterPath, ConsolePage.File)] = [
            ("/", .index), ("/console.js", .script), ("/console.css", .style), ("/coverage.geojson", .coverage), ("/places.json", .places),
        ]
        for (path, file) in files {
            routes.get(path) { _, _ in self.page.response(file, token: self.token) }
            routes.head(path) { _, _ in self.page.response(file, token: self.token) }
        }
        routes.get("/api/state") { _, _ in Self.json(await self.snapshot()) }
        routes.post("/api/lock") { request, _ in
            let asked = try await Self.body(LockRequest.self, request)
            return await self.answer { try await self.control.call { try $0.setLocked(asked.locked) } }
        }
        routes.post("/api/authorize") { request, _ in
            let asked = try await Self.body(AuthorizeRequest.self, request)
            guard let decision = AuthorizationRequest.Decision(rawValue: asked.decision) else {
                throw HTTPError(.badRequest, message: "decision is allow, deny or reset")
            }
            return await self.answer { try await self.control.call { try $0.authorize(app: asked.app, decision) } }
        }
        routes.post("/api/say") { request, _ in
            let asked = try await Self.body(Utterance.self, request)
            // A typing note (no words, in a conversation) keeps its question waiting.
            let typing = asked.typing == true && asked.sessionId != nil && asked.text.isEmpty
            guard typing || !asked.text.isEmpty, asked.text.count <= Self.maxUtterance else {
                throw HTTPError(.badRequest, message: "say between 1 and \(Self.maxUtterance) characters")
            }
            return await self.answer(refresh: false) { try await self.chat.call { try $0.say(asked) } }
        }
        routes.ws("/ws") { inbound, outbound, _ in
            guard let (id, messages) = self.hub.listen() else { return }
            defer { self.hub.leave(id) }
            try await outbound.write(.text(Self.text(ConsoleMessage(type: "snapshot", snapshot: await self.snapshot()))))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for try await _ in inbound {} }  // until the page goes away
                group.addTask { for await message in messages { try await outbound.write(.text(message)) } }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// Follows the host until cancelled or shut down gracefully: every update it publishes
    /// goes to the open pages at once; its status, traffic and the last load test once a second.
    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.follow() }
    }

    private func follow() async {
        let feed = UpdateFeed(
            endpoint: setup.updatesEndpoint,
            security: { [state = setup.stateDirectory] in try ConnectionSecurity.client(state: state) }
        ) { [weak self] update in self?.received(update) }
        defer {
            feed.stop()
            hub.finishAll()
        }
        var previous = setup.traffic.take()
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            let now = setup.traffic.take()
            let sample = TrafficSample(time: Date().timeIntervalSince1970, from: previous, to: now)
            previous = now
            live.withLock { $0.add(sample) }
            hub.send(Self.text(ConsoleMessage(type: "traffic", traffic: [sample])))
            if let bench = readBenchIfChanged() { hub.send(Self.text(ConsoleMessage(type: "bench", bench: bench))) }
            if !hub.isEmpty { await pushStatus() }
        }
    }

    // MARK: Live data

    private func received(_ update: Update) {
        live.withLock { $0.add(update) }
        hub.send(Self.text(ConsoleMessage(type: "update", updates: [update])))
    }

    private func pushStatus() async {
        hub.send(Self.text(await statusMessage()))
    }

    private func statusMessage() async -> ConsoleMessage {
        do {
            return ConsoleMessage(type: "status", status: try await control.call { try $0.status() })
        } catch {
            return ConsoleMessage(type: "status", error: "\(error)")
        }
    }

    private func snapshot() async -> Snapshot {
        let status = await statusMessage()
        let (traffic, updates) = live.withLock { ($0.traffic, $0.updates) }
        return Snapshot(status: status.status, error: status.error, traffic: traffic, updates: updates, bench: readBench())
    }

    /// The saved load test, if its file changed since the last look.
    private func readBenchIfChanged() -> JSONValue? {
        let file = setup.stateDirectory.lastBenchFile
        let stamp = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? nil
        let changed = live.withLock { state in
            defer { state.benchStamp = stamp }
            return stamp != nil && stamp != state.benchStamp
        }
        return changed ? readBench() : nil
    }

    private func readBench() -> JSONValue? {
        let file = setup.stateDirectory.lastBenchFile
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 1 << 20) else { return nil }
        return try? JSON.decode(JSONValue.self, from: Array(data))
    }

    // MARK: Requests and answers

    /// Runs a request to the host; its answer, or the host's refusal, as JSON. Changes are
    /// followed by a status push, so every open page sees them.
    private func answer(refresh: Bool = true, _ work: () async throws -> some Encodable) async -> Response {
        do {
            let value = try await work()
            if refresh { await pushStatus() }
            return Self.json(value)
        } catch ClientError.host(let code, let message) {
            return Self.json(HostRefusal(error: message, code: code), status: .unprocessableContent)
        } catch {
            return Self.json(HostRefusal(error: "\(error)", code: nil), status: .badGateway)
        }
    }

    private static func body<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        var request = request
        let buffer = try await request.collectBody(upTo: maxBody)
        do { return try JSON.decode(type, from: Array(buffer.readableBytesView)) } catch {
            throw HTTPError(.badRequest, message: "the request body is not what this route reads")
        }
    }

    static func text(_ value: some Encodable) -> String {
        String(decoding: (try? JSON.encode(value)) ?? Array("{}".utf8), as: UTF8.self)
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let bytes = (try? JSON.encode(value)) ?? Array("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// The body of `POST /api/lock`.
struct LockRequest: Decodable { var locked: Bool }

/// The body of `POST /api/authorize`.
struct AuthorizeRequest: Decodable {
    var app: String
    var decision: String
}

/// What the console answers when the host refused or could not be reached.
struct HostRefusal: Encodable {
    var error: String
    var code: String?
}
