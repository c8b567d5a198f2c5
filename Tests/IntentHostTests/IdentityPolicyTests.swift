import Foundation
import Testing
import ZeroMQ
@testable import IntentHost
@testable import IntentProtocol

/// The identity checks of a registration: the key, the pinned manifest and the names.
@Suite("Identity policy")
final class IdentityPolicyTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identity-policy-\(UUID().uuidString)")
    let monkeyKey: String
    let squatKey: String
    let trust: TrustStore

    init() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        monkeyKey = try CurveKeyPair.generate().publicKey
        squatKey = try CurveKeyPair.generate().publicKey
        let url = directory.appendingPathComponent("trust.json")
        let (monkey, squat) = (monkeyKey, squatKey)
        try TrustFile.update(url) { store in
            store.trust(monkey, bundle: "com.monkeychat.intents", origin: "trusted")
            store.trust(squat, bundle: "com.example.squat", origin: "trusted")
        }
        trust = TrustStore(url: url, localClientKey: try CurveKeyPair.generate().publicKey)
        trust.pin(Self.monkeyChat)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    static var monkeyChat: Registration {
        var r = Registration(
            bundleIdentifier: "com.monkeychat.intents", appName: "MonkeyChat", alternativeAppNames: [AlternativeAppName(name: "Monkey Chat")],
            usageDescription: "Messages.", intentsSupported: ["SendMessage", "SearchForMessages"], intentsRestrictedWhileLocked: ["SendMessage"])
        r.processIdentifier = 1
        return r
    }

    func code(_ r: Registration, key: String?) -> Rejection.Code? {
        (RegistrationPolicy.checkKey(r, key: key, trust: trust) ?? RegistrationPolicy.checkPin(r, trust: trust))?.0
    }

    @Test("The bound key with the pinned manifest is accepted; any other key is untrusted")
    func keys() throws {
        #expect(code(Self.monkeyChat, key: monkeyKey) == nil)
        #expect(code(Self.monkeyChat, key: squatKey) == .untrustedIdentity)
        #expect(code(Self.monkeyChat, key: try CurveKeyPair.generate().publicKey) == .untrustedIdentity)
        #expect(code(Self.monkeyChat, key: nil) == .untrustedIdentity)
    }

    @Test("An intent misspelled in a pinned manifest is said as unknown with the one meant, not as a manifest changed, and the change says how to accept it")
    func manifestBeforePin() throws {
        let catalog = try Catalog(directory: catalogDirectory)
        var misspelled = Self.monkeyChat
        misspelled.intentsSupported.append("SendMesage")
        let unknown = RegistrationPolicy.check(misspelled, key: monkeyKey, trust: trust, catalog: catalog, serving: nil)
        #expect(unknown?.0 == .unknownIntent)
        #expect(unknown?.1.contains("SendMesage is not in the host's catalog (did you mean SendMessage?)") == true, "\(unknown?.1 ?? "")")
        var more = Self.monkeyChat
        more.intentsSupported.append("SetMessageAttribute")
        let changed = RegistrationPolicy.check(more, key: monkeyKey, trust: trust, catalog: catalog, serving: nil)
        #expect(changed?.0 == .manifestChanged)
        #expect(changed?.1.contains("--print-identity, into intentctl extensions trust -") == true, "\(changed?.1 ?? "")")
        #expect(changed?.1.contains("KEY") == false)
    }

    @Test("A weaker restricted set, other intents or another app name under a pinned bundle id are refused")
    func pins() {
        var weaker = Self.monkeyChat
        weaker.intentsRestrictedWhileLocked = []
        #expect(code(weaker, key: monkeyKey) == .manifestChanged)
        var more = Self.monkeyChat
        more.intentsSupported.append("SetMessageAttribute")
        #expect(code(more, key: monkeyKey) == .manifestChanged)
        var renamed = Self.monkeyChat
        renamed.appName = "MonkeyChat Pro"
        #expect(code(renamed, key: monkeyKey) == .manifestChanged)
        var reordered = Self.monkeyChat
        reordered.intentsSupported.reverse()
        #expect(code(reordered, key: monkeyKey) == nil, "order does not matter")
    }

    @Test("No name may be another pinned app's name, alias or bundle id", arguments: [
        ("monkey chat", nil), ("Squat", "MonkeyChat"), ("com.monkeychat.intents", nil), ("MONKEYCHAT", nil),
    ] as [(String, String?)])
    func names(_ name: String, _ alias: String?) {
        var r = Registration(bundleIdentifier: "com.example.squat", appName: name, usageDescription: "u", intentsSupported: ["SendMessage"])
        r.alternativeAppNames = alias.map { [AlternativeAppName(name: $0)] } ?? []
        #expect(code(r, key: squatKey) == .appTaken)
    }

    @Test("A pronunciation may not be another pinned app's name either: requests are routed by it")
    func pronunciationCannotTakeAName() {
        var r = Registration(bundleIdentifier: "com.example.squat", appName: "Squat", usageDescription: "u", intentsSupported: ["SendMessage"])
        r.alternativeAppNames = [AlternativeAppName(name: "Squatter", pronunciation: "Monkey Chat")]
        #expect(code(r, key: squatKey) == .appTaken)
        r.alternativeAppNames = [AlternativeAppName(name: "Squatter", pronunciation: "squat her")]
        #expect(code(r, key: squatKey) != .appTaken)
    }

    @Test("An app the host has known keeps its own name, even if another app claimed it as an alias first")
    func knownAppsKeepTheirOwnNames() {
        var squat = Registration(bundleIdentifier: "com.example.squat", appName: "Squat", usageDescription: "u", intentsSupported: ["SendMessage"])
        squat.alternativeAppNames = [AlternativeAppName(name: "Squatter", pronunciation: "MonkeyChat")]
        var known = KnownApps()
        known.note(squat)
        known.note(Self.monkeyChat)
        #expect(known.registration(named: "monkey chat")?.bundleIdentifier == Self.monkeyChat.bundleIdentifier)
        #expect(known.registration(named: "Squatter")?.bundleIdentifier == "com.example.squat")
    }

    @Test("Invalid names and an empty usage description are refused before anything else")
    func validation() {
        var r = Self.monkeyChat
        r.usageDescription = ""
        #expect(code(r, key: monkeyKey) == .invalidManifest)
        r = Self.monkeyChat
        r.bundleIdentifier = "../../x"
        #expect(code(r, key: monkeyKey) == .invalidManifest)
    }
}
