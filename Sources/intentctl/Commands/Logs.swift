import ArgumentParser
import Foundation
import IntentClient
import IntentProtocol

/// `intentctl logs APP [--follow]`, `intentctl logs --trace ID`
struct Logs: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what a launched extension wrote to its standard output and error.",
        discussion: """
            The host keeps each launched extension's output in STATE/logs/BUNDLE-ID.log, every \
            line stamped with the time and the extension's name, and escaped. APP is the bundle \
            id, the app's name, or the name the host launches it by ("messaging"). With --trace, the lines of one \
            request's trace from the host's log and every extension's, in time order.
            """)

    @Argument(help: "The app: its bundle id, its name, or the name the host launches it by (\"messaging\").")
    var app: String?

    @Option(help: "Print every line, in the host's log and every extension's, of the request with this trace id (32 hex digits, or a whole traceparent).")
    var trace: String?

    @Flag(name: .shortAndLong, help: "Keep printing lines as they are written, until Ctrl-C.")
    var follow = false

    @OptionGroup var connection: Connection

    func run() throws {
        let directory = StateDirectory(explicit: connection.stateDirectory).logsDirectory
        if let trace {
            let id = TraceParent.traceID(of: trace) ?? trace.lowercased()
            guard id.count == 32, id.allSatisfy(\.isHexDigit) else { throw ValidationError("--trace: not a trace id (32 hex digits) nor a traceparent") }
            for line in try TraceLines.find(id, in: directory) { print(line) }
            return
        }
        guard let app else { throw ValidationError("name an app, or pass --trace ID") }
        let file = try locate(app, in: directory)
        var offset = 0
        var identity = Self.identity(of: file)
        offset = try printNew(file, from: 0)
        while follow {
            usleep(200_000)
            let now = Self.identity(of: file)
            // Rotated: the file was renamed to .log.1 and a new one begun.
            if now.inode != identity.inode || now.size < offset {
                identity = now
                offset = 0
            }
            offset = try printNew(file, from: offset)
        }
    }

    /// The log file of `app`: by bundle id, else through the host's status.
    private func locate(_ app: String, in directory: URL) throws -> URL {
        guard !app.isEmpty, !app.contains("/"), !app.hasPrefix(".") else { throw ValidationError("\"\(app)\" is not an app") }
        let direct = directory.appendingPathComponent("\(app).log")
        if FileManager.default.fileExists(atPath: direct.path) { return direct }
        if let status = try? connection.client().status() {
            // A registered app by its names, or a launch (also one crashing or restarting) by
            // its config name ("messaging") or app name.
            let registered = status.extensions.first { $0.isNamed(app) }.map { ($0.appName, $0.bundleIdentifier) }
            let launched = status.launch(named: app).map { ($0.appName, $0.bundleIdentifier) }
            // A launch's name is the operator's: it comes before what registered apps call themselves.
            if let (name, bundle) = launched ?? registered {
                let file = directory.appendingPathComponent("\(bundle).log")
                if FileManager.default.fileExists(atPath: file.path) { return file }
                throw CommandFailure("\(name) has no log here: the host did not launch it (\(file.path))")
            }
        }
        let known = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".log") }.map { String($0.dropLast(4)) }.sorted()
        throw CommandFailure(
            "no log for \"\(app)\" in \(directory.path)" + (known.isEmpty ? "" : "; logs: \(known.joined(separator: ", "))"))
    }

    /// Prints the file from `offset` on; returns the new end.
    private func printNew(_ file: URL, from offset: Int) throws -> Int {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: file) } catch {
            if follow { return offset }
            throw CommandFailure("cannot read \(file.path): \(describeFileError(error))")
        }
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        let data = try handle.readToEnd() ?? Data()
        if !data.isEmpty { FileHandle.standardOutput.write(data) }
        return offset + data.count
    }

    private static func identity(of file: URL) -> (inode: UInt64, size: Int) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        return ((attributes?[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0, (attributes?[.size] as? NSNumber)?.intValue ?? 0)
    }
}
