import Foundation
import IntentProtocol
import Testing

/// A batched lifecycle gives exactly what the one-stage-per-request lifecycle gives: three
/// real hosts, one with `batchedStages: false`, one batched and one batched with
/// `handleInBatch`, each with its own copy of the same extension (real processes, sockets
/// and SQLite), get the same submissions; their outcomes and the extensions' stored data
/// must match, and each batched host must have sent fewer requests than the one before.
@Suite("Batched stages", .serialized)
struct BatchedStagesTests {
    static let repository = Products.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let catalogs = ["--catalog", repository.appendingPathComponent("Protocols/domains").path,
        "--catalog", repository.appendingPathComponent("Examples/domains").path]

    /// One submission: `follow` names a member of an earlier handle response (by the step's
    /// index) whose value becomes parameter `into`, for intents that act on what an earlier
    /// one made (a ride's identifier).
    struct Step {
        let intent: String
        var parameters: [String: JSONValue]
        var confirmed: Bool? = nil
        var follow: (step: Int, member: String, into: String)? = nil
    }

    /// What one host did with the steps.
    struct Run {
        var outcomes: [JSONValue] = []
        var stored = ""
        var requests = 0
        var bytes = 0
    }

    /// Runs `steps` against a host (batched or not) with `start` starting the extension.
    func run(_ app: String, _ steps: [Step], batched: Bool, handleInBatch: Bool = false, start: (TestHost) throws -> Void) throws -> Run {
        let trace = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("intentd-trace-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: trace) }
        let host = try TestHost.configured(
            ["batchedStages": .bool(batched), "handleInBatch": .bool(handleInBatch)], Self.catalogs + ["--trace-wire", trace.path])
        defer { host.stop(); host.removeState() }
        try start(host)
        try host.waitFor([app])
        let client = try host.client()
        var result = Run()
        var responses: [JSONValue] = []
        for (index, step) in steps.enumerated() {
            var parameters = step.parameters
            if let follow = step.follow { parameters[follow.into] = responses[follow.step].objectValue?[follow.member] }
            let outcome = try client.submit(app: app, intent: step.intent, Submission(
                parameters: parameters, sessionId: "SESSION-\(index)", confirmed: step.confirmed, idempotencyKey: "key-\(index)"))
            responses.append(outcome.response?.json.objectValue?["response"] ?? .null)
            result.outcomes.append(outcome.json)
        }
        result.stored = try dump(host)
        (result.requests, result.bytes) = try extensionTraffic(trace)
        return result
    }

    /// Every SQLite database in the extensions' sandboxes, dumped, in name order.
    func dump(_ host: TestHost) throws -> String {
        let sandboxes = host.state.appendingPathComponent("sandboxes")
        var text = ""
        let files = (FileManager.default.enumerator(atPath: sandboxes.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".sqlite") || $0.hasSuffix(".db") }.sorted()
        for file in files {
            let p = Process()
            let pipe = Pipe()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            p.arguments = [sandboxes.appendingPathComponent(file).path, ".dump"]
            p.standardOutput = pipe
            try p.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            text += "-- \(file)\n" + readable(String(decoding: data, as: UTF8.self))
        }
        return text
    }

    /// The dump with its blobs (`X'7b22…'`, the recorded replies) as text, so that masking
    /// sees the identifiers and times in them, and JSON in them with sorted members.
    func readable(_ dump: String) -> String {
        guard let blob = try? NSRegularExpression(pattern: "X'([0-9a-fA-F]*)'") else { return dump }
        var text = dump
        for match in blob.matches(in: dump, range: NSRange(dump.startIndex..., in: dump)).reversed() {
            guard let whole = Range(match.range, in: dump), let hex = Range(match.range(at: 1), in: dump) else { continue }
            var bytes: [UInt8] = []
            var index = dump[hex].startIndex
            while index < dump[hex].endIndex, let next = dump[hex].index(index, offsetBy: 2, limitedBy: dump[hex].endIndex) {
                bytes.append(UInt8(dump[index..<next], radix: 16) ?? 0)
                index = next
            }
            // JSON in a blob compares by value: its writer need not sort members.
            let json = (try? JSONValue.parse(bytes))?.serialized() ?? bytes
            text.replaceSubrange(whole, with: "blob(" + String(decoding: json, as: UTF8.self) + ")")
        }
        return text
    }

    /// REQUESTs the host sent on the extension endpoint, and the bytes of every REQUEST and REPLY.
    func extensionTraffic(_ trace: URL) throws -> (requests: Int, bytes: Int) {
        var requests = 0, bytes = 0
        for line in try String(contentsOf: trace, encoding: .utf8).split(separator: "\n") {
            let entry = try JSONValue.parse(Array(line.utf8))
            guard entry.objectValue?["endpoint"] == "extensions" else { continue }
            for frame in entry.objectValue?["frames"]?.arrayValue ?? [] {
                guard let text = frame.stringValue, let data = Data(base64Encoded: text), data.count > 9 else { continue }
                if data[9] == Command.request.rawValue { requests += 1 }
                if data[9] == Command.request.rawValue || data[9] == Command.reply.rawValue { bytes += data.count }
            }
        }
        return (requests, bytes)
    }

    /// Runs `steps` three ways (one stage per request, batched, batched with the handle)
    /// and checks that they agree.
    func compare(_ app: String, _ steps: [Step], start: (TestHost) throws -> Void) throws {
        let single = try run(app, steps, batched: false, start: start)
        let batched = try run(app, steps, batched: true, start: start)
        let withHandle = try run(app, steps, batched: true, handleInBatch: true, start: start)
        for (way, other) in [("batched", batched), ("batched with the handle", withHandle)] {
            for (index, step) in steps.enumerated() {
                #expect(masked(single.outcomes[index]) == masked(other.outcomes[index]), "\(app) \(step.intent) #\(index), \(way)")
            }
            let one = masked(single.stored).split(separator: "\n"), two = masked(other.stored).split(separator: "\n")
            #expect(one == two, "\(app)'s stored data differs: one by one \(one.filter { !two.contains($0) }), \(way) \(two.filter { !one.contains($0) })")
        }
        #expect(batched.requests < single.requests, "\(app): \(batched.requests) batched requests, \(single.requests) one by one")
        #expect(withHandle.requests < batched.requests, "\(app): \(withHandle.requests) with the handle, \(batched.requests) batched")
        print("\(app): \(steps.count) lifecycles; one stage per request: \(single.requests) requests, \(single.bytes) bytes; batched: \(batched.requests) requests, \(batched.bytes) bytes; with the handle: \(withHandle.requests) requests, \(withHandle.bytes) bytes")
    }

    /// Values an extension makes up anew in each run (generated identifiers, clock times)
    /// replaced by a placeholder, so that two runs compare.
    func masked(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(members.mapValues(masked))
        case .array(let items): return .array(items.map(masked))
        case .string(let text): return .string(masked(text))
        default: return value
        }
    }

