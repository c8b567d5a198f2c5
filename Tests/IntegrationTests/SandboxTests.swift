import Foundation
import IntentClient
import IntentProtocol
import Testing

/// Every extension the host launches runs in a bubblewrap sandbox with its own limits, a
/// clean start and its own log: tried with the test-only Probe extension, which attempts on
/// request what a hostile extension would.
@Suite("Sandbox", .serialized)
struct SandboxTests {
    /// A host launching `extensions` with `config` (JSON fields) merged into a config file.
    func host(_ config: [String: JSONValue], _ arguments: [String] = []) throws -> TestHost {
        try TestHost.configured(config, arguments)
    }

    /// What the probe `app` says to `command`.
    func probe(_ host: TestHost, _ command: String, app: String = "Probe") throws -> String {
        let request = StageRequest(sessionId: "s", language: "en", intent: "SendMessage", parameters: ["content": .string(command)])
        let bytes = try host.client(timeout: .seconds(20)).stage(app: app, intent: "SendMessage", stage: .handle, request)
        let response = try JSON.decode(IntentResponse.self, from: bytes)
        return response.response["result"]?.stringValue ?? "no result"
    }

    /// Waits until `text` is in the host's log.
    func waitForLog(_ host: TestHost, _ text: String, timeout: Duration = .seconds(20)) throws {
        let deadline = ContinuousClock.now + timeout
        while !host.hostLog.contains(text) {
            guard ContinuousClock.now < deadline else { throw TestError("no \"\(text)\" in the host's log:\n\(host.hostLog)") }
            usleep(50_000)
        }
    }

    @Test("A launched extension can read no other app's data, no host state and no home, and keeps its own sandbox across a restart")
    func filesystem() throws {
        let host = try host(["extensions": ["probe", "messaging"]])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe", "MonkeyChat"])
        _ = try host.ctl("lock")
        _ = try host.ctl("unlock")
        let state = host.state.path
        let monkeyChat = "\(state)/sandboxes/com.monkeychat.intents/monkeychat.sqlite"
        #expect(FileManager.default.fileExists(atPath: monkeyChat))
        #expect(FileManager.default.fileExists(atPath: "\(state)/lock"))
        for path in [monkeyChat, "\(state)/lock", "\(state)/intentd.log", "/etc/passwd"] {
            #expect(try probe(host, "read \(path)").hasPrefix("error"), "read \(path)")
        }
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        for path in [state, "\(state)/sandboxes", home] {
            #expect(try probe(host, "list \(path)").hasPrefix("error"), "list \(path)")
        }
        #expect(try !probe(host, "list ..").contains("com.monkeychat.intents"))

        #expect(try probe(host, "where") == "ok: /var/sandbox /var/sandbox /var/sandbox /var/sandbox")
        for outside in ["../escape.txt", "../../app/escape.txt", "../../run/intentd/escape.txt", "../../usr/escape.txt"] {
            #expect(try probe(host, "write \(outside) x").hasPrefix("error"), "write \(outside)")
        }
        #expect(try probe(host, "write note.txt kept across restarts").hasPrefix("ok"))
        #expect(try probe(host, "read /var/sandbox/note.txt") == "ok: kept across restarts")
        let onHost = "\(state)/sandboxes/org.intentd.test.probe/note.txt"
        #expect((try? String(contentsOfFile: onHost, encoding: .utf8)) == "kept across restarts")

        #expect(throws: ClientError.self) { try probe(host, "exit 3") }
        try waitForLog(host, "extension probe")
        try waitForLog(host, "exited with status 3; restarting")
        usleep(200_000)
        try host.waitFor(["Probe"])
        #expect(try probe(host, "read /var/sandbox/note.txt") == "ok: kept across restarts")
    }

