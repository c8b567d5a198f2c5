import Foundation
import IntentProtocol
import Testing

/// `intentctl new` makes a package that builds, passes its own test and registers as made.
@Suite("Scaffold", .serialized)
struct ScaffoldTests {
    static let repository = Products.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `command`, failing with its output if it fails.
    func run(_ command: [String], log: URL) throws {
        let p = try TestHost.launch(URL(fileURLWithPath: "/usr/bin/env"), command, output: log, environment: [:])
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw TestError("\(command.joined(separator: " ")) failed:\n\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
    }

    @Test("A package made by intentctl new builds, passes its test, registers with a running host and handles its intent")
    func newPackageWorks() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        let package = host.state.appendingPathComponent("Notely")
        let new = [Products.url("intentctl").path, "new", "Notely", "--domain", "ListsAndNotes"]
        try run(new + ["--intents", "CreateNote,AppendToNote", "--output", package.path, "--sdk", Self.repository.path], log: host.state.appendingPathComponent("new.log"))
        for file in ["Package.swift", "Sources/Notely/NotelyExtension.swift", "Sources/Notely/CreateNoteHandler.swift", "Sources/Notely/Manifest/Info.plist", "Tests/NotelyTests/NotelyTests.swift"] {
            #expect(FileManager.default.fileExists(atPath: package.appendingPathComponent(file).path), "no \(file)")
        }
        #expect(throws: TestError.self, "it overwrote a package") { try run(new + ["--output", package.path], log: host.state.appendingPathComponent("new-again.log")) }
        #expect(throws: TestError.self, "it took a name that is no Swift name") {
            try run([Products.url("intentctl").path, "new", "not-a-name", "--domain", "ListsAndNotes"], log: host.state.appendingPathComponent("new-bad.log"))
        }

        try run(["swift", "build", "--package-path", package.path], log: host.state.appendingPathComponent("notely-build.log"))
        try run(["swift", "test", "--package-path", package.path], log: host.state.appendingPathComponent("notely-test.log"))

