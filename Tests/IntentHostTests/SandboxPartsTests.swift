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

    @Test("The pid status shows for a launch is the extension's own: none before bubblewrap has started it or after the launch ended, never bubblewrap's")
    func launchPids() {
        let ledger = LaunchLedger()
        func shown(_ spawned: pid_t) -> Int? {
            ledger.showing(LaunchStatus(name: "x", appName: "X", bundleIdentifier: "x", state: .running, processIdentifier: Int(spawned))).processIdentifier
        }
        ledger.record("plain", LaunchLedger.Entry(sandbox: SandboxStatus(state: .off), pid: getpid(), sandboxed: false))
        #expect(shown(getpid()) == Int(getpid()))
        ledger.remove("plain")
        #expect(shown(getpid()) == nil, "an ended launch has no pid")
        // A sleep has no child: as a bubblewrap that has not started its extension yet.
        let sleep = Process()
        sleep.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleep.arguments = ["5"]
        guard (try? sleep.run()) != nil else { Issue.record("cannot start /bin/sleep"); return }
        defer { sleep.terminate() }
        ledger.record("wrapped", LaunchLedger.Entry(sandbox: SandboxStatus(state: .on), pid: sleep.processIdentifier, sandboxed: true))
        #expect(shown(sleep.processIdentifier) == nil)
    }

    @Test("A bundle id that could name a path outside the state directory cannot name a sandbox")
    func bundleNames() {
        #expect((try? SandboxProfile.directoryName("com.monkeychat.intents")) == "com.monkeychat.intents")
        for bad in ["", "..", "../etc", "a/b", ".hidden", "a b", "ü"] {
            #expect(throws: ConfigurationError.self) { try SandboxProfile.directoryName(bad) }
        }
        #expect(SandboxProfile.groupName("bench#2") == "bench.2")
        #expect(SandboxProfile.groupName("bench#2") != SandboxProfile.groupName("bench-2"))
    }

    /// A launcher for `extensions`, each name an executable (`/bin/true`) with `manifests`.
    func launcher(_ extensions: [String], manifests: [String: String]) -> ExtensionLauncher {
        var config = HostConfiguration(stateDirectory: StateDirectory(explicit: NSTemporaryDirectory() + "unused-\(UUID().uuidString)"))
        config.extensions = extensions
        for name in manifests.keys { config.executables[name] = "/bin/true" }
        config.manifests = manifests
        return ExtensionLauncher(config: config, ledger: LaunchLedger()) { _ in }
    }

    @Test("An app is launched under one name: a second name declaring its bundle id, a name twice, or a name that is not letters, digits, '-' and '_' is refused")
    func launchNames() throws {
        let root = catalogDirectory.deletingLastPathComponent().deletingLastPathComponent()
        let probe = root.appendingPathComponent("Extensions/Probe/Manifest/Info.plist").path
        let chat = root.appendingPathComponent("Extensions/Messaging/Manifest/Info.plist").path
        #expect(try launcher(["a:2", "b"], manifests: ["a": probe, "b": chat]).resolveAll().map(\.name) == ["a#1", "a#2", "b"])
        #expect(throws: ConfigurationError.self) { try launcher(["a", "b"], manifests: ["a": probe, "b": probe]).resolveAll() }
        #expect(throws: ConfigurationError.self) { try launcher(["a", "a:2"], manifests: ["a": probe]).resolveAll() }
        for bad in ["..", ".", "a.b", "a#1", "a/b", String(repeating: "a", count: 65)] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try launcher([bad], manifests: [bad: probe]).resolveAll() }
        }
    }

    @Test("A log whose rotation finds the disk full keeps its older file, says so once, and goes on once there is room")
    func rotationOnAFullDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Room for the log and one more file: the rotated one then takes the last.
        guard Self.run("/bin/mount", "-t", "tmpfs", "-o", "size=256k,nr_inodes=3,mode=0700", "tmpfs", directory.path) == 0 else {
            print("skipped: cannot mount a tmpfs here (needs root and mount rights)")
            return
        }
        defer { Self.run("/bin/umount", "-l", directory.path) }
        let log = try ExtensionLog(directory: directory, bundleIdentifier: "org.example.app", maxBytes: 1000)
        let line = Array(String(repeating: "x", count: 300).utf8)
        for _ in 0..<3 { #expect(log.write(line) == nil) }
        let older = log.url.appendingPathExtension("1")
        let filler = directory.appendingPathComponent("filler")
        #expect(FileManager.default.createFile(atPath: filler.path, contents: nil))
        #expect(log.write(line) != nil, "the rotation cannot open a new file")
        #expect(log.write(line) == nil, "said once")
        #expect(log.write(line) == nil)
        #expect((try? Data(contentsOf: older))?.count == 900, "the older file is kept")
        try FileManager.default.removeItem(at: filler)
        #expect(log.write(line) == nil)
        #expect((try? Data(contentsOf: log.url))?.count == 300)
    }

    @discardableResult
    static func run(_ arguments: String...) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: arguments[0])
        p.arguments = Array(arguments.dropFirst())
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
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