    @Test("A launched extension reaches neither the client endpoint nor a TCP listener, unless its manifest declares network access")
    func network() throws {
        let listener = try TCPListener()
        let host = try host([
            "extensions": ["probe", "netprobe"],
            "executables": ["probe": "IntentProbe", "netprobe": "IntentProbe"],
            "manifests": ["netprobe": .string(Products.fixtures.appendingPathComponent("NetProbe.plist").path)],
        ])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe", "NetProbe"])
        let client = "\(host.state.path)/client.sock"
        #expect(try probe(host, "unix \(client)").hasPrefix("error"))
        #expect(try probe(host, "tcp 127.0.0.1 \(listener.port)").hasPrefix("error"))
        #expect(try probe(host, "unix \(client)", app: "NetProbe").hasPrefix("error"))
        #expect(try probe(host, "tcp 127.0.0.1 \(listener.port)", app: "NetProbe") == "ok: connected")
        let status = try host.waitFor(["NetProbe"])
        #expect(status.extensions.first { $0.appName == "NetProbe" }?.sandboxes?.first?.network == true)
        #expect(status.extensions.first { $0.appName == "Probe" }?.sandboxes?.first?.network == false)
    }

    @Test("A tcp extension endpoint that a launched extension's sandbox cannot reach is one clear error at start, and no other")
    func unreachableEndpointIsOneClearError() throws {
        let scratch = try TestHost(start: false)
        defer { scratch.removeState() }
        let port = Int.random(in: 20_000...32_000)
        let output = scratch.state.appendingPathComponent("tcp-sandbox.log")
        let p = try TestHost.launch(
            Products.url("intentd"),
            ["--state-dir", scratch.state.path, "--http", "127.0.0.1:0", "--extension-endpoint", "tcp://127.0.0.1:\(port)", "--extensions", "messaging"],
            output: output, environment: [:])
        p.waitUntilExit()
        let log = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(p.terminationReason == .exit && p.terminationStatus != 0, "\(log)")
        #expect(log.contains("its sandbox has no network to reach it"), "\(log)")
        // The HTTP side is stopped as on a signal, not cancelled ("CancellationError", "Already closed").
        #expect(!log.contains(" error: "), "\(log)")
    }

    @Test("Inside its sandbox an extension has no new privileges, no capabilities, and sees only its own processes")
    func privileges() throws {
        let host = try host(["extensions": ["probe"]])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe"])
        let status = try probe(host, "read /proc/self/status")
        #expect(status.contains("NoNewPrivs:\t1"))
        #expect(status.contains("CapEff:\t0000000000000000"))
        #expect(status.contains("CapPrm:\t0000000000000000"))
        let processes = try probe(host, "list /proc").dropFirst(4).split(separator: ",").filter { $0.allSatisfy(\.isNumber) }
        #expect(processes.count <= 3, "\(processes)")
        let hostPID = String(host.process?.processIdentifier ?? 0)
        #expect(!processes.contains(Substring(hostPID)) && !processes.contains(Substring(String(getpid()))))
    }

    @Test("An extension over its memory limit is killed and restarted while the host and the other extensions keep answering")
    func memoryLimit() throws {
        let host = try host(["extensions": ["probe", "messaging"], "extensionLimits": ["probe": ["memoryMegabytes": 64]]])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe", "MonkeyChat"])
        #expect(try probe(host, "alloc 16").hasPrefix("ok"))
        do {
            let answer = try probe(host, "alloc 1024")
            Issue.record("the probe survived allocating 1 GiB: \(answer)")
        } catch ClientError.host(let code, _) {
            // The handle was in flight when the kernel killed it: whether it was done is unknown.
            #expect(code == "outcomeUnknown")
        }
        #expect(host.process?.isRunning == true)
        let search = try host.ctl("send", "MonkeyChat", "SearchForMessages", "--json")
        #expect(search.status == 0, "\(search.stderr)")
        try waitForLog(host, "extension probe")
        #expect(host.hostLog.contains("was killed by signal 9; restarting in"))
        usleep(200_000)
        try host.waitFor(["Probe"])
        #expect(try probe(host, "alloc 16").hasPrefix("ok"))
        #expect(try host.ctl("send", "MonkeyChat", "SearchForMessages", "--json").status == 0)
    }

