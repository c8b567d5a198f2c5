import Foundation
import Testing
@testable import IntentHost
@testable import IntentProtocol

let catalogDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Protocols/domains")

func monkeyChat(_ bundle: String = "com.monkeychat.intents", supported: [String] = ["SendMessage", "SearchForMessages"],
    restricted: [String] = ["SendMessage"]) -> Registration
{
    Registration(
        bundleIdentifier: bundle, appName: "MonkeyChat", alternativeAppNames: [AlternativeAppName(name: "Monkey Chat")],
        intentsSupported: supported, intentsRestrictedWhileLocked: restricted)
}

@Suite("Registration and admission policy")
struct PolicyTests {
    let catalog: Catalog
    init() throws { catalog = try Catalog(directory: catalogDirectory) }

    @Test("A registration is accepted when every rule holds")
    func acceptsAGoodRegistration() {
        #expect(RegistrationPolicy.checkWithoutIdentity(monkeyChat(), catalog: catalog, serving: nil) == nil)
        #expect(RegistrationPolicy.checkWithoutIdentity(monkeyChat(), catalog: catalog, serving: monkeyChat()) == nil,
            "another instance of the same extension is welcome")
    }

    @Test("Each broken rule gives its own rejection code", arguments: [
        (monkeyChat(supported: ["SearchForMessages"]), Rejection.Code.restrictedNotSupported),
        (monkeyChat(supported: ["SendMessage", "OrderPizza"], restricted: []), .unknownIntent),
        (monkeyChat(supported: [], restricted: []), .invalidManifest),
    ])
    func rejectsBrokenRegistrations(registration: Registration, code: Rejection.Code) {
        #expect(RegistrationPolicy.checkWithoutIdentity(registration, catalog: catalog, serving: nil)?.0 == code)
    }

    @Test("A registration listing too many intents is refused, and the reason for unknown ones stays short and loggable")
    func intentListsAreBounded() {
        let many = (0..<300).map { "Intent\($0)" }
        #expect(RegistrationPolicy.checkWithoutIdentity(monkeyChat(supported: many, restricted: []), catalog: catalog, serving: nil)?.0 == .invalidManifest)
        let long = (0..<200).map { "Evil\u{1B}[2J" + String(repeating: "x", count: 200) + "\($0)" }
        let rejection = RegistrationPolicy.checkWithoutIdentity(monkeyChat(supported: long, restricted: []), catalog: catalog, serving: nil)
        #expect(rejection?.0 == .unknownIntent)
        #expect((rejection?.1.utf8.count ?? .max) < 1_200 && rejection?.1.contains("and 192 more") == true, "\(rejection?.1 ?? "")")
        #expect(rejection?.1.contains("\u{1B}") == false)
    }

    @Test("A second bundle identifier for a served app is refused")
    func appTakenByAnotherBundle() {
        let rejection = RegistrationPolicy.checkWithoutIdentity(monkeyChat("com.copycat.intents"), catalog: catalog, serving: monkeyChat())
        #expect(rejection?.0 == .appTaken)
        #expect(rejection?.1.contains("com.monkeychat.intents") == true)
    }

    @Test("A new instance of a served app must declare the same intents as the running ones")
    func instancesMustAgree() {
        let other = monkeyChat(supported: ["SendMessage", "SearchForMessages", "SetMessageAttribute"])
        #expect(RegistrationPolicy.checkWithoutIdentity(other, catalog: catalog, serving: monkeyChat())?.0 == .invalidManifest)
    }

    @Test("An app the host has known but that has no instance is admitted to wait, under the same checks; one never known is unknown")
    func knownAppsWait() throws {
        let registry = ExtensionRegistry()
        let lock = LockPolicy(file: nil, initial: true)
        let known: (String) -> Registration? = { PeerNames.fold($0) == "monkeychat" ? monkeyChat() : nil }
        func admit(_ app: String, _ intent: String) -> Result<Route, Refusal> {
            Admission.admit(app: app, intent: intent, registry: registry, catalog: catalog, lock: lock, known: known)
        }
        let route = try admit("Monkey Chat", "SearchForMessages").get()
        #expect(route.app == nil, "no instance: the request waits for one")
        #expect(route.registration.appName == "MonkeyChat")
        func code(_ app: String, _ intent: String) -> ErrorCode? {
            if case .failure(let refusal) = admit(app, intent) { return refusal.code }
            return nil
        }
        #expect(code("MonkeyChat", "SendMessage") == .requiresUnlock, "the lock applies while it waits")
        #expect(code("MonkeyChat", "SetMessageAttribute") == .unknownIntent)
        #expect(code("GorillaGram", "SearchForMessages") == .unknownApp)
    }

    @Test("More than three alternative names, or another protocol version, is refused")
    func limitsAreEnforced() {
        var many = monkeyChat()
        many.alternativeAppNames = (1...4).map { AlternativeAppName(name: "Chat \($0)") }
        #expect(RegistrationPolicy.checkWithoutIdentity(many, catalog: catalog, serving: nil)?.0 == .invalidManifest)
        var future = monkeyChat()
        future.protocolVersion = 3
        #expect(RegistrationPolicy.checkWithoutIdentity(future, catalog: catalog, serving: nil)?.0 == .unsupportedVersion)
    }

    @Test("Admission checks the app, then the intent, then the lock")
    func admissionOrder() throws {
        var registry = ExtensionRegistry()
        _ = registry.add(monkeyChat(), routingID: [1], now: .now)
        var lock = LockPolicy(file: nil, initial: true)
        func code(_ app: String, _ intent: String) -> ErrorCode? {
            if case .failure(let refusal) = Admission.admit(app: app, intent: intent, registry: registry, catalog: catalog, lock: lock) {
                return refusal.code
            }
            return nil
        }
        #expect(code("Nope", "OrderPizza") == .unknownApp)
        #expect(code("MonkeyChat", "OrderPizza") == .unknownIntent)
        // An intent the catalog does not have is said with what the app does, and made loggable.
        if case .failure(let refusal) = Admission.admit(app: "MonkeyChat", intent: "Order\u{1B}Pizza", registry: registry, catalog: catalog, lock: lock) {
            #expect(refusal.message.contains("(MonkeyChat supports SendMessage"), "\(refusal.message)")
            #expect(!refusal.message.unicodeScalars.contains("\u{1B}"), "\(refusal.message)")
        }
        #expect(code("MonkeyChat", "SetMessageAttribute") == .unknownIntent, "in the catalog but not supported by the app")
        #expect(code("MonkeyChat", "SendMessage") == .requiresUnlock)
        #expect(code("monkey chat", "SearchForMessages") == nil, "not restricted, so allowed while locked")
        try lock.set(locked: false)
        #expect(code("MonkeyChat", "INSendMessageIntent") == nil)
    }

    @Test("The lock state is saved and read back")
    func lockStatePersists() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        var lock = LockPolicy(file: file, initial: false)
        #expect(!lock.locked)
        try lock.set(locked: true)
        #expect(LockPolicy(file: file, initial: false).locked)
    }
}

