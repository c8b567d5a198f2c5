import Foundation
import GRDB
import IntentProtocol
import Testing

/// Faults and the truth of answers: a stopped, blocked or killed List-o-Mat never does
/// work it was reported to have failed, and a handle retried with its idempotency key is
/// done once. Every check reads List-o-Mat's own SQLite database afterwards.
@Suite("Fault injection", .serialized)
struct FaultInjectionTests {
    static let app = "List-o-Mat"

    /// A host that launched List-o-Mat (`count` instances) with the list "Grocery Store".
    func host(instances count: Int = 1, timeout milliseconds: Int) throws -> TestHost {
        let host = try TestHost(["--extensions", count == 1 ? "lists" : "lists:\(count)", "--request-timeout", "\(milliseconds)"])
        try host.waitFor([Self.app]) { $0.extensions.first?.instances == count }
        let made = try host.ctl("send", Self.app, "CreateTaskList", "title=Grocery Store", "--json")
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        return host
    }

    /// List-o-Mat's database, read as the app wrote it.
    func tasks(_ host: TestHost) throws -> [String: Int] {
        let file = host.state.appendingPathComponent("sandboxes/com.listomat.intents/listomat.sqlite")
        let database = try DatabaseQueue(path: file.path)
        return try database.read { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT title, COUNT(*) AS n FROM task GROUP BY title") {
                counts[row["title"]] = row["n"]
            }
            return counts
        }
    }

    /// A handle of AddTasks for one task, as a program holding a resolved intent sends it.
    func addTask(_ title: String, key: String?) -> StageRequest {
        StageRequest(
            sessionId: UUID().uuidString, language: "en", intent: "AddTasks",
            parameters: ["targetTaskList": "Grocery Store", "taskTitles": [.string(title)]], idempotencyKey: key)
    }

    func submission(_ title: String, key: String?) -> Submission {
        Submission(parameters: ["targetTaskList": "Grocery Store", "taskTitles": .string(title)], idempotencyKey: key)
    }

    /// The instances' pids, as the host sees them.
    func pids(_ host: TestHost) throws -> [pid_t] {
        try host.waitFor([Self.app]).extensions.first?.processIdentifiers.map { pid_t($0) } ?? []
    }

    /// Waits until List-o-Mat answers again, so that what it had queued has been seen.
    func settle(_ host: TestHost) throws {
        let client = try PipelinedClient(host)
        let search = StageRequest(sessionId: "settle", language: "en", intent: "SearchForNotebookItems", parameters: [:])
        for _ in 0..<100 {
            if case .result? = try client.ask({ try $0.stage(Self.app, "SearchForNotebookItems", .confirm, search) }) { return }
            usleep(200_000)
        }
        throw TestError("List-o-Mat did not come back:\n\(host.hostLog)")
    }

    /// A host (`--request-timeout` in milliseconds) with the Python fixture LateNotes beside
    /// it, allowed: its handles are done in time and answered 1.5 s late.
    func hostWithLateNotes(timeout milliseconds: Int, late seconds: Double = 1.5) throws -> TestHost {
        let host = try TestHost(["--request-timeout", "\(milliseconds)"])
        _ = try host.startExtension(
            PythonSDKTests.python, [Products.fixtures.appendingPathComponent("late-notes.py").path],
            environment: PythonSDKTests.environment.merging(["LATE_NOTES_SECONDS": "\(seconds)"]) { _, new in new })
        try host.waitFor(["LateNotes"])
        #expect(try host.ctl("authorize", "LateNotes", "allow").status == 0)
        return host
    }

    /// How many notes LateNotes has stored.
    func lateNotes(_ host: TestHost) throws -> Int? {
        let file = host.state.appendingPathComponent("sandboxes/org.example.latenotes/intentd.sqlite")
        return try DatabaseQueue(path: file.path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM notes") }
    }

    /// The idempotency key at the end of an `outcomeUnknown` ERROR's text.
    func key(in message: String) -> String? {
        message.range(of: "idempotency key: ").map { String(message[$0.upperBound...]) }
    }

    /// Sends each request again with its key until the answer is not `outcomeUnknown`
    /// (nor `extensionUnavailable` while the app restarts); returns the final answers.
    func retry(_ host: TestHost, _ unknown: [String: Submission]) throws -> [String: Outcome] {
        let client = try PipelinedClient(host)
        var settled: [String: Outcome] = [:]
        for (title, submission) in unknown {
            for _ in 0..<50 {
                let outcome = try #require(try client.ask { try $0.submit(Self.app, "AddTasks", submission) }?.outcome)
                if outcome.code != "outcomeUnknown", outcome.code != "extensionUnavailable" {
                    settled[title] = outcome
                    break
                }
                usleep(200_000)
            }
        }
        return settled
    }

    @Test("Handles queued at a stopped extension are answered outcomeUnknown with their key and are never done after it resumes; retried with the key, each is done once")
    func stoppedExtensionDoesNotDoWhatItFailed() throws {
        let host = try host(timeout: 1500)
        defer { host.stop(); host.removeState() }
        let pid = try #require(try pids(host).first)
        // Two connections: the host takes at most 32 requests in flight from one.
        let client = try PipelinedClient(host), other = try PipelinedClient(host)
        kill(pid, SIGSTOP)
        var stages: [UInt64: String] = [:]
        var submits: [UInt64: String] = [:]
        for i in 0..<25 { stages[try client.stage(Self.app, "AddTasks", .handle, addTask("staged-\(i)", key: "staged-\(i)"))] = "staged-\(i)" }
        for i in 0..<25 { submits[try other.submit(Self.app, "AddTasks", submission("submitted-\(i)", key: nil))] = "submitted-\(i)" }
        let staged = try client.answers(to: Array(stages.keys)), submitted = try other.answers(to: Array(submits.keys))
        kill(pid, SIGCONT)
        #expect(staged.count + submitted.count == 50, "every request is answered while the extension is stopped")
        try settle(host)
        let stored = try tasks(host)

        var unknown: [String: Submission] = [:]
        for (id, title) in stages {
            let answer = try #require(staged[id])
            #expect(answer.code == "outcomeUnknown", "a handle that may have been done says so: \(answer)")
            if case .error(_, let message) = answer { #expect(key(in: message) == title, "the answer names the key") }
            unknown[title] = submission(title, key: title)
        }
        for (id, title) in submits {
            let outcome = try #require(submitted[id]?.outcome)
            #expect(outcome.outcome == .failure)
            if outcome.code == "outcomeUnknown" {
                let key = try #require(outcome.idempotencyKey, "an unknown outcome names its key")
                unknown[title] = submission(title, key: key)
            } else {
                #expect(stored[title] == nil, "\(title) was answered \(outcome.code), so it must not be stored")
            }
        }
        #expect(stored.keys.allSatisfy { unknown[$0] != nil }, "only work answered outcomeUnknown may be stored: \(stored)")
        #expect(stored.isEmpty, "a stopped extension starts nothing whose deadline passed: \(stored)")

        let settled = try retry(host, unknown)
        let after = try tasks(host)
        for (title, outcome) in settled {
            #expect(outcome.outcome == .success, "\(title): \(outcome.message)")
            #expect(after[title] == 1, "\(title) is stored once")
        }
        #expect(settled.count == unknown.count)
        #expect(after.values.allSatisfy { $0 == 1 }, "no duplicates: \(after)")
    }

    /// Takes List-o-Mat's database write lock, as another writer would, until `release`
    /// is signalled.
    func holdWriteLock(_ host: TestHost) throws -> DispatchSemaphore {
        let file = host.state.appendingPathComponent("sandboxes/com.listomat.intents/listomat.sqlite")
        let locker = try DatabaseQueue(path: file.path)
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? locker.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                locked.signal()
                release.wait()
                try db.execute(sql: "ROLLBACK")
            }
        }
        locked.wait()
        return release
    }

    @Test("A handler blocked on a database lock past its deadline does not commit; its answer says outcomeUnknown, and the retry does it once")
    func blockedHandlerDoesNotCommitAfterItsDeadline() throws {
        let host = try host(timeout: 1500)
        defer { host.stop(); host.removeState() }
        let release = try holdWriteLock(host)
        let client = try PipelinedClient(host)
        var sent: [UInt64: String] = [:]
        for i in 0..<20 { sent[try client.stage(Self.app, "AddTasks", .handle, addTask("blocked-\(i)", key: "blocked-\(i)"))] = "blocked-\(i)" }
        let answers = try client.answers(to: Array(sent.keys))
        release.signal()
        #expect(answers.count == 20)
        for (id, title) in sent {
            #expect(answers[id]?.code == "outcomeUnknown", "\(title): \(String(describing: answers[id]))")
        }
        // A write queued behind the blocked ones: once it is answered, they have ended.
        let probe = try client.ask { try $0.stage(Self.app, "AddTasks", .handle, addTask("probe", key: "probe")) }
        #expect(probe?.json?["code"] == "success", "\(String(describing: probe))")
        #expect(try tasks(host) == ["probe": 1], "nothing blocked past its deadline was committed")

        let settled = try retry(host, Dictionary(uniqueKeysWithValues: sent.values.map { ($0, submission($0, key: $0)) }))
        #expect(settled.values.allSatisfy { $0.outcome == .success })
        let after = try tasks(host)
        #expect(after.count == 21 && after.values.allSatisfy { $0 == 1 }, "each retried once: \(after)")
    }

    @Test("intentctl send and ask show an unknown outcome with its key and exit 6; sent again with the key, it is done once")
    func intentctlShowsTheKey() throws {
        let host = try host(timeout: 1500)
        defer { host.stop(); host.removeState() }
        #expect(try host.ctl("authorize", Self.app, "allow").status == 0)
        let release = try holdWriteLock(host)
        let sent = try host.ctl("send", Self.app, "AddTasks", "targetTaskList=Grocery Store", "taskTitles=rice")
        #expect(sent.status == 6, "\(sent.stdout)\(sent.stderr)")
        #expect(sent.stdout.contains("OUTCOME UNKNOWN"))
        let key = try #require(sent.stdout.range(of: "--idempotency-key ").map { sent.stdout[$0.upperBound...].prefix { !$0.isWhitespace } })
        let asked = try host.ctl("ask", "In ListOMat add apples to the grocery store list", "--idempotency-key", "apples-1", "--json")
        #expect(asked.status == 6, "\(asked.stdout)\(asked.stderr)")
        #expect(asked.json?["idempotencyKey"] == "apples-1")
        #expect(asked.stdout.contains("don't know whether"), "the conversation does not call it a failure")
        release.signal()
        try settle(host)
        #expect(try tasks(host).isEmpty, "nothing was done after its deadline")

        let again = try host.ctl("send", Self.app, "AddTasks", "targetTaskList=Grocery Store", "taskTitles=rice", "--idempotency-key", String(key))
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        let askedAgain = try host.ctl("ask", "In ListOMat add apples to the grocery store list", "--idempotency-key", "apples-1")
        #expect(askedAgain.status == 0, "\(askedAgain.stdout)\(askedAgain.stderr)")
        #expect(try tasks(host) == ["rice": 1, "apples": 1])
    }

    @Test("A key given again with other parameters is refused and nothing is sent: its first outcome answers another request")
    func keyGivenAgainWithOtherParametersIsRefused() throws {
        let host = try host(timeout: 1500)
        defer { host.stop(); host.removeState() }
        #expect(try host.ctl("authorize", Self.app, "allow").status == 0)
        let first = try host.ctl("send", Self.app, "AddTasks", "targetTaskList=Grocery Store", "taskTitles=rice", "--idempotency-key", "rice-1")
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let other = try host.ctl("send", Self.app, "AddTasks", "targetTaskList=Grocery Store", "taskTitles=beans", "--idempotency-key", "rice-1")
        #expect(other.status == 4, "\(other.stdout)\(other.stderr)")
        #expect("\(other.stdout)\(other.stderr)".contains("first given for another request"), "\(other.stdout)\(other.stderr)")
        // A conversation given the key is another request too (it was told "I added beans").
        let asked = try host.ctl("ask", "In ListOMat add beans to the grocery store list", "--idempotency-key", "rice-1", "--json")
        #expect(asked.status == 4, "\(asked.stdout)\(asked.stderr)")
        #expect(asked.json?["transcript"]?.arrayValue?.last?["text"]?.stringValue?.contains("the idempotency key you gave was first used for another request") == true, "\(asked.stdout)")
        let again = try host.ctl("send", Self.app, "AddTasks", "targetTaskList=Grocery Store", "taskTitles=rice", "--idempotency-key", "rice-1")
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try tasks(host) == ["rice": 1])
    }

    @Test("A handle done in time but answered late is unknown; asked again with its key, the host sends that handle again and reports it done, not the failure a second confirm would give")
    func lateAnswerRetriedWithTheKeyIsDone() throws {
        let host = try hostWithLateNotes(timeout: 1000)
        defer { host.stop(); host.removeState() }
        let first = try host.ctl("send", "LateNotes", "CreateNote", "title=Errands", "--idempotency-key", "late-1")
        #expect(first.status == 6, "outcome unknown: \(first.stdout)\(first.stderr)")
        usleep(1_000_000)  // the late answer has left by now
        let again = try host.ctl("send", "LateNotes", "CreateNote", "title=Errands", "--idempotency-key", "late-1", "--json")
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.json?["outcome"] == "success" && again.json?["code"] == "success", "\(again.stdout)")
        #expect(try lateNotes(host) == 1)
    }

    @Test("A send that gets no answer in intentctl's time names the key it went with and exits 6; sent again with that key, it is done once")
    func clientTimeoutNamesTheKey() throws {
        let host = try hostWithLateNotes(timeout: 10000)
        defer { host.stop(); host.removeState() }
        let first = try host.ctl("send", "LateNotes", "CreateNote", "title=Errands", "--timeout", "1")
        #expect(first.status == 6, "\(first.stdout)\(first.stderr)")
        let key = try #require(first.stderr.range(of: "--idempotency-key ").map { first.stderr[$0.upperBound...].prefix { !$0.isWhitespace && $0 != ")" } })
        usleep(1_500_000)  // the late answer has come by now
        let again = try host.ctl("send", "LateNotes", "CreateNote", "title=Errands", "--idempotency-key", String(key), "--json")
        #expect(again.status == 0 && again.json?["code"] == "success", "\(again.stdout)\(again.stderr)")
        #expect(try lateNotes(host) == 1)
    }

    @Test("A conversation whose handle is still out when the host stops hears that its outcome is unknown, with its key, not that the host shut down")
    func stopWithAHandleOutInAConversation() throws {
        let host = try hostWithLateNotes(timeout: 10000, late: 6)
        defer { host.stop(); host.removeState() }
        let ask = Process()
        ask.executableURL = Products.url("intentctl")
        ask.arguments = ["ask", "create a note called Errands in LateNotes", "--json", "--state-dir", host.state.path]
        let output = Pipe()
        ask.standardOutput = output
        ask.standardError = output
        try ask.run()
        // Its handle is out (the note is made, the answer 6 s away) when the host stops.
        let deadline = ContinuousClock.now + .seconds(10)
        while (try lateNotes(host) ?? 0) == 0 && ContinuousClock.now < deadline { usleep(50_000) }
        // The host alone stops; the extension goes on, its answer still to come.
        host.process?.terminate()
        host.process?.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ask.waitUntilExit()
        #expect(ask.terminationStatus == 6, "\(printed)")
        #expect(printed.contains("\"outcomeUnknown\""), "\(printed)")
        #expect(printed.contains("idempotencyKey"), "\(printed)")
    }

    @Test("A read of an intent restricted while locked is not sent to a second instance once the device is locked")
    func readIsAdmittedAgainBeforeAnotherInstance() throws {
        let host = try TestHost(["--request-timeout", "2000"])
        defer { host.stop(); host.removeState() }
        let registration = try Manifests.monkeyChat()
        let security = try host.extensionSecurity(trustedFor: registration.bundleIdentifier)
        let (a, first) = try RawPeer.register(registration, at: host.extensionEndpoint, as: security)
        let (b, second) = try RawPeer.register(registration, at: host.extensionEndpoint, as: security)
        #expect(a == "registered" && b == "registered")
        #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0)
        func requests(_ peer: RawPeer, within milliseconds: Int) throws -> Int {
            try peer.extensionMessages(for: milliseconds).filter { if case .request = $0 { true } else { false } }.count
        }
        let client = try PipelinedClient(host)
        let request = StageRequest(sessionId: "s", language: "en", intent: "SendMessage", parameters: ["content": "hi"])
        let id = try client.stage("MonkeyChat", "SendMessage", .confirm, request)
        let (toFirst, toSecond) = (try requests(first, within: 300), try requests(second, within: 10))
        #expect(toFirst + toSecond == 1)
        #expect(try host.ctl("lock").status == 0)
        // Halfway to its deadline an unanswered read would go to the other instance too.
        #expect(try requests(toFirst == 1 ? second : first, within: 1500) == 0, "a restricted read reached an instance while locked")
        #expect(try client.answers(to: [id], within: .seconds(5))[id] != nil)
    }

    @Test("An instance that registers again on its connection leaves its handle in flight answered outcomeUnknown at once, not at its deadline")
    func registeringAgainSettlesWhatWasSent() throws {
        let host = try TestHost(["--request-timeout", "10000"])
        defer { host.stop(); host.removeState() }
        let registration = try Manifests.monkeyChat()
        let (answer, peer) = try RawPeer.register(
            registration, at: host.extensionEndpoint, as: try host.extensionSecurity(trustedFor: registration.bundleIdentifier))
        #expect(answer == "registered")
        #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0)
        let client = try PipelinedClient(host)
        let request = StageRequest(sessionId: "s", language: "en", intent: "SendMessage", parameters: ["content": "hi"], idempotencyKey: "again-1")
        let id = try client.stage("MonkeyChat", "SendMessage", .handle, request)
        #expect(try peer.extensionMessages(for: 500).contains { if case .request = $0 { true } else { false } })
        try peer.register(registration)
        let answered = try client.answers(to: [id], within: .seconds(3))[id]
        #expect(answered?.code == "outcomeUnknown", "\(String(describing: answered))")
    }

    @Test("The same handle sent twice with one idempotency key makes one row and two identical answers")
    func sameKeyTwiceIsDoneOnce() throws {
        let host = try host(timeout: 5000)
        defer { host.stop(); host.removeState() }
        let send = { try host.ctl("send", Self.app, "AddTasks", "targetTaskList=Grocery Store", "taskTitles=rice", "--idempotency-key", "rice-1", "--json") }
        let first = try send(), second = try send()
        #expect(first.status == 0 && second.status == 0, "\(first.stdout)\(second.stdout)")
        #expect(first.json?["response"] != nil)
        #expect(first.json?["response"] == second.json?["response"], "the second answer is the first")
        #expect(first.json?["idempotencyKey"] == "rice-1")

        let client = try PipelinedClient(host)
        let staged = try (0..<2).map { _ in try client.ask { try $0.stage(Self.app, "AddTasks", .handle, addTask("olives", key: "olives-1")) } }
        #expect(staged[0] == staged[1], "a STAGE sent twice with one key gets one answer twice")
        #expect(try tasks(host) == ["rice": 1, "olives": 1])
    }

    @Test("With one of two instances stopped, resolves and confirms in flight are answered by the other")
    func readsGoToTheLiveInstance() throws {
        let host = try host(instances: 2, timeout: 2500)
        defer { host.stop(); host.removeState() }
        let pids = try pids(host)
        try #require(pids.count == 2)
        kill(pids[0], SIGSTOP)
        defer { kill(pids[0], SIGCONT) }
        // Two connections: the host takes at most 32 requests in flight from one.
        let resolver = try PipelinedClient(host), confirmer = try PipelinedClient(host)
        var resolves: [UInt64] = [], confirms: [UInt64] = []
        for i in 0..<20 {
            var request = addTask("read-\(i)", key: nil)
            request.parameter = "targetTaskList"
            request.required = true
            resolves.append(try resolver.stage(Self.app, "AddTasks", .resolve, request))
            confirms.append(try confirmer.stage(Self.app, "AddTasks", .confirm, addTask("read-\(i)", key: nil)))
        }
        for (client, ids) in [(resolver, resolves), (confirmer, confirms)] {
            let answers = try client.answers(to: ids)
            #expect(answers.count == ids.count)
            for id in ids {
                switch answers[id] {
                case .result(let body)?:
                    let json = try JSONValue.parse(body)
                    #expect(json["error"] == nil, "\(String(decoding: body, as: UTF8.self))")
                case let other: Issue.record("no reply: \(String(describing: other))")
                }
            }
        }
    }

    @Test("kill -9 during a stream of writes: every acknowledged write is stored, none twice, none answered failed, none unknownApp or extensionUnavailable")
    func killedDuringWritesKeepsAnswersTrue() throws {
        let host = try host(timeout: 4000)
        defer { host.stop(); host.removeState() }
        let client = try PipelinedClient(host)
        var outcomes: [String: Outcome] = [:]
        var staged: [String: PipelinedClient.Answer] = [:]
        var codes: [String: Int] = [:]
        var killed = false
        for window in 0..<8 {
            // Lifecycles (SUBMIT) and handle-only requests (STAGE handle with a key).
            var sent: [UInt64: String] = [:], handles: [UInt64: String] = [:]
            for i in 0..<6 {
                let title = "stream-\(window)-\(i)"
                sent[try client.submit(Self.app, "AddTasks", submission(title, key: nil))] = title
            }
            for i in 0..<4 {
                let title = "staged-\(window)-\(i)"
                handles[try client.stage(Self.app, "AddTasks", .handle, addTask(title, key: title))] = title
            }
            if window == 2, let pid = try pids(host).first {
                usleep(20_000)
                kill(pid, SIGKILL)
                killed = true
            }
            let answers = try client.answers(to: Array(sent.keys) + Array(handles.keys))
            #expect(answers.count == sent.count + handles.count)
            for (id, title) in sent { outcomes[title] = answers[id]?.outcome }
            for (id, title) in handles { staged[title] = answers[id] }
            for answer in answers.values { codes[answer.code ?? "success", default: 0] += 1 }
        }
        #expect(killed)
        #expect(codes["unknownApp"] == nil && codes["extensionUnavailable"] == nil, "the app was waited for: \(codes)")
        try settle(host)
        let stored = try tasks(host)
        var unknown: [String: Submission] = [:]
        for (title, outcome) in outcomes {
            switch (outcome.outcome, outcome.code) {
            case (.success, _): #expect(stored[title] == 1, "acknowledged \(title) is stored once")
            case (.failure, "outcomeUnknown"):
                unknown[title] = submission(title, key: try #require(outcome.idempotencyKey))
            default: #expect(stored[title] == nil, "\(title) was answered \(outcome.code) and must not be stored")
            }
        }
        var acknowledged = outcomes.filter { $0.value.outcome == .success }.count
        for (title, answer) in staged {
            if answer.json?["code"] == "success" {
                #expect(stored[title] == 1, "acknowledged \(title) is stored once")
                acknowledged += 1
            } else if answer.code == "outcomeUnknown" {
                unknown[title] = submission(title, key: title)
            } else {
                #expect(stored[title] == nil, "\(title) was answered \(String(describing: answer.code)) and must not be stored")
            }
        }
        let settled = try retry(host, unknown)
        let after = try tasks(host)
        for (title, outcome) in settled { #expect(outcome.outcome == .success && after[title] == 1, "\(title)") }
        #expect(after.values.allSatisfy { $0 == 1 }, "no duplicates: \(after)")
        #expect(after.count == acknowledged + settled.count, "acknowledged = stored")
        #expect(try host.waitFor([Self.app]).launches?.first?.restarts == 1, "status shows the restart")
    }

    @Test("Writes for an app that does not come back within their deadline fail extensionUnavailable (exit 5) and are never done, not even once it is back")
    func notBackInTimeIsUnavailableAndNeverDone() throws {
        // The first restart comes after a back-off of 1 s: later than these deadlines.
        let host = try host(timeout: 400)
        defer { host.stop(); host.removeState() }
        let pid = try #require(try pids(host).first)
        try host.killAndWaitForExit(pid: Int(pid))
        let client = try PipelinedClient(host)
        let staged = try client.stage(Self.app, "AddTasks", .handle, addTask("late-staged", key: "late-staged"))
        let submitted = try client.submit(Self.app, "AddTasks", submission("late-submitted", key: nil))
        let sent = try host.ctl("send", Self.app, "AddTasks", "targetTaskList=Grocery Store", "taskTitles=late-sent", "--json")
        #expect(sent.status == 5, "\(sent.stdout)\(sent.stderr)")
        #expect(sent.json?["code"] == "extensionUnavailable", "\(sent.stdout)")
        let answers = try client.answers(to: [staged, submitted])
        #expect(answers[staged]?.code == "extensionUnavailable", "\(String(describing: answers[staged]))")
        #expect(answers[submitted]?.code == "extensionUnavailable", "\(String(describing: answers[submitted]))")
        #expect(answers[submitted]?.outcome?.outcome == .failure)

        try host.waitFor([Self.app])
        try settle(host)
        #expect(try tasks(host).isEmpty, "nothing that failed was done once the app was back")
    }
}