    @Test("Without cgroups, rlimits enforce the memory limit, and status says so")
    func rlimitFallback() throws {
        let host = try host(["extensions": ["probe"], "cgroups": false, "extensionLimits": ["probe": ["memoryMegabytes": 100]]])
        defer { host.stop(); host.removeState() }
        let status = try host.waitFor(["Probe"])
        let limits = status.extensions.first?.sandboxes?.first?.limits ?? []
        #expect(limits.contains { $0.resource == "memory" && $0.value == 100 && $0.enforcedBy == "rlimit" })
        #expect(limits.contains { $0.resource == "processes" && $0.enforcedBy == "rlimit" })
        #expect(host.hostLog.contains("limits: by rlimit only"))
        // RLIMIT_DATA counts the runtime's reserved memory too: 200 MiB more cannot fit.
        do { #expect(try probe(host, "alloc 200").hasPrefix("error")) } catch ClientError.host(let code, _) {
            #expect(code == "extensionUnavailable")
        }
        #expect(host.process?.isRunning == true)
    }

    @Test("A fork loop stops at the extension's process limit, and the host keeps answering")
    func processLimit() throws {
        let host = try host(["extensions": ["probe"], "extensionLimits": ["probe": ["processes": 40]]])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe"])
        let marker = "4243.\(Int.random(in: 100_000...999_999))"
        let answer = try probe(host, "spawnmany 200 \(marker)")
        let started = Int(answer.dropFirst(4)) ?? -1
        #expect(started >= 0 && started < 40, "\(answer)")
        #expect(Self.processes(withArgument: marker) == started)
        #expect(try host.client().status().extensions.contains { $0.appName == "Probe" })
    }

    @Test("A helper process an extension starts is gone once the extension stops")
    func helperEndsWithExtension() throws {
        let host = try host(["extensions": ["probe"]])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe"])
        let marker = "4242.\(Int.random(in: 100_000...999_999))"
        #expect(try probe(host, "spawn \(marker)").hasPrefix("ok"))
        #expect(Self.processes(withArgument: marker) == 1)
        #expect(throws: ClientError.self) { try probe(host, "exit 0") }
        let deadline = ContinuousClock.now + .seconds(5)
        while Self.processes(withArgument: marker) > 0 && ContinuousClock.now < deadline { usleep(50_000) }
        #expect(Self.processes(withArgument: marker) == 0)
    }

    @Test("Without the sandbox, a helper in a session of its own still ends with its extension, and with the host")
    func daemonEndsWithUnsandboxedExtension() throws {
        let host = try host(["extensions": ["probe"]], ["--no-sandbox"])
        defer { host.stop(); host.removeState() }
        let status = try host.waitFor(["Probe"])
        // Only a cgroup knows a helper that left its extension's session.
        let limits = status.extensions.first?.sandboxes?.first?.limits ?? []
        guard limits.contains(where: { $0.enforcedBy == "cgroup" }) else {
            Issue.record("this machine gives the host no cgroups: \(host.hostLog)")
            return
        }
        func daemons(_ marker: String, _ count: Int) -> Bool {
            Self.within(5) { Self.processes(withArgument: marker) == count }
        }
        let pids = status.extensions.first?.processIdentifiers ?? []
        let first = "4244.\(Int.random(in: 100_000...999_999))"
        #expect(try probe(host, "daemon \(first)").hasPrefix("ok"))
        #expect(daemons(first, 1))
        #expect(throws: ClientError.self) { try probe(host, "exit 0") }
        #expect(daemons(first, 0), "a helper that called setsid outlived its extension")

        try host.waitFor(["Probe"]) { Self.registeredAgain($0, other: pids) }
        let second = "4245.\(Int.random(in: 100_000...999_999))"
        #expect(try probe(host, "daemon \(second)").hasPrefix("ok"))
        #expect(daemons(second, 1))
        host.stop()
        #expect(daemons(second, 0), "a helper that called setsid outlived the host")
    }

    /// Whether the extension is registered again by a process other than `pids` (not only
    /// gone: under load the status can show it without processes before its launch's end
    /// is recorded).
    static func registeredAgain(_ status: HostStatus, other pids: [Int]) -> Bool {
        guard let now = status.extensions.first?.processIdentifiers, !now.isEmpty else { return false }
        return now.allSatisfy { !pids.contains($0) }
    }