    func masked(_ text: String) -> String {
        var text = text
        let patterns = [
            #"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"#,
            // Each lifecycle's own trace (traceparent).
            #"00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}"#,
            #"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?Z?"#,
            #"\b1[6-9]\d{8}(\.\d+)?\b"#, #"\b1[6-9]\d{11}\b"#,
        ]
        for pattern in patterns {
            text = text.replacingOccurrences(of: pattern, with: "<made>", options: .regularExpression)
        }
        return text
    }

    @Test("MonkeyChat: every intent gives the same outcomes, resolutions and stored messages batched, with or without the handle, as one stage per request")
    func monkeyChat() throws {
        try compare("MonkeyChat", [
            Step(intent: "SendMessage", parameters: ["recipients": ["Bobo"], "content": "hi"]),
            Step(intent: "SendMessage", parameters: ["recipients": ["Bobo", "Kiki"], "content": "two"]),
            Step(intent: "SendMessage", parameters: ["recipients": ["Nobody At All"], "content": "x", "groupName": "g"]),
            Step(intent: "SendMessage", parameters: [:]),
            Step(intent: "SearchForMessages", parameters: ["searchTerms": ["hi"]]),
            Step(intent: "SearchForMessages", parameters: ["senders": ["Bobo"], "attributes": ["flagged"]]),
            Step(intent: "SetMessageAttribute", parameters: ["identifiers": ["m-welcome-1"], "attribute": "flagged"]),
            Step(intent: "SetMessageAttribute", parameters: ["identifiers": ["nope"], "attribute": "read"]),
        ]) { try $0.startExtension("MonkeyChat") }
    }

