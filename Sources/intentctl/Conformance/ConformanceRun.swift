import Foundation
import IntentClient
import IntentProtocol
import LoadTest

/// One conformance run: a test host in a temporary state directory launches the extension
/// under test, and each check of its protocol behaviour prints one line, `PASS name` or
/// `FAIL name: why` (or `SKIP name: why` for a check the host cannot make).
final class ConformanceRun {
    let subject: ConformanceSubject
    let catalog: Catalog
    let catalogDirectory: URL
    /// The host's language files, when not beside the catalog.
    let languagesDirectory: URL?
    let heartbeat: Int
    let requestTimeout: Int
    let forceIdempotency: Bool
    let keepState: Bool
    private(set) var failures = 0
    let printLine: (String) -> Void

    init(subject: ConformanceSubject, catalogDirectory: URL, languagesDirectory: URL? = nil, heartbeat: Int, requestTimeout: Int, forceIdempotency: Bool,
         keepState: Bool, print: @escaping (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }) throws {
        self.subject = subject
        self.catalogDirectory = catalogDirectory
        self.languagesDirectory = languagesDirectory
        catalog = try Catalog(directory: catalogDirectory)
        self.heartbeat = heartbeat
        self.requestTimeout = requestTimeout
        self.forceIdempotency = forceIdempotency
        self.keepState = keepState
        printLine = print
    }

    var bundle: String { subject.registration.bundleIdentifier }

    func check(_ name: String, _ problem: String?) {
        if let problem {
            failures += 1
            printLine("FAIL \(name): \(problem)")
        } else {
            printLine("PASS \(name)")
        }
    }