    @Test("The CPU time limit counts an extension's processes together: helpers that each stay under it still end it")
    func cpuLimitCountsTheGroup() throws {
        let host = try host(["extensions": ["probe"], "extensionLimits": ["probe": ["cpuSeconds": 1]]])
        defer { host.stop(); host.removeState() }
        let status = try host.waitFor(["Probe"])
        guard status.extensions.first?.sandboxes?.first?.limits?.contains(where: { $0.resource == "cpu" && $0.enforcedBy == "cgroup" }) == true else {
            Issue.record("this machine gives the host no cpuacct cgroup: \(host.hostLog)")
            return
        }
        let pids = status.extensions.first?.processIdentifiers ?? []
        let marker = "4246.\(Int.random(in: 100_000...999_999))"
        // Two helpers spinning on two cores: each under the limit when together they pass it,
        // half a second or so later (the rest of the suite shares these cores).
        #expect(try probe(host, "burn 2 3 \(marker)") == "ok: 2")
        let restarted = try host.waitFor(["Probe"], timeout: .seconds(30)) { Self.registeredAgain($0, other: pids) }
        #expect(!restarted.extensions.isEmpty)
        #expect(host.hostLog.contains("of CPU time, over its limit of 1 s"), "\(host.hostLog)")
        // Under load the new instance can register before the old one's end is recorded.
        #expect(Self.within(10) { Self.processes(withArgument: marker) == 0 }, "the helpers ended with it")
        let client = try host.client()
        func launch() -> LaunchStatus? { (try? client.status())?.launches?.first { $0.name == "probe" } }
        #expect(Self.within(10) { launch()?.lastExit?.contains("CPU time") == true }, "\(String(describing: launch()))")
    }

    @Test("A launched shell-script extension starts clean, gets SIGTERM when the host stops, and exits within the grace period")
    func scriptGetsSIGTERM() throws {
        let host = try host([
            "extensions": ["script"],
            "executables": ["script": .string(Products.fixtures.appendingPathComponent("script-extension.sh").path)],
            "manifests": ["script": .string(Products.fixtures.appendingPathComponent("ScriptExtension.plist").path)],
        ])
        defer { host.removeState() }
        let sandbox = host.state.appendingPathComponent("sandboxes/org.intentd.test.script")
        let deadline = ContinuousClock.now + .seconds(20)
        while !FileManager.default.fileExists(atPath: sandbox.appendingPathComponent("started").path) {
            guard ContinuousClock.now < deadline else { throw TestError("the script did not start:\n\(host.hostLog)") }
            usleep(50_000)
        }
        // A clean start: nothing blocked, no classic signal ignored, only the variables it needs.
        let signals = try String(contentsOf: sandbox.appendingPathComponent("signals"), encoding: .utf8)
        let masks = Dictionary(uniqueKeysWithValues: signals.split(separator: "\n").map { line in
            let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            return (parts[0], UInt64(parts[1], radix: 16) ?? .max)
        })
        #expect(masks["SigBlk"] == 0, "\(signals)")
        #expect((masks["SigIgn"] ?? .max) & 0x7FFF_FFFF == 0, "\(signals)")
        let environment = try String(contentsOf: sandbox.appendingPathComponent("environment"), encoding: .utf8)
        let names = Set(environment.split(separator: "\n").compactMap { $0.split(separator: "=").first.map(String.init) })
        let allowed: Set = [
            "INTENTD_EXTENSION_ENDPOINT", "INTENTD_SANDBOX_DIR", "INTENTD_LAUNCH_TOKEN", "HOME", "TMPDIR", "PATH", "LANG", "INTENTD_LOG_LEVEL", "PWD",
            // Its identity (wire.md section 21).
            "INTENTD_CURVE_SECRETKEY", "INTENTD_CURVE_PUBLICKEY", "INTENTD_CURVE_SERVERKEY", "INTENTD_IPC_MECHANISM",
        ]
        #expect(names.isSubset(of: allowed), "\(environment)")
        #expect(environment.contains("HOME=/var/sandbox\n"))

        host.stop()
        #expect(FileManager.default.fileExists(atPath: sandbox.appendingPathComponent("got-sigterm").path), "\(host.hostLog)")
    }

