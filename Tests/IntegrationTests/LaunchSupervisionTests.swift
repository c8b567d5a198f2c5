import Foundation
import IntentProtocol
import Testing

/// `status` tells how every launched extension is doing, and `intentctl restart` cuts its
/// wait short.
@Suite("Launch supervision", .serialized)
struct LaunchSupervisionTests {
    /// A host launching the crashing script as `crasher`, its sandbox, and the script's status file.
    func crasher(exitStatus: Int? = nil) throws -> (TestHost, URL) {
        let host = try TestHost.configured([
            "extensions": ["crasher"],
            "executables": ["crasher": .string(Products.fixtures.appendingPathComponent("crashing-extension.sh").path)],
            "manifests": ["crasher": .string(Products.fixtures.appendingPathComponent("ScriptExtension.plist").path)],
        ], start: false)
        let sandbox = host.state.appendingPathComponent("sandboxes/org.intentd.test.script")
        try FileManager.default.createDirectory(at: sandbox, withIntermediateDirectories: true)
        if let exitStatus { try "\(exitStatus)\n".write(to: sandbox.appendingPathComponent("exit-status"), atomically: true, encoding: .utf8) }
        try host.startHost()
        return (host, sandbox)
    }

    /// Waits until the launch `name` satisfies `condition`; returns it.
    @discardableResult
    func waitForLaunch(_ host: TestHost, _ name: String, timeout: Duration = .seconds(20), _ condition: (LaunchStatus) -> Bool) throws -> LaunchStatus {
        let deadline = ContinuousClock.now + timeout
        var last: LaunchStatus?
        while ContinuousClock.now < deadline {
            last = try? host.client(timeout: .seconds(2)).status().launches?.first { $0.name == name }
            if let last, condition(last) { return last }
            usleep(50_000)
        }
        throw TestError("the launch \(name) never got there; last seen: \(String(describing: last))\n\(host.hostLog)")
    }

    @Test("An extension that keeps crashing shows as crash-looping, with its exit status and the last line it wrote")
    func crashLoopIsShown() throws {
        let (host, _) = try crasher()
        defer { host.stop(); host.removeState() }
        let launch = try waitForLaunch(host, "crasher") { $0.state == .crashLooping }
        #expect(launch.appName == "Script")
        #expect(launch.restarts >= 2)
        #expect(launch.lastExit == "exited with status 1")
        #expect(launch.lastError?.contains("fatal: the store /var/sandbox/store.sqlite is damaged") == true, "\(launch)")
        #expect(launch.restartInSeconds != nil)
        #expect(launch.processIdentifier == nil)

        let text = try host.ctl("status")
        #expect(text.stdout.contains("crasher (Script): crash-looping, restarting in"), "\(text.stdout)")
        #expect(text.stdout.contains("fatal: the store /var/sandbox/store.sqlite is damaged"), "\(text.stdout)")
    }

    @Test("`intentctl restart` of an extension that ignores SIGTERM kills it after a grace and starts it again")
    func restartKillsAnExtensionThatIgnoresSigterm() throws {
        let (host, sandbox) = try crasher()
        defer { host.stop(); host.removeState() }
        try Data().write(to: sandbox.appendingPathComponent("ignore-term"))
        try Data().write(to: sandbox.appendingPathComponent("fixed"))
        let first = try waitForLaunch(host, "crasher") {
            $0.state == .running && $0.processIdentifier != nil && FileManager.default.fileExists(atPath: sandbox.appendingPathComponent("started").path)
        }
        let restart = try host.ctl("restart", "script")
        #expect(restart.status == 0, "\(restart.stdout) \(restart.stderr)")
        let again = try waitForLaunch(host, "crasher", timeout: .seconds(15)) {
            $0.state == .running && $0.processIdentifier != nil && $0.processIdentifier != first.processIdentifier
        }
        #expect(again.restarts > first.restarts)
    }