    /// Runs every check; true when none failed.
    func run() throws -> Bool {
        var template = Array("/tmp/intentctl-conformance-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ConformanceError("cannot make a temporary state directory") }
        let state = URL(fileURLWithPath: String(cString: made))
        defer { if !keepState { try? FileManager.default.removeItem(at: state) } else { printLine("state kept in \(state.path)") } }
        let config = state.appendingPathComponent("conformance-config.json")
        let launcher = try subject.writeLauncher(in: state)
        var fields: [String: JSONValue] = [
            "executables": ["subject": .string(launcher.path)],
            "manifests": ["subject": .string(subject.manifest.path)],
            "catalogDirectories": [.string(catalogDirectory.path)],
        ]
        if let languagesDirectory { fields["languagesDirectory"] = .string(languagesDirectory.path) }
        try Data(JSONValue.object(fields).serialized()).write(to: config)
        let host: HostProcess
        do {
            host = try HostProcess(
                extensions: ["subject"], apps: [], tcp: false, stateDirectory: state.appendingPathComponent("host").path,
                hostArguments: ["--config", config.path, "--no-sandbox", "--heartbeat", String(heartbeat),
                                "--request-timeout", String(requestTimeout)],
                wait: .seconds(15))
        } catch ClientError.timeout {
            check("registers and is accepted", "nothing registered within 15 s; \(why(state.appendingPathComponent("host")))")
            return false
        } catch ClientError.extensionEnded(let why) {
            check("registers and is accepted", why)
            return false
        }
        defer { host.stop() }
        try checks(host)
        return failures == 0
    }

    /// What the host's log and the extension's log say about a failed start.
    private func why(_ state: URL) -> String {
        let log = (try? String(contentsOf: state.appendingPathComponent("intentd.log"), encoding: .utf8)) ?? ""
        let lines = log.split(separator: "\n").filter { $0.contains("reject") || $0.contains("exited") }.suffix(2)
        return lines.isEmpty ? "the host logged nothing about it" : lines.joined(separator: " / ")
    }

    private func checks(_ host: HostProcess) throws {
        guard let security = host.security else { throw ConformanceError("the test host made no client key") }
        let client = try IntentClient(endpoint: host.clientEndpoint, timeout: .milliseconds(requestTimeout + 5000), security: security)
        let log = host.state.url.appendingPathComponent("intentd.log")

        // Registration.
        let app = try client.status().extensions.first { $0.bundleIdentifier == bundle }
        guard let app else {
            check("registers and is accepted", "another bundle id registered; the manifest says \(bundle)")
            return
        }
        let declared = Set(subject.registration.intentsSupported)
        check("registers and is accepted",
              Set(app.intentsSupported) == declared ? nil : "it registered \(app.intentsSupported.sorted()), the manifest says \(declared.sorted())")
        let pid = app.processIdentifiers.first

        // Heartbeats.
        usleep(useconds_t(heartbeat * 6 * 1000))
        let later = try client.status().extensions.first { $0.bundleIdentifier == bundle }
        let gone = lastGone(log) != nil
        check("heartbeats keep it registered over 6 heartbeat intervals (\(heartbeat) ms)",
              later?.processIdentifiers.first == pid && !gone ? nil : "the host forgot it: \(lastGone(log) ?? "it is no longer registered")")

        // Every stage of every intent.
        var handles: [(IntentDefinition, [UInt8], [UInt8])] = []
        for name in subject.registration.intentsSupported {
            guard let intent = catalog.intent(name) else {
                check("\(name) is in the catalog", "the host's catalog has no \(name)")
                continue
            }
            let parameters = SampleValues.parameters(of: intent)
            for parameter in intent.parameters {
                let request = StageRequest(
                    sessionId: "conformance-\(name)", language: "en", intent: name, parameters: parameters,
                    parameter: parameter.name, required: parameter.isRequired)
                check("resolve \(name).\(parameter.name) gives valid results of its type", answer {
                    ReplyCheck.resolveProblem(
                        try client.stage(app: bundle, intent: name, stage: .resolve, request), parameter: parameter,
                        count: SampleValues.resultCount(for: parameter))
                })
            }
            let request = StageRequest(sessionId: "conformance-\(name)", language: "en", intent: name, parameters: parameters)
            check("confirm \(name) answers a response code of the intent", answer {
                ReplyCheck.responseProblem(try client.stage(app: bundle, intent: name, stage: .confirm, request), intent: intent)
            })
            var body = try JSONValue(encoding: request).objectValue ?? [:]
            body["idempotencyKey"] = .string("conformance-\(name)-1")
            let handleBody = JSONValue.object(body).serialized()
            var first: [UInt8]?
            check("handle \(name) answers a response code of the intent", answer {
                let reply = try client.stage(app: bundle, intent: name, stage: .handle, body: handleBody)
                first = reply
                return ReplyCheck.responseProblem(reply, intent: intent)
            })
            if let first {
                handles.append((intent, handleBody, first))
                check("handle \(name)'s success reports what its domain requires", ReplyCheck.successProblem(first, intent: intent))
            }
        }

        // Several stages in one request (wire.md section 5b).
        batchChecks(client, declared: app.stages?.contains(StageBatch.capability) == true)

        // Bodies that are not StageRequests. (An intent the app does not support never
        // reaches it: the host refuses it with unknownIntent.)
        if let name = subject.registration.intentsSupported.first {
            for (stage, body) in [(Stage.resolve, "this is not JSON"), (Stage.handle, "[1, 2, 3]"), (Stage.confirm, "\"a string\"")] {
                check("a \(stage) request whose body is \(body) gets an ErrorReply", answer {
                    let reply = try client.stage(app: bundle, intent: name, stage: stage, body: Array(body.utf8))
                    return ReplyCheck.isErrorReply(reply) ? nil : "it answered \(ReplyCheck.excerpt(reply))"
                })
            }
            let after = try client.status().extensions.first { $0.bundleIdentifier == bundle }
            check("it is still running after malformed requests", after?.processIdentifiers.first == pid ? nil : "it is gone or restarted")
        }

        // Idempotency keys (wire.md section 5a).
        if forceIdempotency || hostChecksIdempotencyKeys(client) {
            for (intent, body, first) in handles {
                check("handle \(intent.name) again with the same idempotency key gives the identical answer", answer {
                    let again = try client.stage(app: bundle, intent: intent.name, stage: .handle, body: body)
                    let same = (try? JSON.decode(JSONValue.self, from: again)) == (try? JSON.decode(JSONValue.self, from: first))
                    return same ? nil : "the answers differ: \(ReplyCheck.difference(first, again))"
                })
            }
        } else {
            printLine("SKIP repeated handles with the same idempotency key: this host does not check idempotency keys (pass --idempotency to check them anyway)")
        }

        // A clean stop.
        check("on SIGTERM it sends DISCONNECT and exits within 2 s", stopProblem(pid: pid, log: log))
    }

    /// Runs one exchange; a host ERROR (such as extensionTimeout) or no answer is a failure.
    func answer(_ body: () throws -> String?) -> String? {
        do { return try body() } catch { return "\(error)" }
    }

    /// Whether the host refuses a handle with a malformed idempotency key, as a host that
    /// implements wire.md section 5a does; such a host checks that extensions honour keys.
    private func hostChecksIdempotencyKeys(_ client: IntentClient) -> Bool {
        guard let name = subject.registration.intentsSupported.first else { return false }
        do {
            _ = try client.stage(app: bundle, intent: name, stage: .handle, body: Array(#"{"idempotencyKey":"not a valid key!"}"#.utf8))
            return false
        } catch ClientError.host(let code, _) {
            return code == "malformed"
        } catch {
            return false
        }
    }

    private func stopProblem(pid: Int?, log: URL) -> String? {
        guard let pid, pid > 0 else { return "the host reported no process id" }
        guard kill(pid_t(pid), SIGTERM) == 0 else { return "cannot signal process \(pid)" }
        let deadline = ContinuousClock.now + .seconds(2)
        while Self.isRunning(pid), ContinuousClock.now < deadline { usleep(10_000) }
        if Self.isRunning(pid) { return "still running 2 s after SIGTERM (the host would kill it)" }
        let told = ContinuousClock.now + .seconds(1)
        while ContinuousClock.now < told {
            if let line = lastGone(log) {
                return line.hasSuffix("is gone: it disconnected") ? nil : "it exited without DISCONNECT (\(line))"
            }
            usleep(20_000)
        }
        return "it exited but the host never heard DISCONNECT"
    }

    /// Whether a process runs (a zombie has ended).
    static func isRunning(_ pid: Int) -> Bool {
        ProcessStat.read(pid: pid).map { !$0.hasEnded } ?? false
    }

    private func hostLog(_ log: URL) -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// The host's last line about this extension's instance going away.
    private func lastGone(_ log: URL) -> String? {
        hostLog(log).split(separator: "\n").last { $0.contains("(\(bundle)#") && $0.contains("is gone") }.map(String.init)
    }
}