    @Test("A line an extension prints that imitates the host's log is escaped and attributed to it, in its own log")
    func forgedLogLine() throws {
        let host = try host(["extensions": ["probe"]])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe"])
        let forged = "2026-11-23T07:00:00.000 intentd info: registered Evil\u{1B}[2K\rfrom the host"
        #expect(try probe(host, "print \(forged)") == "ok")
        let file = host.state.appendingPathComponent("logs/org.intentd.test.probe.log")
        let escaped = "[probe] 2026-11-23T07:00:00.000 intentd info: registered Evil\\x1B[2K\\x0Dfrom the host"
        let deadline = ContinuousClock.now + .seconds(5)
        while !((try? String(contentsOf: file, encoding: .utf8)) ?? "").contains(escaped) && ContinuousClock.now < deadline {
            usleep(50_000)
        }
        let log = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        #expect(log.contains(escaped), "\(log)")
        #expect(!log.contains("\u{1B}") && !log.contains("\r"))
        #expect(!host.hostLog.contains("registered Evil"))
        let shown = try host.ctl("logs", "Probe")
        #expect(shown.status == 0 && shown.stdout.contains(escaped), "\(shown.stderr)")
    }

    @Test("A handler's error reaches the client and, for the extension's author, the extension's own log")
    func handlerErrorIsLogged() throws {
        let host = try host(["extensions": ["probe"]])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe"])
        #expect(throws: (any Error).self) { try probe(host, "throw the store is on fire") }
        let deadline = ContinuousClock.now + .seconds(5)
        var shown = try host.ctl("logs", "probe")
        while !shown.stdout.contains("handle failed: the store is on fire"), ContinuousClock.now < deadline {
            usleep(50_000)
            shown = try host.ctl("logs", "probe")
        }
        #expect(shown.stdout.contains("[probe]") && shown.stdout.contains("handle failed: the store is on fire"), "\(shown.stdout)")
    }

    @Test("An extension's update over 64 KiB is dropped and logged, and smaller ones still reach subscribers")
    func largeUpdatesAreDropped() throws {
        let host = try host(["extensions": ["probe"]])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe"])
        let output = host.state.appendingPathComponent("watch.jsonl")
        let watch = try TestHost.launch(
            Products.url("intentctl"), ["watch", "Probe", "--json", "--count", "2", "--for", "20", "--state-dir", host.state.path],
            output: output, environment: [:])
        usleep(500_000)  // the subscription reaches the host first
        #expect(try probe(host, "publish big 70000") == "ok: published")
        #expect(try probe(host, "publish fits 60000") == "ok: published")
        #expect(try probe(host, "publish small 10") == "ok: published")
        watch.waitUntilExit()
        let topics = ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { try? JSON.decode(Update.self, from: Array($0.utf8)).topic }
        #expect(topics == ["fits", "small"], "\(topics)")
        try waitForLog(host, "an update from Probe of 70002 bytes, over 65536")
    }

    @Test("A confirm reply over the host's message limit is answered at once with an error, not left to time out")
    func oversizedReplyIsAnsweredAtOnce() throws {
        let host = try host(["extensions": ["probe"], "requestTimeoutMilliseconds": 20_000])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe"])
        let request = StageRequest(sessionId: "s", language: "en", intent: "SendMessage", parameters: ["content": "big 2000000"])
        let started = ContinuousClock.now
        let bytes = try host.client(timeout: .seconds(30)).stage(app: "Probe", intent: "SendMessage", stage: .confirm, request)
        #expect(ContinuousClock.now - started < .seconds(10), "answered, not timed out")
        let error = try JSON.decode(ErrorReply.self, from: bytes)
        #expect(error.error.contains("over the host's limit"), "\(error.error)")
        #expect(try probe(host, "where").hasPrefix("ok"), "the extension still answers")
    }

    @Test("An extension flooding vocabulary changes has the excess dropped and logged; the host keeps answering")
    func vocabularyFloodIsDropped() throws {
        let host = try host(["extensions": ["probe"]])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe"])
        #expect(try probe(host, "vocab 400") == "ok: sent")
        try waitForLog(host, "dropped vocabulary change #1 from Probe: more than 64 vocabulary changes in a second")
        let shown = try host.ctl("vocab", "Probe", "--json")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(try probe(host, "where").hasPrefix("ok"))
    }

