import ArgumentParser
import Foundation
import IntentProtocol
import Understanding

/// `intentctl conformance [--manifest FILE] -- COMMAND ARGS...`
struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that an extension speaks the protocol: a test host launches it and each check prints PASS or FAIL.",
        discussion: """
            Starts intentd in a temporary state directory (without the sandbox), launches COMMAND as its \
            extension, and checks that it registers, heartbeats, answers resolve for every parameter of \
            every intent it supports with valid results of the parameter's type, answers confirm and \
            handle with the intent's response codes (a successful handle with the members its domain's \
            handleResponse requires), answers bodies that are not requests with an \
            ErrorReply, answers a repeated handle with the same idempotency key identically (on hosts \
            that check idempotency keys, or with --idempotency), and on SIGTERM sends DISCONNECT and \
            exits within 2 s. Exit status: 0 every check passed, 1 one failed, 2 it could not run.
            """)

    @Option(help: "The extension's manifest (default: the one beside the executable, as the host finds it).")
    var manifest: String?

    @Option(help: "The catalog directory (default: the one the host finds).")
    var catalog: String?

    @Option(help: "The language files' directory (default: the one beside the catalog, or beside the host's own catalog for a --catalog of one's own).")
    var languages: String?

    @Option(help: "The test host's heartbeat interval in milliseconds.")
    var heartbeat = 200

    @Option(help: "The test host's request timeout in milliseconds.")
    var requestTimeout = 2000

    @Flag(help: "Check repeated handles with one idempotency key even if the host does not check keys.")
    var idempotency = false

    @Flag(help: "Keep the test host's state directory (its logs) and print where it is.")
    var keepState = false

    @Argument(parsing: .postTerminator, help: "The extension's command and its arguments, after --.")
    var command: [String] = []

    func run() throws {
        do {
            guard heartbeat >= 50, requestTimeout >= 100 else { throw ConformanceError("--heartbeat must be at least 50 ms and --request-timeout 100 ms") }
            guard let catalogDirectory = Catalog.locate(explicit: catalog) else { throw ConformanceError("cannot find the catalog: pass --catalog DIR") }
            let subject = try ConformanceSubject(command: command, manifest: manifest)
            // Found as the host finds them; a catalog of one's own has none beside it, and then
            // the host's own are used.
            let languagesDirectory = languages.map { URL(fileURLWithPath: $0) } ?? LanguagePack.locate(besideCatalog: catalogDirectory)
            let run = try ConformanceRun(
                subject: subject, catalogDirectory: catalogDirectory, languagesDirectory: languagesDirectory, heartbeat: heartbeat, requestTimeout: requestTimeout,
                forceIdempotency: idempotency, keepState: keepState)
            let passed = try run.run()
            print(passed ? "conformance: every check passed" : "conformance: \(run.failures) check(s) failed")
            if !passed { throw ExitCode(1) }
        } catch let error as ExitCode {
            throw error
        } catch {
            FileHandle.standardError.write(Data("intentctl conformance: \(error)\n".utf8))
            throw ExitCode(Exit.usage)
        }
    }
}