    @Test("A rejected extension is not restarted until `intentctl restart`, which starts it at once; requests meanwhile fail at once")
    func restartStartsARejectedExtension() throws {
        let (host, sandbox) = try crasher(exitStatus: 78)
        defer { host.stop(); host.removeState() }
        let rejected = try waitForLaunch(host, "crasher") { $0.state == .rejected }
        #expect(rejected.lastExit == "exited with status 78")
        #expect(rejected.restartInSeconds == nil)
        let started = sandbox.appendingPathComponent("started")
        #expect(!FileManager.default.fileExists(atPath: started.path))
        // A request meanwhile is not kept waiting for an app that will not come back by itself.
        let sent = try host.ctl("send", "Script", "SearchForMessages")
        #expect(sent.status == 5, "\(sent.stdout) \(sent.stderr)")
        #expect((sent.stdout + sent.stderr).contains("its extension was rejected and is not restarted until"), "\(sent.stdout) \(sent.stderr)")
        // Typed, the request is understood as one for the app, launched here though it never
        // registered (as at the host's start), and fails as the send did: not "not understood".
        #expect(try host.ctl("authorize", "Script", "allow").status == 0)
        let asked = try host.ctl("ask", "search my messages for bananas")
        #expect(asked.stdout.contains("Script isn't answering right now"), "\(asked.stdout) \(asked.stderr)")
        #expect(asked.status == 5, "\(asked.stdout) \(asked.stderr)")

        // The cause fixed, the user asks for a restart by app name.
        try Data().write(to: sandbox.appendingPathComponent("fixed"))
        let restart = try host.ctl("restart", "script")
        #expect(restart.status == 0, "\(restart.stdout) \(restart.stderr)")
        #expect(restart.stdout.contains("restarted crasher (Script): running, pid "), "\(restart.stdout)")
        // Its pid shows once bubblewrap has started it (none for the moment before).
        let running = try waitForLaunch(host, "crasher") { $0.state == .running && $0.processIdentifier != nil }
        #expect(running.restarts == 1)
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: started.path), ContinuousClock.now < deadline { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: started.path), "the restarted script never ran")
    }

    @Test("A launched extension that stops answering (SIGSTOP its pid, as status shows it) is killed and started again, and status says why")
    func unresponsiveExtensionIsRestarted() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        let status = try host.waitFor(["MonkeyChat"])
        let pid = pid_t(try #require(status.extensions.first?.processIdentifiers.first))
        let launch = try waitForLaunch(host, "messaging") { $0.state == .running }
        #expect(launch.processIdentifier == Int(pid), "the pid status shows is the extension's, not its sandbox's")
        let command = try String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
        #expect(command.hasPrefix("MonkeyChat"), "pid \(pid) runs \(command), not the extension")
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        // Dropped and not yet killed, its launch is running but not registered: status says so.
        var said = ""
        let deadline = ContinuousClock.now + .seconds(8)
        while !said.contains("not registered"), ContinuousClock.now < deadline {
            said = try host.ctl("status").stdout
            usleep(200_000)
        }
        #expect(said.contains("messaging (MonkeyChat): running, pid \(pid), not registered"), "\(said)")
        let again = try waitForLaunch(host, "messaging") { $0.restarts == 1 && $0.lastExit != nil }
        #expect(again.lastExit?.contains("stopped answering (no heartbeat for") == true, "\(again)")
        try host.waitFor(["MonkeyChat"]) { $0.extensions.first?.processIdentifiers.contains(Int(pid)) == false }
        #expect(kill(pid, 0) != 0, "the stopped process is gone")
        #expect(try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=bananas").status == 0)
        // Its log, by the name it is launched by as by its app's.
        for name in ["messaging", "MonkeyChat"] {
            let logs = try host.ctl("logs", name)
            #expect(logs.status == 0, "logs \(name): \(logs.stderr)")
        }
        // No such log is a failure of the command, not of how it was used: no usage after it.
        let missing = try host.ctl("logs", "GorillaGram")
        #expect(missing.status != 0 && missing.stderr.contains("no log for \"GorillaGram\""), "\(missing.stderr)")
        #expect(!missing.stderr.contains("Usage:"), "\(missing.stderr)")
    }

    @Test("`intentctl restart` stops a running extension and starts it again; an app this host does not launch is refused")
    func restartRunningExtension() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        let first = try waitForLaunch(host, "messaging") { $0.state == .running }
        let restart = try host.ctl("restart", "MonkeyChat", "--json")
        #expect(restart.status == 0, "\(restart.stdout) \(restart.stderr)")
        let again = try waitForLaunch(host, "messaging") { $0.state == .running && $0.restarts == 1 && $0.processIdentifier != nil }
        #expect(again.processIdentifier != first.processIdentifier)
        // What restart printed is the state after: the new process, running.
        let printed = restart.json?["launches"]?.arrayValue?.first
        #expect(printed?["restarts"] == 1 && printed?["processIdentifier"]?.numberValue == Double(again.processIdentifier ?? -1), "\(restart.stdout)")
        try host.waitFor(["MonkeyChat"])
        #expect(try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=bananas").status == 0)

        let unknown = try host.ctl("restart", "GorillaGram")
        #expect(unknown.status == 4, "a refusal, as send's")
        #expect(try host.ctl("authorize", "GorillaGram", "allow").status == 4)
        #expect(unknown.stderr.contains("unknownApp"), "\(unknown.stderr)")
    }
}
