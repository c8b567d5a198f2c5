import Foundation
import Testing
import ZeroMQ
@testable import IntentProtocol

@Suite("Peer names, keys and the trust file")
struct PeerNamesTests {
    @Test("Folding keeps exactly the letters and digits Foundation's alphanumerics keeps, lower-cased")
    func foldKeepsAlphanumerics() {
        let ascii = String(decoding: (0..<128).map(UInt8.init), as: UTF8.self)
        let samples = [ascii, "List-o-Mat", "ListOMat", "Zippy X", "Café Crème", "Cafe\u{301}", "Ünïcödé ß", "Ω-Mega 42", "東京タワー", "١٢٣ arabic", "emoji 🐒 monkey", "\u{0}\u{7F}tab\there", "ǅemal", "ⅫＡＢＣ１２３"]
        for text in samples {
            let expected = String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
            #expect(PeerNames.fold(text) == expected, "\(text.debugDescription)")
        }
    }

    @Test("Bundle ids are reverse-DNS: path-like, absolute, overlong and control-character ids are refused", arguments: [
        "../../decoy", "/etc/passwd", "com.example/../x", "com..example", ".com.example", "com.example.", "monkeychat",
        "com.-example", "com.example.\u{1B}[31m", "com.exa mple", "com.ex\u{0}ample", "", "com." + String(repeating: "a", count: 160),
    ])
    func badBundleIdentifiers(_ id: String) {
        #expect(!PeerNames.isBundleIdentifier(id))
    }

    @Test("Ordinary bundle ids pass", arguments: ["com.monkeychat.intents", "org.intentd.bench", "com.zippy.rides.intents", "io.x-y.Z9"])
    func goodBundleIdentifiers(_ id: String) {
        #expect(PeerNames.isBundleIdentifier(id))
    }

    @Test("Names are bounded and free of control characters; an empty usage description is refused")
    func namesAndUsage() {
        #expect(PeerNames.problem(withName: "MonkeyChat") == nil)
        #expect(PeerNames.problem(withName: "Café Ünïcode") == nil)
        #expect(PeerNames.problem(withName: String(repeating: "a", count: 65)) != nil)
        #expect(PeerNames.problem(withName: "bell\u{07}") != nil)
        #expect(PeerNames.problem(withName: "right\u{202E}left") != nil)
        #expect(PeerNames.problem(withName: "  ") != nil)
        #expect(PeerNames.problem(withUsageDescription: "") != nil)
        #expect(PeerNames.problem(withUsageDescription: " \n") != nil)
        #expect(PeerNames.problem(withUsageDescription: "Sends your messages.") == nil)
    }

    @Test("Names fold to their lower-case letters and digits, accented ones too")
    func folding() {
        #expect(PeerNames.fold("List-o-Mat") == "listomat")
        #expect(PeerNames.fold("Monkey Chat!") == "monkeychat")
        #expect(PeerNames.fold("Café Ünï-code 2") == "caféünïcode2")
        #expect(PeerNames.fold("Cafe\u{301}") == PeerNames.fold("Caf\u{E9}"))
        #expect(PeerNames.fold("--") == "")
    }

    @Test("Printed peer strings keep their lines and lose their terminal controls, and JSON stays the same JSON")
    func printable() throws {
        #expect(PeerNames.printable("plain\ttext\nnext line: Café 👨‍👩‍👧") == "plain\ttext\nnext line: Café 👨‍👩‍👧")
        #expect(PeerNames.printable("a\u{1B}]0;owned\u{07}b\r") == "a\\u001B]0;owned\\u0007b\\u000D")
        #expect(PeerNames.printable("x\u{9B}2J\u{202E}gpj.exe") == "x\\u009B2J\\u202Egpj.exe")
        let json = String(decoding: try JSON.encode(["name": "right\u{202E}left\u{1B}"]), as: UTF8.self)
        let printed = PeerNames.printable(json)
        #expect(!printed.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x1B })
        #expect(try JSONValue.parse(Array(printed.utf8)) == JSONValue.parse(Array(json.utf8)))
    }

    @Test("Logged peer strings are escaped and capped")
    func loggable() {
        #expect(PeerNames.loggable("a\u{1B}[31mb\n") == "a\\u{1B}[31mb\\n")
        #expect(PeerNames.loggable(String(repeating: "x", count: 500)).count == PeerNames.loggedLength + 1)
    }

    @Test("Fingerprints read like ssh-keygen -l and keys round-trip through Z85")
    func fingerprints() throws {
        let pair = try CurveKeyPair.generate()
        #expect(CurveKeyPair.publicKey(forSecretKey: pair.secretKey) == pair.publicKey)
        let bytes = try #require(CurveKeyPair.decode(pair.publicKey))
        #expect(CurveKeyPair.encode(bytes) == pair.publicKey)
        let fingerprint = CurveKeyPair.fingerprint(of: pair.publicKey)
        #expect(fingerprint.hasPrefix("SHA256:") && fingerprint.count == 7 + 43 && !fingerprint.contains("="))
        // SHA-256 of 32 zero bytes, as `printf '\0%.0s' {1..32} | openssl dgst -sha256 -binary | base64`.
        let zero = try #require(CurveKeyPair.encode([UInt8](repeating: 0, count: 32)))
        #expect(CurveKeyPair.fingerprint(of: zero) == "SHA256:Zmh6rfhivXdsj8GLjp+OIAiXFIVu4jOzkCpZHQ1fKSU")
        #expect(!CurveKeyPair.isKey("short") && CurveKeyPair.publicKey(forSecretKey: "not a key") == nil)
    }

    @Test("Key files are private and trust store updates keep other entries")
    func keyAndTrustFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("peer-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = StateDirectory(explicit: directory.path)
        try StateDirectory.create(state.url)
        #expect(state.ownershipProblem() == nil)
        let keys = try KeyFile.loadOrCreate(state.clientKeyFile)
        #expect(try KeyFile.loadOrCreate(state.clientKeyFile) == keys)
        let mode = try FileManager.default.attributesOfItem(atPath: state.clientKeyFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try KeyFile.publicKey(state.clientKeyFile.path) == keys.publicKey)

        try TrustFile.update(state.trustFile) { $0.trust(keys.publicKey, bundle: "com.example.a", origin: "trusted") }
        try TrustFile.update(state.trustFile) { $0.pins["com.example.a"] = TrustFile.Pin(Registration(bundleIdentifier: "com.example.a", appName: "A", intentsSupported: ["X"])) }
        try TrustFile.update(state.trustFile) { $0.trust(keys.publicKey, bundle: "com.example.a", origin: "trusted") }
        let store = try TrustFile.load(state.trustFile)
        #expect(store.extensions.count == 1)
        #expect(store.pins["com.example.a"] == nil, "trusting again forgets the pin")

        chmod(directory.path, 0o755)
        #expect(state.ownershipProblem()?.contains("chmod 700") == true)
    }
}
