import Foundation
import IntentProtocol
import Testing

/// `intentctl conformance` against the extensions this repository ships, which must pass
/// every check, and against one that answers wrongly, which must not.
@Suite("Conformance kit", .serialized)
struct ConformanceTests {
    /// Runs `intentctl conformance ARGUMENTS` and returns what it printed and its status.
    func conformance(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out")
        let p = try TestHost.launch(Products.url("intentctl"), ["conformance"] + arguments, output: output, environment: environment)
        p.waitUntilExit()
        return CommandResult(status: p.terminationStatus, stdout: (try? String(contentsOf: output, encoding: .utf8)) ?? "", stderr: "")
    }

    func lines(_ result: CommandResult, _ prefix: String) -> [String] {
        result.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }
    }

    /// Asserts that every check passed, and that the checks that matter were made.
    func expectEveryCheckPasses(_ result: CommandResult) {
        #expect(lines(result, "FAIL").isEmpty, "\(result.stdout)")
        #expect(result.status == 0, "\(result.stdout)")
        let passed = lines(result, "PASS")
        for check in ["PASS registers", "PASS heartbeats", "PASS resolve", "PASS confirm", "PASS handle", "PASS a resolve request", "PASS on SIGTERM"] {
            #expect(passed.contains { $0.hasPrefix(check) }, "no \(check) line in:\n\(result.stdout)")
        }
    }

    @Test("MonkeyChat, List-o-Mat and Zippy pass every check", arguments: ["MonkeyChat", "ListOMat", "Zippy"])
    func swiftSamplesPass(_ product: String) throws {
        expectEveryCheckPasses(try conformance(["--", Products.url(product).path]))
    }

    @Test("The Python example passes every check, repeated handles with one idempotency key included")
    func pythonExamplePasses() throws {
        let manifest = PythonSDKTests.sdk.appendingPathComponent("examples/jotter/Manifest/Info.plist")
        let result = try conformance(
            ["--manifest", manifest.path, "--idempotency", "--", PythonSDKTests.python, "-m", "jotter"],
            environment: PythonSDKTests.environment)
        expectEveryCheckPasses(result)
        #expect(lines(result, "PASS handle AppendToNote again with the same idempotency key").count == 1, "\(result.stdout)")
    }

    @Test("An extension that ends at start fails at once, with what it wrote last")
    func extensionThatEndsAtStartFailsAtOnce() throws {
        let result = try conformance([
            "--manifest", Products.fixtures.appendingPathComponent("BrokenNotes.plist").path, "--",
            "/bin/sh", "-c", "echo \"ModuleNotFoundError: No module named 'zmq'\" >&2; exit 1",
        ])
        #expect(result.status == 1, "\(result.stdout)")
        let failed = lines(result, "FAIL registers").first ?? ""
        // "ended before all registered", not "nothing registered within 15 s": it did not wait.
        #expect(failed.contains("ended before all registered: exited with status 1"), "\(result.stdout)")
        #expect(failed.contains("No module named 'zmq'"), "\(result.stdout)")
    }

    @Test("An extension that answers a number for a string, a code its intent does not have and a success that says nothing of what it made, and stops slowly, fails those checks")
    func brokenExtensionFails() throws {
        let fixture = Products.fixtures.appendingPathComponent("broken-notes.py")
        let result = try conformance(
            ["--manifest", Products.fixtures.appendingPathComponent("BrokenNotes.plist").path, "--", PythonSDKTests.python, fixture.path],
            environment: PythonSDKTests.environment)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(lines(result, "PASS registers").count == 1, "\(result.stdout)")
        #expect(lines(result, "FAIL resolve CreateNote.title").first?.contains("42 is not a string") == true, "\(result.stdout)")
        #expect(lines(result, "FAIL confirm CreateNote").first?.contains("code maybe is not one of CreateNote's") == true, "\(result.stdout)")
        #expect(lines(result, "PASS resolve CreateNote.content").count == 1, "the checks go on after a failure")
        // Its handle says success and nothing of the note made.
        #expect(lines(result, "FAIL handle CreateNote's success").first?.contains("success without createdNote") == true, "\(result.stdout)")
        #expect(lines(result, "FAIL on SIGTERM").first?.contains("still running 2 s after SIGTERM") == true, "\(result.stdout)")
    }

    @Test("intentctl copied out of the source tree makes a package for a domain of one's own from the repository given, and checks it with the language files given")
    func outOfTreeAuthoring() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("out-of-tree-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bin = directory.appendingPathComponent("bin"), domains = directory.appendingPathComponent("Domain")
        for folder in [bin, domains] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        // Copies, not links: nothing leads from them back to the repository.
        for tool in ["intentctl", "intentd"] { try FileManager.default.copyItem(at: Products.url(tool), to: bin.appendingPathComponent(tool)) }
        let domain = #"{"name": "Chores", "description": "Chores.", "intents": [{"name": "LogChore", "description": "Logs one.", "parameters": [{"name": "chore", "type": "string", "prompt": "Which chore?"}], "responseCodes": [{"name": "ready", "value": 1, "kind": "ready"}, {"name": "success", "value": 3, "kind": "success"}]}]}"#
        try Data(domain.utf8).write(to: domains.appendingPathComponent("chores.json"))
        let repository = Products.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let package = directory.appendingPathComponent("Chorely"), log = directory.appendingPathComponent("new.log")
        let new = try TestHost.launch(bin.appendingPathComponent("intentctl"), [
            "new", "Chorely", "--language", "python", "--domain", domains.appendingPathComponent("chores.json").path,
            "--output", package.path, "--sdk", repository.path,
        ], output: log, environment: [:])
        new.waitUntilExit()
        #expect(new.terminationStatus == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")

        let output = directory.appendingPathComponent("conformance.log")
        let check = try TestHost.launch(bin.appendingPathComponent("intentctl"), [
            "conformance", "--catalog", domains.path, "--languages", repository.appendingPathComponent("Protocols/languages").path,
            "--manifest", package.appendingPathComponent("chorely/Manifest/Info.plist").path, "--", PythonSDKTests.python, "-m", "chorely",
        ], output: output, environment: ["PYTHONPATH": "\(repository.appendingPathComponent("sdk/python").path):\(package.path)"])
        check.waitUntilExit()
        let result = CommandResult(status: check.terminationStatus, stdout: (try? String(contentsOf: output, encoding: .utf8)) ?? "", stderr: "")
        expectEveryCheckPasses(result)
    }
}