@Suite("Extension registry")
struct RegistryTests {
    @Test("Instances of one app are used in turn, and the app goes with its last instance")
    func roundRobinAndRemoval() {
        var registry = ExtensionRegistry()
        _ = registry.add(monkeyChat(), routingID: [1], now: .now)
        _ = registry.add(monkeyChat(), routingID: [2], now: .now)
        let entry = registry.app(named: "MonkeyChat")
        #expect([entry?.nextInstance(), entry?.nextInstance(), entry?.nextInstance()] == [[1], [2], [1]])
        registry.remove([1])
        #expect(entry?.nextInstance() == [2])
        #expect(registry.status(locked: false).extensions.first?.instances == 1)
        registry.remove([2])
        #expect(entry?.nextInstance() == nil, "a route cached before the last instance left finds none")
        #expect(registry.app(named: "MonkeyChat") == nil)
        #expect(registry.app(named: "Monkey Chat") == nil, "aliases go too")
    }

    @Test("Apps are found by name, alternative name or bundle id, ignoring case, spaces and punctuation")
    func namesAreFolded() {
        var registry = ExtensionRegistry()
        _ = registry.add(monkeyChat(), routingID: [1], now: .now)
        for name in ["MonkeyChat", "monkeychat", "Monkey Chat", "monkey-chat", "com.monkeychat.intents"] {
            #expect(registry.app(named: name)?.registration.appName == "MonkeyChat", "\(name)")
        }
    }

