import Foundation
import Testing
@testable import IntentHost
@testable import IntentProtocol

/// The parts of the sandbox that need no process: escaping, rotation, names, limits, manifests.
@Suite("Sandbox parts")
struct SandboxPartsTests {
    @Test("Control characters, backslashes and invalid UTF-8 are escaped; other text is kept")
    func escaping() {
        #expect(ExtensionLog.escape(Array("plain text, café ✓".utf8)) == "plain text, café ✓")
        #expect(ExtensionLog.escape(Array("a\u{1B}[2K\r\tb\\".utf8)) == "a\\x1B[2K\\x0D\\x09b\\\\")
        #expect(ExtensionLog.escape([0x41, 0xFF, 0xC3]) == "A\\xFF\\xC3")
        // A right-to-left override could reorder what a reader sees.
        #expect(ExtensionLog.escape(Array("x\u{202E}y".utf8)) == "x\\xE2\\x80\\xAEy")
    }

    @Test("An extension log is rotated once it passes its size, keeping one older file")
    func rotation() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try ExtensionLog(directory: directory, bundleIdentifier: "org.example.app", maxBytes: 2000)
        for i in 0..<100 { log.append(Array("line \(i) \(String(repeating: "x", count: 40))".utf8), from: "app") }
        let current = try String(contentsOf: log.url, encoding: .utf8)
        let older = try String(contentsOf: log.url.appendingPathExtension("1"), encoding: .utf8)
        #expect(current.utf8.count <= 2000 && older.utf8.count <= 2000)
        #expect(current.contains("[app] line 99 "))
        #expect(!FileManager.default.fileExists(atPath: log.url.appendingPathExtension("2").path))
    }

    @Test("A bundle id that could name a path outside the state directory cannot name a sandbox")
    func bundleNames() {
        #expect((try? SandboxProfile.directoryName("com.monkeychat.intents")) == "com.monkeychat.intents")
        for bad in ["", "..", "../etc", "a/b", ".hidden", "a b", "ü"] {
            #expect(throws: ConfigurationError.self) { try SandboxProfile.directoryName(bad) }
        }
        #expect(SandboxProfile.groupName("bench#2") == "bench-2")
    }

    @Test("Per-extension limits override the defaults field by field")
    func limitOverrides() {
        let merged = ResourceLimits.defaults.overridden(by: ResourceLimits(memoryMegabytes: 64))
        #expect(merged.memoryMegabytes == 64 && merged.openFiles == ResourceLimits.defaults.openFiles)
        #expect(merged.shellLimits(cgroup: true) == ["-t", "3600", "-n", "1024"])
        #expect(merged.shellLimits(cgroup: false) == ["-t", "3600", "-n", "1024", "-d", "65536", "-p", "256"])
    }

    @Test("The manifest's IntentdNetworkAccess is read, false when absent, and must be a boolean")
    func networkKey() throws {
        func manifest(_ extra: String) -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>org.example.app</string><key>CFBundleDisplayName</key><string>App</string>
            <key>NSExtension</key><dict><key>NSExtensionAttributes</key><dict>\(extra)
            <key>IntentsSupported</key><array><string>INSendMessageIntent</string></array></dict></dict></dict></plist>
            """
        }
        #expect(try Manifest(data: Data(manifest("<key>IntentdNetworkAccess</key><true/>").utf8)).networkAccess)
        #expect(try !Manifest(data: Data(manifest("").utf8)).networkAccess)
        #expect(throws: ManifestError.self) {
            try Manifest(data: Data(manifest("<key>IntentdNetworkAccess</key><string>yes</string>").utf8))
        }
    }
}
