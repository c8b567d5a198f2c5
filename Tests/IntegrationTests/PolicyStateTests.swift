import Foundation
import IntentProtocol
import Testing

/// Policy state on a full disk: what the host acknowledges is on disk, and what it could
/// not save is refused with a clear error and changes nothing.
@Suite("Policy state on a full disk", .serialized)
struct PolicyStateTests {
    /// A small tmpfs mounted over the host's state directory, which the test can fill.
    final class SmallDisk {
        let url: URL
        private var filler: URL { url.appendingPathComponent("filler") }

        init?(at url: URL) {
            self.url = url
            guard Self.run("/bin/mount", "-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", url.path) == 0 else { return nil }
        }

        deinit { _ = Self.run("/bin/umount", "-l", url.path) }

        /// Writes until the disk is full.
        func fill() {
            let fd = open(filler.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            guard fd >= 0 else { return }
            defer { close(fd) }
            let block = [UInt8](repeating: 0x2E, count: 4096)
            while Foundation.write(fd, block, block.count) > 0 {}
        }

        func free() { try? FileManager.default.removeItem(at: filler) }

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
    }

    /// Runs intentctl against `host` with its output kept off the full disk.
    static func ctl(_ host: TestHost, _ arguments: String...) throws -> CommandResult {
        let p = Process()
        p.executableURL = Products.url("intentctl")
        p.arguments = arguments + ["--state-dir", host.state.path]
        let stdout = Pipe(), stderr = Pipe()
        p.standardOutput = stdout
        p.standardError = stderr
        try p.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CommandResult(status: p.terminationStatus, stdout: String(decoding: output, as: UTF8.self), stderr: String(decoding: errors, as: UTF8.self))
    }

    @Test("On a full disk, lock, authorize and untrust fail with a clear error and change nothing; a restart finds the lock as last acknowledged")
    func fullDisk() throws {
        let host = try TestHost(["--extensions", "messaging"], start: false)
        defer { host.stop(); host.removeState() }
        guard let disk = SmallDisk(at: host.state) else {
            print("skipped: cannot mount a tmpfs here (needs root and mount rights)")
            return
        }
        try host.startHost()
        try host.waitFor(["MonkeyChat"])
        #expect(try Self.ctl(host, "authorize", "MonkeyChat", "allow").status == 0)

        disk.fill()
        let lock = try Self.ctl(host, "lock")
        #expect(lock.status == 5, "\(lock.stdout) \(lock.stderr)")
        #expect(lock.stderr.contains("no space left"), "\(lock.stderr)")
        #expect(lock.stderr.contains("stays unlocked"), "\(lock.stderr)")
        let deny = try Self.ctl(host, "authorize", "MonkeyChat", "deny")
        #expect(deny.status == 5, "\(deny.stdout) \(deny.stderr)")
        #expect(deny.stderr.contains("stateNotSaved"), "\(deny.stderr)")
        let vocab = try Self.ctl(host, "vocab", "MonkeyChat", "contactName", "Zuzu")
        #expect(vocab.status == 5, "\(vocab.stdout) \(vocab.stderr)")
        // The trust store too: a key untrusted must be untrusted on disk, or a crash trusts it again.
        let untrust = try Self.ctl(host, "extensions", "untrust", "com.monkeychat.intents")
        #expect(untrust.status != 0, "\(untrust.stdout) \(untrust.stderr)")
        #expect(untrust.stderr.contains("no space left"), "\(untrust.stderr)")
        #expect(try Self.ctl(host, "extensions", "list").stdout.contains("com.monkeychat.intents"))
        let status = try host.waitFor(["MonkeyChat"])
        #expect(status.locked == false)
        #expect(status.extensions.first { $0.appName == "MonkeyChat" }?.authorization == .authorized)
        #expect(try Self.ctl(host, "vocab", "MonkeyChat").stdout.contains("Zuzu") == false)

        // Lock while there is room; then an unlock that cannot be saved leaves it locked,
        // and so does a restart.
        disk.free()
        #expect(try Self.ctl(host, "lock").status == 0)
        disk.fill()
        #expect(try Self.ctl(host, "unlock").status == 5)
        #expect(try host.waitFor(["MonkeyChat"]).locked)
        host.stop()
        disk.free()
        try host.startHost()
        #expect(try host.waitFor(["MonkeyChat"]).locked)
        #expect(try Self.ctl(host, "send", "MonkeyChat", "SendMessage", "recipients=Kiki", "content=hi").status == 4)
    }
}
