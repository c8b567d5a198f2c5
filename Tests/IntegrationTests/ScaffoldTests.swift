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
}
