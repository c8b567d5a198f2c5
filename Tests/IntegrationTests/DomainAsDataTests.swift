import Foundation
import IntentProtocol
import Synchronization
import Testing
import ZeroMQ

/// An extension written straight against the wire protocol, as one in another language
/// would be: a DEALER socket on its own thread that registers and answers every stage.
final class RawExtension: Sendable {
    let stages = Mutex<[String]>([])
    let registered = Mutex<String?>(nil)
    private let running = Atomic<Bool>(true)

    init(endpoint: String, registration: Registration, security: ConnectionSecurity?) {
        let body = (try? JSON.encode(registration)) ?? []
        Thread.detachNewThread { [self] in
            guard let socket = try? Socket(try Context(), .dealer), (try? security?.apply(to: socket, endpoint: endpoint)) != nil,
                (try? socket.connect(endpoint)) != nil
            else { return }
            _ = try? socket.send(try ExtensionMessage.register(body: Body(body)).frame())
            var poller = Poller()
            poller.add(socket)
            var pendingUpdates: [JSONValue] = []
            while running.load(ordering: .relaxed) {
                guard (try? poller.poll(timeout: 50)) ?? 0 > 0, let frames = try? socket.receiveFrames(wait: false) else { continue }
                switch try? HostToExtension(frames: frames[...]) {
                case .registered?: registered.withLock { $0 = "registered" }
                case .rejected(let code, _)?: registered.withLock { $0 = code }
                case .request(let id, let stage, _, let body)?:
                    let request = try? JSON.decode(StageRequest.self, from: body.bytes)
                    stages.withLock { $0.append("\(stage) \(request?.parameter ?? "")".trimmingCharacters(in: .whitespaces)) }
                    let reply: JSONValue
                    switch stage {
                    case .resolve:
                        let value = request.flatMap { $0.parameters[$0.parameter ?? ""] }
                        reply = ["results": [value.map { ["kind": "success", "value": $0] } ?? ["kind": "notRequired"]]]
                    case .confirm: reply = ["code": "ready"]
                    case .handle where request?.parameters["shots"] == 9:
                        // Long work: answer at once, finish later with a pushed completion.
                        reply = ["code": "inProgress"]
                        let completion: JSONValue = ["sessionId": .string(request?.sessionId ?? ""), "intent": "OrderCoffee", "code": "success"]
                        pendingUpdates.append(completion)
                    case .handle: reply = ["code": "success", "response": ["order": .object(request?.parameters ?? [:])]]
                    }
                    _ = try? socket.send(try ExtensionMessage.reply(id, body: Body(reply.serialized())).frame())
                    for update in pendingUpdates {
                        usleep(200_000)
                        _ = try? socket.send(try ExtensionMessage.update(topic: "completion", body: Body(update.serialized())).frame())
                    }
                    pendingUpdates.removeAll()
                default: break
                }
            }
        }
    }

    func stop() { running.store(false, ordering: .relaxed) }
}

