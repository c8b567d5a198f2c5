import Foundation
import IntentProtocol
import Testing

/// An app the host has known is not unknown while its extension is away: requests for it
/// wait for an instance up to their deadline (bounded), and are admitted again when one
/// registers.
@Suite("A restarting app", .serialized)
struct RestartingAppTests {
    let search = StageRequest(sessionId: "S-1", language: "en", intent: "SearchForMessages", parameters: [:])

    @Test("While a killed extension restarts, requests for its app wait for it and are served; an app never known is unknown at once")
    func restartingAppIsWaitedFor() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        let status = try host.waitFor(["MonkeyChat"])
        let pid = try #require(status.extensions.first { $0.appName == "MonkeyChat" }?.processIdentifiers.first)
        try host.killAndWaitForExit(pid: pid)

        // Sent while no instance is registered, before the restart's back-off ends.
        let client = try PipelinedClient(host)
        let staged = try client.stage("MonkeyChat", "SearchForMessages", .confirm, search)
        let submitted = try client.submit("MonkeyChat", "SearchForMessages", Submission(parameters: ["searchTerms": "bananas"]))
        let never = try host.ctl("send", "GorillaGram", "SearchForMessages", "searchTerms=bananas", "--json")
        #expect(never.status == 4, "\(never.stdout) \(never.stderr)")
        #expect(never.json?["code"] == "unknownApp", "\(never.stdout)")
        let send = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=bananas", "--json")
        #expect(send.status == 0, "\(send.stdout) \(send.stderr)")