    @Test("List-o-Mat: every intent gives the same outcomes, resolutions and stored lists and notes batched, with or without the handle, as one stage per request")
    func listOMat() throws {
        try compare("List-o-Mat", [
            Step(intent: "CreateTaskList", parameters: ["title": "Grocery Store", "taskTitles": ["milk", "eggs"]]),
            Step(intent: "AddTasks", parameters: ["targetTaskList": "Grocery Store", "taskTitles": ["rice", "bread"], "priority": "flagged"]),
            Step(intent: "AddTasks", parameters: ["targetTaskList": "Grocery Stor", "taskTitles": ["tea"]]),
            Step(intent: "AddTasks", parameters: [:]),
            Step(intent: "CreateNote", parameters: ["title": "Ideas", "content": "first"]),
            Step(intent: "AppendToNote", parameters: ["targetNote": "Ideas", "content": "more"]),
            Step(intent: "SetTaskAttribute", parameters: ["targetTask": "rice", "status": "completed"]),
            Step(intent: "SearchForNotebookItems", parameters: ["title": "Grocery Store"]),
            Step(intent: "SnoozeTasks", parameters: ["tasks": ["eggs"], "nextTriggerTime": "2031-01-01T10:00:00Z"]),
            Step(intent: "SnoozeTasks", parameters: ["tasks": ["eggs"]]),
            Step(intent: "DeleteTasks", parameters: ["taskList": "Grocery Store", "tasks": ["milk"]], confirmed: true),
        ]) { try $0.startExtension("ListOMat") }
    }

    @Test("Zippy: every intent, a ride that needs the user's yes included, gives the same outcomes and stored rides batched, with or without the handle, as one stage per request")
    func zippy() throws {
        try compare("Zippy", [
            Step(intent: "ListRideOptions", parameters: ["dropOffLocation": "Airport"]),
            Step(intent: "RequestRide", parameters: ["dropOffLocation": "Airport", "partySize": 2]),
            Step(intent: "RequestRide", parameters: ["dropOffLocation": "Airport", "partySize": 2], confirmed: true),
            Step(intent: "RequestRide", parameters: [:]),
            Step(intent: "GetRideStatus", parameters: [:]),
            Step(intent: "SendRideFeedback", parameters: ["rating": 5], follow: (2, "rideIdentifier", "rideIdentifier")),
            Step(intent: "CancelRide", parameters: [:], confirmed: true, follow: (2, "rideIdentifier", "rideIdentifier")),
            Step(intent: "CancelRide", parameters: ["rideIdentifier": "no-such-ride"], confirmed: true),
        ]) { try $0.startExtension("Zippy") }
    }

    @Test("A domain defined only as a file, served by a Python extension made by intentctl new, gives the same outcomes batched, with or without the handle, as one stage per request")
    func fileOnlyDomain() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("intentd-workouts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let new = try TestHost.launch(Products.url("intentctl"), ["new", "Workouts", "--language", "python", "--domain",
            Self.repository.appendingPathComponent("Examples/domains/workouts.json").path, "--output", folder.path,
            "--sdk", Self.repository.path], output: URL(fileURLWithPath: "/dev/null"), environment: [:])
        new.waitUntilExit()
        try #require(new.terminationStatus == 0)
        let path = "\(Self.repository.appendingPathComponent("sdk/python").path):\(folder.path)"
        try compare("Workouts", [
            Step(intent: "StartWorkout", parameters: ["workoutName": "run", "goalValue": 5, "workoutGoalUnitType": "kilometer"]),
            Step(intent: "StartWorkout", parameters: [:]),
            Step(intent: "PauseWorkout", parameters: ["workoutName": "run"]),
            Step(intent: "ResumeWorkout", parameters: [:]),
            Step(intent: "EndWorkout", parameters: ["workoutName": "run"]),
        ]) { try $0.startExtension(PythonSDKTests.python, ["-m", "workouts"], environment: ["PYTHONPATH": path]) }
    }
}