@Suite("Domains as data", .serialized)
struct DomainAsDataTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let builtIn = repository.appendingPathComponent("Protocols/domains").path
    static let fixture = Products.fixtures.appendingPathComponent("domains").path
    static let coffeeShop = Registration(
        bundleIdentifier: "com.example.coffee", appName: "CoffeeShop", usageDescription: "CoffeeShop orders your coffee.",
        intentsSupported: ["OrderCoffee"])

    @Test("A domain defined only in a file is loaded, validated and routed end to end")
    func fixtureDomainRoutes() throws {
        let host = try TestHost(["--catalog", Self.builtIn, "--catalog", Self.fixture])
        defer { host.stop(); host.removeState() }
        let shop = RawExtension(
            endpoint: host.extensionEndpoint, registration: Self.coffeeShop,
            security: try host.extensionSecurity(trustedFor: Self.coffeeShop.bundleIdentifier))
        defer { shop.stop() }
        try host.waitFor(["CoffeeShop"])

        let order = try host.ctl("send", "CoffeeShop", "OrderCoffee", "size=LARGE", "shots=2", "--json")
        #expect(order.status == 0, "\(order.stdout)\(order.stderr)")
        #expect(order.json?["outcome"] == "success")
        #expect(order.json?["response"]?["response"]?["order"] == ["size": "large", "shots": 2], "coerced by the fixture's types")
        #expect(shop.stages.withLock { $0 } == ["resolve size", "resolve shots", "confirm", "handle"])

        let bad = try host.ctl("send", "CoffeeShop", "OrderCoffee", "size=medium", "--json")
        #expect(bad.json?["code"] == "invalidParameter")
        #expect(bad.json?["message"]?.stringValue?.contains("small, large") == true)
    }

    @Test("Long work answers inProgress at once and completes later with a pushed update")
    func inProgressThenCompletion() throws {
        let host = try TestHost(["--catalog", Self.builtIn, "--catalog", Self.fixture])
        defer { host.stop(); host.removeState() }
        let shop = RawExtension(
            endpoint: host.extensionEndpoint, registration: Self.coffeeShop,
            security: try host.extensionSecurity(trustedFor: Self.coffeeShop.bundleIdentifier))
        defer { shop.stop() }
        try host.waitFor(["CoffeeShop"])
        let output = host.state.appendingPathComponent("completion.jsonl")
        let watcher = try TestHost.launch(
            Products.url("intentctl"), ["watch", "CoffeeShop", "--json", "--count", "1", "--for", "10", "--state-dir", host.state.path],
            output: output, environment: [:])
        usleep(500_000)

        let order = try host.ctl("send", "CoffeeShop", "OrderCoffee", "size=small", "shots=9", "--json")
        #expect(order.status == 0)
        #expect(order.json?["outcome"] == "success")
        #expect(order.json?["code"] == "inProgress")
        watcher.waitUntilExit()
        let update = try JSON.decode(Update.self, from: Array(try String(contentsOf: output, encoding: .utf8).utf8.prefix { $0 != 10 }))
        #expect(update.topic == "completion")
        #expect(update.payload["sessionId"] == order.json?["sessionId"], "the completion names the session that asked")
        #expect(update.payload["code"] == "success")
    }

    @Test("Without the domain's file the same extension is rejected: the host knows no intent it was not given")
    func withoutTheFileTheIntentIsUnknown() throws {
        let host = try TestHost(["--catalog", Self.builtIn])
        defer { host.stop(); host.removeState() }
        let shop = RawExtension(
            endpoint: host.extensionEndpoint, registration: Self.coffeeShop,
            security: try host.extensionSecurity(trustedFor: Self.coffeeShop.bundleIdentifier))
        defer { shop.stop() }
        let deadline = ContinuousClock.now + .seconds(10)
        while shop.registered.withLock({ $0 }) == nil && ContinuousClock.now < deadline { usleep(20_000) }
        #expect(shop.registered.withLock { $0 } == "unknownIntent")
    }

    @Test("The built-in domains load together: Messaging, Lists and Notes, Ride Booking")
    func builtInDomainsLoad() throws {
        let catalog = try Catalog(directory: URL(fileURLWithPath: Self.builtIn))
        #expect(Set(catalog.domains.map(\.name)) == ["Messaging", "ListsAndNotes", "RideBooking"])
        for intent in ["CreateNote", "AppendToNote", "AddTasks", "CreateTaskList", "SetTaskAttribute", "SearchForNotebookItems", "SnoozeTasks", "DeleteTasks",
            "ListRideOptions", "RequestRide", "GetRideStatus", "CancelRide", "SendRideFeedback"]
        {
            #expect(catalog.intent(intent) != nil, "\(intent)")
        }
        #expect(catalog.intent("RequestRide")?.requiresUserConfirmation == true)
        #expect(catalog.intent("RequestRide")?.responseCode("failureRequiringAppLaunchPreviousRideNeedsCompletion")?.value == 9)
        #expect(catalog.intent("CancelRide")?.responseCode("success")?.value == 2)
        #expect(catalog.domains.first { $0.name == "RideBooking" }?.enums?["ridePhase"]?.first { $0.name == "approachingPickup" }?.value == 5)
        #expect(catalog.intent("AddTasks")?.parameter("taskTitles")?.isList == true)
    }
}