        let answers = try client.answers(to: [staged, submitted])
        #expect(answers[staged]?.json?["code"] != nil, "the STAGE waited and was answered: \(String(describing: answers[staged]))")
        #expect(answers[submitted]?.outcome?.outcome == .success, "\(String(describing: answers[submitted]))")
        let after = try host.waitFor(["MonkeyChat"])
        #expect(after.launches?.first { $0.appName == "MonkeyChat" }?.restarts == 1, "status shows the restart")
    }

    @Test("A read that stops every instance it reaches is sent to one more after the first goes, then failed at once with why, not sent on until its deadline")
    func readThatStopsItsInstancesIsFailed() throws {
        let host = try TestHost.configured(["extensions": ["probe"], "requestTimeoutMilliseconds": 30000])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Probe"])
        let crash = StageRequest(sessionId: "S-1", language: "en", intent: "SendMessage", parameters: ["content": "crash"])
        let started = ContinuousClock.now
        do {
            _ = try host.client(timeout: .seconds(25)).stage(app: "Probe", intent: "SendMessage", stage: .confirm, crash)
            Issue.record("a confirm that stops its extension was answered")
        } catch {
            #expect("\(error)".contains("extensionUnavailable") && "\(error)".contains("stopped 2 times while working on this request"), "\(error)")
        }
        // Its first instance and the one restarted after it, not one a back-off later still.
        #expect(ContinuousClock.now - started < .seconds(10))
        let status = try host.waitFor(["Probe"])
        #expect(status.launches?.first { $0.appName == "Probe" }?.restarts == 2, "\(String(describing: status.launches))")
        // The next request is served by the instance restarted after it.
        let fine = StageRequest(sessionId: "S-2", language: "en", intent: "SendMessage", parameters: ["content": "hi"])
        #expect(try host.client(timeout: .seconds(10)).stage(app: "Probe", intent: "SendMessage", stage: .confirm, fine).isEmpty == false)
    }

    /// A host with MonkeyChat started by hand (never restarted by the host), killed and
    /// dropped: it stays away until the test starts it again.
    func hostWithMonkeyChatGone(_ config: [String: JSONValue]) throws -> TestHost {
        let host = try TestHost.configured(config.merging(["heartbeatMilliseconds": 200]) { old, _ in old })
        let process = try host.startExtension()
        try host.waitFor(["MonkeyChat"])
        kill(process.processIdentifier, SIGKILL)
        try host.waitUntilGone("MonkeyChat")
        return host
    }

    @Test("Requests for an app that stays away wait up to their deadline and fail extensionUnavailable; past the bound on waiting requests, overloaded at once")
    func waitingIsBoundedAndEndsAtTheDeadline() throws {
        let host = try hostWithMonkeyChatGone(["admission": ["maxWaitingPerApp": 2], "requestTimeoutMilliseconds": 6000])
        defer { host.stop(); host.removeState() }
        let client = try PipelinedClient(host)
        let waiting = try (0..<2).map { _ in try client.stage("MonkeyChat", "SearchForMessages", .confirm, search) }
        let third = try client.stage("MonkeyChat", "SearchForMessages", .confirm, search)
        let refused = try client.answers(to: [third], within: .seconds(2))
        #expect(refused[third]?.code == "overloaded", "past the bound: \(String(describing: refused[third]))")
        #expect(waiting.allSatisfy { refused[$0] == nil }, "the first two still wait")
        let status = try host.client().status()
        #expect(status.waitingRequests == ["MonkeyChat": 2], "\(String(describing: status.waitingRequests))")

        let answers = try client.answers(to: waiting)
        for id in waiting {
            guard case .error(let code, let message)? = answers[id] else {
                Issue.record("no error for a request that waited in vain: \(String(describing: answers[id]))")
                continue
            }
            #expect(code == "extensionUnavailable")
            #expect(message.contains("nothing was sent"), "\(message)")
        }
        #expect(try host.client().status().waitingRequests == nil, "nothing waits after the deadline")
        let send = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=bananas", "--json")
        #expect(send.status == 5, "\(send.stdout) \(send.stderr)")
        #expect(send.json?["code"] == "extensionUnavailable", "\(send.stdout)")
    }

    @Test("A request that waited is admitted again when its app comes back: locked meanwhile, it is refused requiresUnlock")
    func waitingRequestsAreAdmittedAgain() throws {
        let host = try hostWithMonkeyChatGone(["requestTimeoutMilliseconds": 15000])
        defer { host.stop(); host.removeState() }
        let client = try PipelinedClient(host)
        let send = StageRequest(sessionId: "S-2", language: "en", intent: "SendMessage", parameters: ["content": "hi"])
        let restricted = try client.stage("MonkeyChat", "SendMessage", .confirm, send)
        // SetMessageAttribute is not restricted while locked (SendMessage and SearchForMessages are).
        let mark = StageRequest(sessionId: "S-3", language: "en", intent: "SetMessageAttribute", parameters: ["attribute": "read"])
        let open = try client.stage("MonkeyChat", "SetMessageAttribute", .confirm, mark)
        // Both admitted while unlocked and waiting, before the lock.
        let deadline = ContinuousClock.now + .seconds(10)
        while try host.client().status().waitingRequests?["MonkeyChat"] != 2, ContinuousClock.now < deadline { usleep(20_000) }
        #expect(try host.client().status().waitingRequests == ["MonkeyChat": 2])
        #expect(try host.ctl("lock").status == 0)
        try host.startExtension()
        let answers = try client.answers(to: [restricted, open])
        #expect(answers[restricted]?.code == "requiresUnlock", "\(String(describing: answers[restricted]))")
        #expect(answers[open]?.json?["code"] != nil, "not restricted, so served: \(String(describing: answers[open]))")
    }

    @Test("A conversation names an app that is away: it is understood, and its stages wait for the app as any request does")
    func conversationWaitsForTheApp() throws {
        let host = try hostWithMonkeyChatGone(["requestTimeoutMilliseconds": 15000])
        defer { host.stop(); host.removeState() }
        #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0, "an app the host has known is not unknown to authorize")
        let output = host.state.appendingPathComponent("ask.out")
        let ask = try TestHost.launch(
            Products.url("intentctl"),
            ["ask", "Send a message to Coco on MonkeyChat", "--answer", "the bananas are ripe", "--json", "--state-dir", host.state.path],
            output: output, environment: [:])
        usleep(500_000)
        #expect(ask.isRunning, "the conversation waits for MonkeyChat")
        // Its key is trusted already.
        try host.startExtension("MonkeyChat", [], environment: [:], trusted: false)
        ask.waitUntilExit()
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(ask.terminationStatus == 0, "\(printed)")
        #expect(printed.contains("the bananas are ripe"), "\(printed)")
    }

    @Test("An app started by hand that left, and whose key was then untrusted, is offered no more: it cannot come back")
    func untrustedAppThatLeftIsNotOffered() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        let bench = try host.startExtension("IntentBench")
        try host.waitFor(["MonkeyChat", "Bench"])
        kill(bench.processIdentifier, SIGTERM)
        TestHost.reap(bench)
        let gone = ContinuousClock.now + .seconds(10)
        while try host.client().status().extensions.contains(where: { $0.appName == "Bench" }), ContinuousClock.now < gone { usleep(50_000) }
        #expect(try host.ctl("extensions", "untrust", "org.intentd.bench").status == 0)
        #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0)
        let asked = try host.ctl("ask", "send a message to Coco saying hi", "--json")
        #expect(!asked.stdout.contains("Which app"), "\(asked.stdout)")
        #expect(asked.status == 0, "\(asked.stdout)\(asked.stderr)")
        #expect(try host.ctl("send", "Bench", "SearchForMessages").status == 4, "unknown, not waited for")
    }
}