        let executable = package.appendingPathComponent(".build/debug/Notely").path
        try host.startExtension(executable, [])
        try host.waitFor(["Notely"])
        let sent = try host.ctl("send", "Notely", "CreateNote", "title=Ideas", "--json")
        #expect(sent.status == 0, "\(sent.stdout) \(sent.stderr)")
        #expect(sent.json?["outcome"] == "success")
    }

    @Test("A domain defined only as a file: intentctl new makes its extension, a host given the file serves it, and a conversation understands it from the language file")
    func fileOnlyDomainEndToEnd() throws {
        let domains = Self.repository.appendingPathComponent("Examples/domains")
        let host = try TestHost(["--catalog", Self.repository.appendingPathComponent("Protocols/domains").path, "--catalog", domains.path])
        defer { host.stop(); host.removeState() }
        let package = host.state.appendingPathComponent("Workouts")
        try run([Products.url("intentctl").path, "new", "Workouts", "--domain", domains.appendingPathComponent("workouts.json").path,
            "--output", package.path, "--sdk", Self.repository.path], log: host.state.appendingPathComponent("new.log"))
        #expect(FileManager.default.fileExists(atPath: package.appendingPathComponent("Domain/workouts.json").path))
        try run(["swift", "build", "--package-path", package.path], log: host.state.appendingPathComponent("workouts-build.log"))
        try run(["swift", "test", "--package-path", package.path], log: host.state.appendingPathComponent("workouts-test.log"))

        try host.startExtension(package.appendingPathComponent(".build/debug/Workouts").path, [])
        try host.waitFor(["Workouts"])
        let sent = try host.ctl("send", "Workouts", "StartWorkout", "workoutName=run", "--json")
        #expect(sent.json?["outcome"] == "success", "\(sent.stdout) \(sent.stderr)")

        _ = try host.ctl("authorize", "Workouts", "allow")
        for (said, intent) in [("Start a run workout in Workouts", "StartWorkout"), ("pause my workout in Workouts", "PauseWorkout"),
            ("Resume my workout in Workouts", "ResumeWorkout"), ("end my run workout in workouts", "EndWorkout")] {
            let asked = try host.ctl("ask", said, "--json")
            #expect(asked.json?["intent"]?.stringValue == intent, "\(said): \(asked.stdout) \(asked.stderr)")
            #expect(asked.json?["outcome"] == "success", "\(said): \(asked.stdout)")
        }
    }

    @Test("A Python extension made by intentctl new passes its unit test, registers with a running host and handles its intent")
    func newPythonExtensionWorks() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        let folder = host.state.appendingPathComponent("Notepy")
        try run([Products.url("intentctl").path, "new", "Notepy", "--language", "python", "--domain", "ListsAndNotes",
            "--intents", "CreateNote,AddTasks", "--output", folder.path, "--sdk", Self.repository.path], log: host.state.appendingPathComponent("new.log"))
        let path = "PYTHONPATH=\(Self.repository.appendingPathComponent("sdk/python").path):\(folder.path)"
        try run([path, "/usr/bin/python3", "-m", "unittest", "discover", "-s", folder.appendingPathComponent("tests").path],
            log: host.state.appendingPathComponent("notepy-test.log"))

        try host.startExtension("/usr/bin/python3", ["-m", "notepy"], environment: ["PYTHONPATH": String(path.dropFirst("PYTHONPATH=".count))])
        try host.waitFor(["Notepy"])
        let sent = try host.ctl("send", "Notepy", "CreateNote", "title=Ideas", "--json")
        #expect(sent.json?["outcome"] == "success", "\(sent.stdout) \(sent.stderr)")
    }

    @Test("A domain of one's own that reuses an intent name the language reads gets phrases of its own from intentctl new, which the host reads; without them, it says at start that no pattern reads its parameters")
    func reusedIntentNameGetsPhrases() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fitly-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let domains = folder.appendingPathComponent("domains")
        try FileManager.default.createDirectory(at: domains, withIntermediateDirectories: true)
        // SiriKit's StartWorkout, with an `activity` where en.json's patterns read a `workoutName`.
        let fitness = #"{"name": "Fitness", "description": "Workouts.", "intents": [{"name": "StartWorkout", "description": "Starts one.", "parameters": [{"name": "activity", "type": "string", "prompt": "Which activity?"}], "responseCodes": [{"name": "ready", "value": 1, "kind": "ready"}, {"name": "success", "value": 3, "kind": "success"}]}, {"name": "EndSession", "description": "Ends one.", "requiresUserConfirmation": true, "parameters": [{"name": "activity", "type": "string", "prompt": "Which activity?"}], "responseCodes": [{"name": "ready", "value": 1, "kind": "ready"}, {"name": "success", "value": 3, "kind": "success"}]}]}"#
        try Data(fitness.utf8).write(to: domains.appendingPathComponent("fitness.json"))
        let package = folder.appendingPathComponent("Fitly")
        try run([Products.url("intentctl").path, "new", "Fitly", "--language", "python", "--domain", domains.appendingPathComponent("fitness.json").path,
            "--output", package.path, "--sdk", Self.repository.path], log: folder.appendingPathComponent("new.log"))
        let phrases = try String(contentsOf: package.appendingPathComponent("Phrases/en.json"), encoding: .utf8)
        #expect(phrases.contains("start workout {activity}") && !phrases.contains("examples\" : {\n    \"StartWorkout"), "\(phrases)")
        // An intent the user confirms is asked about in its own words, not "Should I go ahead?".
        #expect(phrases.contains("\"End session {activity}?\"") && phrases.contains("\"End session?\""), "\(phrases)")

        // Without the phrases, the host says at start that no pattern reads its parameters.
        let catalogs = ["--catalog", Self.repository.appendingPathComponent("Protocols/domains").path, "--catalog", domains.path]
        let bare = try TestHost(catalogs)
        let deadline = ContinuousClock.now + .seconds(10)
        while !bare.hostLog.contains("ready"), ContinuousClock.now < deadline { usleep(20_000) }
        let warned = bare.hostLog
        bare.stop()
        bare.removeState()
        #expect(warned.contains("patterns for StartWorkout read {workoutName}, which StartWorkout (domain Fitness) does not have"), "\(warned)")

        let host = try TestHost(catalogs + ["--phrases", package.appendingPathComponent("Phrases").path])
        defer { host.stop(); host.removeState() }
        let path = "\(Self.repository.appendingPathComponent("sdk/python").path):\(package.path)"
        try host.startExtension("/usr/bin/python3", ["-m", "fitly"], environment: ["PYTHONPATH": path])
        try host.waitFor(["Fitly"])
        _ = try host.ctl("authorize", "Fitly", "allow")
        let asked = try host.ctl("ask", "start workout yoga in Fitly", "--json")
        #expect(asked.json?["intent"] == "StartWorkout" && asked.json?["outcome"] == "success", "\(asked.stdout) \(asked.stderr)")
        #expect(!host.hostLog.contains("patterns for StartWorkout read"), "the phrases read its parameters: \(host.hostLog)")
    }
}