    @Test("Empty lines an extension prints are not logged, and the lines between them are")
    func emptyLinesAreNotLogged() throws {
        let host = try host(["extensions": ["probe"]])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe"])
        #expect(try probe(host, "print first" + String(repeating: "\n", count: 50_000) + "last") == "ok")
        let file = host.state.appendingPathComponent("logs/org.intentd.test.probe.log")
        let deadline = ContinuousClock.now + .seconds(5)
        while !((try? String(contentsOf: file, encoding: .utf8)) ?? "").contains("[probe] last") && ContinuousClock.now < deadline {
            usleep(50_000)
        }
        let lines = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains { $0.hasSuffix("[probe] first") } && lines.contains { $0.hasSuffix("[probe] last") })
        #expect(!lines.contains { $0.hasSuffix("[probe] ") }, "no empty line is logged")
    }

    @Test("A launch token counts only for the bundle it was made for: another app that sends it is outside the host's launches")
    func launchTokenIsBoundToItsBundle() throws {
        let host = try host(["extensions": ["probe"]])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe"])
        let token = String(try probe(host, "token").dropFirst(4))
        #expect(token.count == 32, "\(token)")
        try host.startExtension("MonkeyChat", [], environment: ["INTENTD_LAUNCH_TOKEN": token])
        let status = try host.waitFor(["Probe", "MonkeyChat"])
        #expect(status.extensions.first { $0.appName == "MonkeyChat" }?.sandboxes?.first?.state == .outside)
        #expect(status.extensions.first { $0.appName == "Probe" }?.sandboxes?.first?.state == .on)
    }

    @Test("status shows each app's sandbox and limits, and an extension started by hand as outside the sandbox")
    func statusShowsSandbox() throws {
        let host = try host(["extensions": ["probe"], "limits": ["memoryMegabytes": 300, "openFiles": 200]])
        defer { host.stop(); host.removeState() }
        try host.startExtension()
        let status = try host.waitFor(["Probe", "MonkeyChat"])
        let probe = try #require(status.extensions.first { $0.appName == "Probe" }?.sandboxes?.first)
        #expect(probe.state == .on && probe.name == "probe")
        let limits = probe.limits ?? []
        #expect(limits.contains { $0.resource == "memory" && $0.value == 300 && ["cgroup", "rlimit"].contains($0.enforcedBy) })
        #expect(limits.contains { $0.resource == "openFiles" && $0.value == 200 && $0.enforcedBy == "rlimit" })
        #expect(status.extensions.first { $0.appName == "MonkeyChat" }?.sandboxes?.first?.state == .outside)
        let text = try host.ctl("status").stdout
        #expect(text.contains("sandbox: on, no network; limits: memory 300 MiB"), "\(text)")
        #expect(text.contains("sandbox: outside the host's sandbox"), "\(text)")
    }

    @Test("With --no-sandbox, status says the sandbox is off for every launched app")
    func noSandboxIsShown() throws {
        let host = try host(["extensions": ["probe"]], ["--no-sandbox"])
        defer { host.stop(); host.removeState() }
        let status = try host.waitFor(["Probe"])
        #expect(status.extensions.first?.sandboxes?.first?.state == .off)
        #expect(try host.ctl("status").stdout.contains("sandbox: off"))
        #expect(host.hostLog.contains("sandbox: OFF"))
    }

    @Test("Without bubblewrap and without --no-sandbox the host refuses to launch extensions, and says why")
    func refusesWithoutBubblewrap() throws {
        let host = try host(["extensions": ["probe"], "bubblewrapPath": "/nonexistent/bwrap"])
        defer { host.stop(); host.removeState() }
        let process = try #require(host.process)
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning && ContinuousClock.now < deadline { usleep(50_000) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus != 0)
        #expect(host.hostLog.contains("refusing to launch extensions without a sandbox"), "\(host.hostLog)")
        #expect(host.hostLog.contains("--no-sandbox"))
    }

    /// Whether `condition` holds within `seconds`, checked every 50 ms.
    static func within(_ seconds: Int, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() && ContinuousClock.now < deadline { usleep(50_000) }
        return condition()
    }

    /// How many processes have `argument` as an argument.
    static func processes(withArgument argument: String) -> Int {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { $0.allSatisfy(\.isNumber) }
        return pids.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return data.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == argument }
        }.count
    }
}

/// A TCP socket listening on 127.0.0.1 at a port the system picks, closed when released.
final class TCPListener {
    let fd: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket failed") }
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 8) == 0 else { throw TestError("cannot listen on 127.0.0.1") }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }
}
