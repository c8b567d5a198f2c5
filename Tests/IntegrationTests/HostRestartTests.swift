import Foundation
import IntentClient
import IntentProtocol
import Synchronization
import Testing

/// A host that dies mid-request: its clients hear of it at once, its extensions go with it,
/// and the state it acknowledged is there when it is back.
@Suite("A host restart", .serialized)
struct HostRestartTests {
    @Test("send to a paused host, which takes the connection and never answers it, says nothing was sent (exit 2) within --timeout, and nothing is done when it resumes")
    func pausedHostSaysNothingWasSent() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0)
        let pid = try #require(host.process?.processIdentifier)
        kill(pid, SIGSTOP)
        let started = ContinuousClock.now
        let paused = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Coco", "content=paused json", "--json", "--timeout", "3")
        kill(pid, SIGCONT)
        #expect(ContinuousClock.now - started < .seconds(10), "within its --timeout, not the 30 s a handshake may take")
        #expect(paused.status == 2, "\(paused.stdout) \(paused.stderr)")
        #expect(paused.stderr.contains("did not answer it (it is paused or stuck), so nothing was sent"), "\(paused.stderr)")
        // The connection never finished its handshake, so the request never left: no message.
        let found = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=paused json", "--json")
        #expect(found.json?["outcome"] == "success" && found.json?["response"]?["response"]?["messages"]?.arrayValue?.isEmpty == true, "\(found.stdout)")

        // A client that goes on (as chat does) drops the request it could not send: it does
        // not go out once the host answers, and the client is served after.
        kill(pid, SIGSTOP)
        let client = try host.client(timeout: .seconds(2))
        do {
            _ = try client.submit(app: "MonkeyChat", intent: "SendMessage", Submission(parameters: ["recipients": "Coco", "content": "paused client"]))
            Issue.record("a paused host answered")
        } catch let error as ClientError {
            guard case .notAnswering = error else { Issue.record("expected notAnswering, got \(error)"); return }
        }
        kill(pid, SIGCONT)
        usleep(1_500_000)
        client.timeout = .seconds(10)
        let after = try client.submit(app: "MonkeyChat", intent: "SearchForMessages", Submission(parameters: ["searchTerms": "paused client"]))
        #expect(after.outcome == .success && after.response?.response["messages"]?.arrayValue?.isEmpty == true, "\(after)")
    }

    @Test("A request to a host that went away and is not back fails as such (notRunning, or hostLost when the loss is seen only once it is sent), never by the client's timeout")
    func requestAfterTheHostWentAwayFailsAtOnce() throws {
        let host = try TestHost([])
        defer { host.stop(); host.removeState() }
        try host.waitFor([])
        let client = try host.client(timeout: .seconds(60))
        #expect(try client.status().locked == false)
        let hostPid = try #require(host.process?.processIdentifier)
        kill(hostPid, SIGKILL)
        host.process?.waitUntilExit()
        // The ipc socket file is left behind by kill -9: the client cannot tell from it. A
        // later request waits for no connection that is not up: notRunning.
        for attempt in 0..<2 {
            do {
                _ = try client.status()
                Issue.record("attempt \(attempt): a host that was killed answered")
            } catch let error as ClientError {
                switch error {
                case .notRunning: break
                case .hostLost where attempt == 0: break  // sent before the loss was seen
                default: Issue.record("attempt \(attempt): expected notRunning, got \(error)")
                }
            }
        }
    }

    @Test("kill -9 of the host fails a request in flight at once as hostLost; no extension is left behind; a restarted host keeps its state and serves")
    func hostKilledMidRequest() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        let status = try host.waitFor(["MonkeyChat"])
        let extensionPid = try #require(status.extensions.first?.processIdentifiers.first)
        try host.client().setLocked(true)

        // MonkeyChat stopped: the request stays in flight at the host.
        kill(Int32(extensionPid), SIGSTOP)
        let outcome = Mutex<Result<[UInt8], any Error>?>(nil)
        let endpoint = host.clientEndpoint
        let security = try host.clientSecurity()
        let thread = Thread {
            // Not restricted while locked, so it reaches the stopped MonkeyChat.
            let request = StageRequest(
                sessionId: "s", language: "en", intent: "SetMessageAttribute",
                parameters: ["identifiers": .array([.string("m-1")]), "attribute": .string("read")])
            let result = Result {
                try IntentClient(endpoint: endpoint, timeout: .seconds(50), security: security)
                    .stage(app: "MonkeyChat", intent: "SetMessageAttribute", stage: .handle, request)
            }
            outcome.withLock { $0 = result }
        }
        thread.start()
        usleep(500_000)
        let hostPid = try #require(host.process?.processIdentifier)
        kill(hostPid, SIGKILL)

        let deadline = ContinuousClock.now + .seconds(40)
        while outcome.withLock({ $0 }) == nil, ContinuousClock.now < deadline { usleep(20_000) }
        let result = try #require(outcome.withLock { $0 }, "the request was still waiting 40 s after the host died")
        switch result {
        case .success(let bytes): Issue.record("a dead host answered: \(String(decoding: bytes, as: UTF8.self))")
        case .failure(let error):
            guard case ClientError.hostLost(let lost, _) = error else {
                Issue.record("expected hostLost, got \(error)")
                break
            }
            #expect(lost == endpoint)
        }

        // The sandboxed MonkeyChat, stopped or not, went with its host.
        let gone = ContinuousClock.now + .seconds(10)
        while kill(Int32(extensionPid), 0) == 0, ContinuousClock.now < gone { usleep(20_000) }
        #expect(kill(Int32(extensionPid), 0) == -1, "MonkeyChat (pid \(extensionPid)) outlived its host")

        try host.startHost()
        try host.waitFor(["MonkeyChat"])
        #expect(try host.client().status().locked, "the lock acknowledged before the crash was lost")
        try host.client().setLocked(false)
        #expect(try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=bananas").status == 0)
    }

    @Test("watch ends at once with exit 6 when the host it watches is killed, saying updates meanwhile are missed, instead of waiting silently")
    func watchEndsWhenTheHostGoesAway() throws {
        let host = try TestHost([])
        defer { host.stop(); host.removeState() }
        try host.waitFor([])
        let hostPid = try #require(host.process?.processIdentifier)
        let started = ContinuousClock.now
        let watched = try host.ctl(["watch", "--for", "30"]) { _ in
            usleep(500_000)
            kill(hostPid, SIGKILL)
        }
        #expect(watched.status == 6, "\(watched.stdout) \(watched.stderr)")
        #expect(watched.stderr.contains("went away (it stopped or restarted)"), "\(watched.stderr)")
        #expect(started.duration(to: .now) < .seconds(20), "watch waited for its --for instead")
    }

    @Test("An extension started by hand registers once with a host that restarted, though the host asks each heartbeat it missed to register again")
    func handStartedExtensionRegistersOnceAfterARestart() throws {
        let host = try TestHost([])
        defer { host.stop(); host.removeState() }
        try host.startExtension("IntentBench")
        try host.waitFor(["Bench"])
        usleep(2_000_000)
        host.process?.terminate()
        host.process?.waitUntilExit()
        // Heartbeats wait in the extension's socket while no host listens.
        usleep(1_500_000)
        try host.startHost()
        try host.waitFor(["Bench"])
        usleep(3_000_000)
        let log = host.hostLog
        #expect(log.components(separatedBy: "registered Bench (").count - 1 == 1, "\(log)")
        #expect(!log.contains("it registered again"), "\(log)")
    }

    @Test("A ride booked with the client's key, asked again with it after the host crashed and came back, is that ride: the handle is sent again, not the lifecycle (whose confirm said a ride must finish first)")
    func keyedRetryAfterHostCrashIsTheSameRide() throws {
        let host = try TestHost(
            ["--extensions", "rides", "--pass-env", "INTENTD_RIDE_SECONDS_PER_STEP"], environment: ["INTENTD_RIDE_SECONDS_PER_STEP": "1000"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Zippy"])
        #expect(try host.ctl("authorize", "Zippy", "allow").status == 0)
        let book = ["send", "Zippy", "RequestRide", "dropOffLocation=Union Square", "--confirm", "--json", "--idempotency-key", "ride-after-crash-1"]
        let first = try host.ctl(book)
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
        let ride = try #require(first.json?["response"]?["response"]?["rideStatus"]?["rideIdentifier"]?.stringValue, "\(first.stdout)")
        let hostPid = try #require(host.process?.processIdentifier)
        kill(hostPid, SIGKILL)
        host.process?.waitUntilExit()
        try host.startHost()
        try host.waitFor(["Zippy"])
        let again = try host.ctl(book)
        #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
        #expect(again.json?["response"]?["response"]?["rideStatus"]?["rideIdentifier"]?.stringValue == ride, "\(again.stdout)")
    }
}