    @Test("An app's own name wins over another app's alternative name")
    func ownNameWins() {
        var registry = ExtensionRegistry()
        var squatter = monkeyChat("com.squat.intents")
        squatter.appName = "Squat"
        squatter.alternativeAppNames = [AlternativeAppName(name: "List-o-Mat")]
        _ = registry.add(squatter, routingID: [1], now: .now)
        var lists = monkeyChat("com.listomat.intents")
        lists.appName = "List-o-Mat"
        _ = registry.add(lists, routingID: [2], now: .now)
        #expect(registry.app(named: "ListOMat")?.registration.appName == "List-o-Mat")
    }

    @Test("Only the most recent rejections are kept")
    func rejectionsAreBounded() {
        var registry = ExtensionRegistry()
        for i in 0..<(ExtensionRegistry.rejectionsKept + 5) {
            registry.reject(Rejection(code: .appTaken, reason: "\(i)", bundleIdentifier: "b", appName: "A", time: ""))
        }
        #expect(registry.rejections.count == ExtensionRegistry.rejectionsKept)
        #expect(registry.rejections.last?.reason == "\(ExtensionRegistry.rejectionsKept + 4)")
    }
}

@Suite("Pending requests")
struct PendingRequestsTests {
    func entry(_ id: UInt64, _ stage: Stage, key: String? = nil, deadline: ContinuousClock.Instant) -> PendingRequests.Entry {
        PendingRequests.Entry(
            origin: .client(routingID: [1], requestID: RequestID(id)), app: "A", intent: "SendMessage", stage: stage,
            body: Body([]), key: key, deadline: deadline)
    }

    @Test("Requests expire in deadline order, answered ones are skipped, and only their instance may answer")
    func expiry() {
        var pending = PendingRequests()
        let now = ContinuousClock.now
        let a = pending.attach(pending.insert(entry(1, .resolve, deadline: now + .seconds(1))), to: [9])
        let b = pending.attach(pending.insert(entry(2, .resolve, deadline: now + .seconds(2))), to: [9])
        _ = pending.attach(pending.insert(entry(3, .resolve, deadline: now + .seconds(3))), to: [8])
        #expect(pending.take(b, from: [8]) == nil, "a reply from another instance is not accepted")
        #expect(pending.take(b, from: [9]) != nil)
        #expect(pending.expire(now: now + .milliseconds(2500)).count == 1)
        #expect(pending.take(a, from: [9]) == nil, "expired")
        let orphaned = pending.orphan(sentTo: [8], died: true)
        #expect(orphaned.count == 1)
        for id in orphaned { pending.park(id) }
        #expect(pending.waiting(for: "A").count == 1, "a read whose instance went away waits for another")
        #expect(pending.expire(now: now + .seconds(3)).count == 1, "until its own deadline")
        #expect(pending.count == 0)
        #expect(pending.waiting(for: "A").count == 0 && pending.waitingCount == 0 && pending.waitingBytes == 0)
    }

