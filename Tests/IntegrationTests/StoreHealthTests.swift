import Foundation
import IntentProtocol
import Testing

/// An extension's store is healthy or it is not used: a damaged one keeps the extension
/// from registering, and a clean stop leaves the database file whole.
@Suite("Store health", .serialized)
struct StoreHealthTests {
    func send(_ host: TestHost, _ intent: String, _ parameters: String...) throws -> CommandResult {
        try host.ctl(["send", "List-o-Mat", intent] + parameters + ["--json"])
    }

    func database(_ host: TestHost, _ suffix: String = "") -> URL {
        host.state.appendingPathComponent("sandboxes/com.listomat.intents/listomat.sqlite\(suffix)")
    }

    @Test("A damaged database keeps List-o-Mat from registering: status shows it unhealthy and why, no write is acknowledged, and once repaired a restart serves again")
    func damagedStoreIsNotUsed() throws {
        let host = try TestHost(["--extensions", "lists"], start: false)
        defer { host.stop(); host.removeState() }
        try FileManager.default.createDirectory(at: database(host).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 16_384).write(to: database(host))
        try host.startHost()

        let deadline = ContinuousClock.now + .seconds(20)
        var launch: LaunchStatus?
        while launch?.state != .unhealthy, ContinuousClock.now < deadline {
            launch = try? host.client(timeout: .seconds(2)).status().launches?.first { $0.name == "lists" }
            usleep(50_000)
        }
        #expect(launch?.state == .unhealthy, "\(String(describing: launch))\n\(host.hostLog)")
        #expect(launch?.lastExit == "exited with status 74")
        #expect(launch?.lastError?.contains("the store /var/sandbox/listomat.sqlite is damaged") == true, "\(String(describing: launch))")
        #expect(try host.client().status().extensions.isEmpty, "a damaged List-o-Mat registered")

        let write = try send(host, "CreateTaskList", "title=Groceries")
        #expect(write.status != 0, "a write was acknowledged: \(write.stdout)")
        #expect(write.json?["outcome"] != "success")

        // Repaired (here: the damaged file moved away), and restarted by the user.
        try FileManager.default.removeItem(at: database(host))
        #expect(try host.ctl("restart", "List-o-Mat").status == 0)
        try host.waitFor(["List-o-Mat"])
        #expect(try send(host, "CreateTaskList", "title=Groceries").json?["outcome"] == "success")
    }

    @Test("On a clean stop List-o-Mat checkpoints and closes its database: the file alone holds every acknowledged write")
    func cleanStopCheckpoints() throws {
        let host = try TestHost(["--extensions", "lists"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["List-o-Mat"])
        for title in ["Groceries", "Hardware", "Books", "Garden"] {
            #expect(try send(host, "CreateTaskList", "title=\(title)").json?["outcome"] == "success")
        }
        let wal = database(host, "-wal")
        let walBefore = (try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? Int) ?? 0
        #expect(walBefore > 0, "the writes were expected in the write-ahead log before the stop")

        host.stop()
        let walAfter = (try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? Int) ?? 0
        #expect(walAfter == 0, "\(walAfter) bytes left in the write-ahead log after a clean stop")
        let lines = host.extensionLines("com.listomat.intents")
        #expect(lines.contains { $0.label == "List-o-Mat" && $0.level == "info" && $0.message == "stopped" }, "\(lines)")
        let file = try Data(contentsOf: database(host))
        for title in ["Groceries", "Hardware", "Books", "Garden"] {
            #expect(file.range(of: Data(title.utf8)) != nil, "\(title) is not in the database file itself")
        }
    }

    @Test("A database damaged while List-o-Mat runs: the write that meets the damage is not acknowledged, and List-o-Mat stops and shows as unhealthy")
    func damageAtRunTime() throws {
        let host = try TestHost(["--extensions", "lists"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["List-o-Mat"])
        for i in 1...30 {
            #expect(try send(host, "CreateTaskList", "title=list \(i) \(String(repeating: "x", count: 300))").json?["outcome"] == "success")
        }
        host.stop()  // checkpointed: the rows are in the database file itself
        try host.startHost()
        try host.waitFor(["List-o-Mat"])

        let file = try FileHandle(forWritingTo: database(host))
        try file.seek(toOffset: 4096)
        try file.write(contentsOf: Data(repeating: 0x09, count: 4096 * 8))
        try file.close()

        let write = try send(host, "CreateTaskList", "title=after the damage")
        #expect(write.json?["outcome"] != "success", "a write into a damaged database was acknowledged: \(write.stdout)")
        let deadline = ContinuousClock.now + .seconds(20)
        var launch: LaunchStatus?
        while launch?.state != .unhealthy, ContinuousClock.now < deadline {
            launch = try? host.client(timeout: .seconds(2)).status().launches?.first { $0.name == "lists" }
            usleep(50_000)
        }
        #expect(launch?.state == .unhealthy, "\(String(describing: launch))")
        #expect(launch?.lastError?.contains("the store is damaged") == true, "\(String(describing: launch))")
    }
}