    @Test("Work waiting for an app is counted in requests and bytes, comes back in arrival order, and says it was never sent")
    func waitingForAnApp() {
        var pending = PendingRequests()
        let now = ContinuousClock.now
        var ids: [UInt64] = []
        for i in 0..<3 {
            ids.append(pending.insert(PendingRequests.Entry(
                origin: .client(routingID: [1], requestID: RequestID(UInt64(i))), app: "A", intent: "SendMessage",
                stage: .handle, body: Body([UInt8](repeating: 0, count: 10)), key: "k\(i)", deadline: now + .seconds(1))))
        }
        for id in ids.reversed() { pending.park(id) }
        pending.park(ids[0])
        #expect(pending.waiting(for: "a") == (3, 30), "by folded name, each once")
        #expect(pending.waitingCount == 3 && pending.waitingBytes == 30)
        #expect(pending.waitingByApp == ["A": 3])
        pending.remove(ids[1])
        #expect(pending.waiting(for: "A") == (2, 20))
        #expect(pending.entry(ids[0])?.wasSent == false, "a handle that waited was never sent")
        #expect(pending.unpark("A") == [ids[0], ids[2]], "in the order they came")
        #expect(pending.waitingCount == 0 && pending.waitingBytes == 0 && pending.waitingByApp.isEmpty)
        let request = pending.attach(ids[0], to: [9])
        #expect(pending.entry(ids[0])?.wasSent == true)
        pending.detach(request)
        #expect(pending.entry(ids[0])?.wasSent == false, "a sending that never left does not count")
    }

    @Test("A slow read is due to go to a second instance once, and the first reply from either answers it")
    func slowReads() {
        var pending = PendingRequests()
        let now = ContinuousClock.now
        let read = pending.insert(entry(1, .confirm, deadline: now + .seconds(4)))
        let handle = pending.insert(entry(2, .handle, key: "k", deadline: now + .seconds(4)))
        let first = pending.attach(read, to: [9])
        _ = pending.attach(handle, to: [9])
        #expect(pending.slowReads(now: now + .seconds(1), after: .seconds(2), timeout: .seconds(4)).isEmpty)
        #expect(pending.slowReads(now: now + .seconds(3), after: .seconds(2), timeout: .seconds(4)) == [read], "a handle is never sent twice")
        #expect(pending.slowReads(now: now + .seconds(3), after: .seconds(2), timeout: .seconds(4)).isEmpty, "once")
        pending.markHedged(read)
        let second = pending.attach(read, to: [8])
        #expect(pending.take(second, from: [8]) != nil)
        #expect(pending.take(first, from: [9]) == nil, "the other sending is late now")
    }

    @Test("STATUS never exceeds the message limit it announces: the oldest rejections, then the last apps, are left out")
    func statusFitsTheLimit() throws {
        let rejections = (0..<50).map { i in
            Rejection(code: .invalidManifest, reason: String(repeating: "r", count: 200), bundleIdentifier: "b\(i)", appName: "A\(i)", time: "t")
        }
        let apps = (0..<20).map { i in
            ExtensionStatus(
                appName: "App\(i)", bundleIdentifier: "org.example.app\(i)", alternativeAppNames: [], usageDescription: String(repeating: "u", count: 400),
                intentsSupported: ["SendMessage"], intentsRestrictedWhileLocked: [], instances: 1, processIdentifiers: [i])
        }
        let status = HostStatus(locked: false, extensions: apps, rejected: rejections, processIdentifier: 1)
        let whole = StatusBound.fit(status, within: 1 << 20)
        #expect(whole.maxMessageBytes == 1 << 20 && whole.truncated == nil && whole.rejected.count == 50)
        for limit in [12_000, 5_000, 300] {
            let fitted = StatusBound.fit(status, within: limit)
            #expect(try JSON.encode(fitted).count <= limit, "limit \(limit)")
            #expect(fitted.truncated == true && fitted.maxMessageBytes == limit)
            #expect(fitted.rejected.last?.bundleIdentifier == (fitted.rejected.isEmpty ? nil : "b49"), "the newest rejections stay")
            #expect(fitted.extensions.first?.appName == (fitted.extensions.isEmpty ? nil : "App0"), "the first apps stay")
        }
    }
}

extension RegistrationPolicy {
    /// The checks of a registration that do not need its key.
    static func checkWithoutIdentity(_ registration: Registration, catalog: Catalog, serving: Registration?) -> (Rejection.Code, String)? {
        checkManifest(registration, catalog: catalog) ?? checkSharing(registration, serving: serving)
    }
}
