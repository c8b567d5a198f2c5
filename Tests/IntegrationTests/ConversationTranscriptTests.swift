import Foundation
import IntentProtocol
import Synchronization
import Testing

/// Golden transcripts: each file in Fixtures/conversations is a whole conversation,
/// typed into `intentctl chat` against a real host and real extensions. The host's
/// lines must come back exactly.
///
/// A file holds `# comments`, `> what the user types`, the host's expected lines, and
/// directives: `! extensions LIST`, `! host ARGS...`, `! env NAME=VALUE`,
/// `! extension APP EXECUTABLE ARGS...` (started by hand; `fixture:NAME` is a fixture's
/// path), `! ctl ARGS...` (runs intentctl), `! wait SECONDS`. In an expected line, `{{day}}`
/// stands for a day as the host says it relative to today ("today", "tomorrow", "Saturday",
/// …), for a day named in the request, which the day the test runs decides.
@Suite("Golden conversation transcripts", .serialized)
struct ConversationTranscriptTests {
    static var files: [String] {
        let directory = Products.fixtures.appendingPathComponent("conversations")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".txt") }.sorted()
    }

    /// Whether the host's line `got` is the `expected` one, where `{{day}}` is any words
    /// before the rest of the line.
    static func line(_ got: String, matches expected: String) -> Bool {
        let parts = expected.components(separatedBy: "{{day}}")
        guard parts.count == 2 else { return got == expected }
        return got.count > parts[0].count + parts[1].count && got.hasPrefix(parts[0]) && got.hasSuffix(parts[1])
    }

    @Test("The conversation goes exactly as its transcript says", arguments: files)
    func transcript(_ file: String) throws {
        let script = try Script(Products.fixtures.appendingPathComponent("conversations/\(file)"))
        let passed = script.environment.keys.sorted().flatMap { ["--pass-env", $0] }
        let host = try TestHost(["--extensions", script.extensions] + passed + script.hostArguments, environment: script.environment)
        defer { host.stop(); host.removeState() }
        for (_, executable, arguments) in script.handStarted {
            try host.startExtension(executable, arguments.map {
                $0.hasPrefix("fixture:") ? Products.fixtures.appendingPathComponent(String($0.dropFirst(8))).path : $0
            })
        }
        try host.waitFor(script.apps + script.handStarted.map(\.app))

        var steps = script.steps[...]
        // Directives before the first typed line run before the chat starts.
        while case .ctl(let arguments)? = steps.first {
            steps.removeFirst()
            _ = try host.ctl(arguments)
        }
        let chat = try ChatProcess(host: host, updates: false)
        var expected: [String] = []
        for step in steps {
            switch step {
            case .type(let line): try chat.type(line)
            case .expect(let line): expected.append(line)
            case .ctl(let arguments):
                try chat.waitForLines(expected.count)
                let result = try host.ctl(arguments)
                #expect(result.status == 0, "intentctl \(arguments.joined(separator: " ")): \(result.stderr)")
            case .wait(let seconds):
                try chat.waitForLines(expected.count)
                Thread.sleep(forTimeInterval: seconds)
            }
        }
        let got = try chat.finish()
        let same = got.count == expected.count && zip(got, expected).allSatisfy { Self.line($0, matches: $1) }
        #expect(same, "\(file): expected\n\(expected.joined(separator: "\n"))\n\nthe conversation went\n\(got.joined(separator: "\n"))\n\nhost log:\n\(host.hostLog.suffix(3000))")
    }
}

@Suite("Chatting in the terminal", .serialized)
struct ChatTests {
    @Test("chat shows the updates an app pushes while the conversation goes on")
    func pushedUpdates() throws {
        let host = try TestHost(
            ["--extensions", "rides", "--pass-env", "INTENTD_RIDE_SECONDS_PER_STEP"], environment: ["INTENTD_RIDE_SECONDS_PER_STEP": "1"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Zippy"])
        _ = try host.ctl("authorize", "Zippy", "allow")
        let chat = try ChatProcess(host: host, updates: true)
        try chat.type("Get me a Zippy to the Ferry Building")
        try chat.waitForLines(1)
        try chat.type("yes")
        try chat.waitForLines(3)
        let lines = try chat.finish(after: .seconds(4))
        #expect(lines.first == "Zippy: Request a Zippy Pool from Current Location to Ferry Building? It can pick you up in about 2 minutes.")
        #expect(lines.contains { $0.hasPrefix("Zippy: Your Zippy Pool to Ferry Building is booked") })
        #expect(lines.contains { $0.hasPrefix("Zippy · ride: Zippy Pool to Ferry Building: ") }, "\(lines)")
        // In words, not the phase's name: "a driver is assigned", not "confirmed" or "approachingPickup".
        #expect(lines.contains { $0.hasSuffix(": a driver is assigned") || $0.contains(": the driver is on the way to you, about") }, "\(lines)")
        #expect(!lines.contains { $0.contains("approachingPickup") || $0.contains(" s") && $0.contains("arriving in") }, "\(lines)")
    }
}

/// A transcript file, parsed.
struct Script {
    enum Step {
        case type(String)
        case expect(String)
        case ctl([String])
        case wait(Double)
    }

    var extensions = "messaging"
    var hostArguments: [String] = []
    var environment: [String: String] = [:]
    var steps: [Step] = []
    var handStarted: [(app: String, executable: String, arguments: [String])] = []

    /// The apps the extensions register.
    var apps: [String] {
        extensions.split(separator: ",").compactMap { ["messaging": "MonkeyChat", "lists": "List-o-Mat", "rides": "Zippy", "bench": "Bench"][String($0)] }
    }

    init(_ url: URL) throws {
        for raw in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("> ") { steps.append(.type(String(line.dropFirst(2)))); continue }
            guard line.hasPrefix("! ") else { steps.append(.expect(line)); continue }
            let words = Self.words(String(line.dropFirst(2)))
            switch words.first {
            case "extensions": extensions = words.dropFirst().joined(separator: ",")
            case "host": hostArguments += words.dropFirst()
            case "env":
                for pair in words.dropFirst() {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    if parts.count == 2 { environment[parts[0]] = parts[1] }
                }
            case "extension" where words.count >= 3:
                handStarted.append((words[1], words[2], Array(words.dropFirst(3))))
            case "ctl": steps.append(.ctl(Array(words.dropFirst())))
            case "wait": steps.append(.wait(Double(words.dropFirst().first ?? "") ?? 1))
            default: throw TestError("\(url.lastPathComponent): unknown directive \(line)")
            }
        }
    }

    /// Splits at spaces, keeping "quoted phrases" whole.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for c in text {
            if c == "\"" { quoted.toggle(); started = true; continue }
            if c == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(c)
                started = true
            }
        }
        if started { words.append(current) }
        return words
    }
}

/// `intentctl chat --no-updates` fed through a pipe, its output collected line by line.
final class ChatProcess: Sendable {
    private let process: Process
    private let input: FileHandle
    private let output = Collected()

    /// What the chat printed: whole lines, and the line still being written.
    final class Collected: Sendable {
        let lines = Mutex<[String]>([])
        let partial = Mutex<String>("")

        func add(_ data: Data) {
            partial.withLock { text in
                text += String(decoding: data, as: UTF8.self)
                while let newline = text.firstIndex(of: "\n") {
                    let line = String(text[..<newline])
                    text = String(text[text.index(after: newline)...])
                    lines.withLock { $0.append(line) }
                }
            }
        }
    }

    init(host: TestHost, updates: Bool) throws {
        process = Process()
        process.executableURL = Products.url("intentctl")
        process.arguments = ["chat", "--state-dir", host.state.path] + (updates ? [] : ["--no-updates"])
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        input = stdin.fileHandleForWriting
        stdout.fileHandleForReading.readabilityHandler = { [output] handle in
            let data = handle.availableData
            if !data.isEmpty { output.add(data) }
        }
        try process.run()
    }

    func type(_ line: String) throws {
        try input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Waits until the chat has printed `count` lines.
    func waitForLines(_ count: Int, timeout: Duration = .seconds(30)) throws {
        let deadline = ContinuousClock.now + timeout
        while output.lines.withLock({ $0.count }) < count {
            guard ContinuousClock.now < deadline else {
                throw TestError("chat printed \(output.lines.withLock { $0 }) but \(count) lines were expected")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Ends the input (after `after`), waits for the chat to exit, and returns everything
    /// it printed.
    func finish(after: Duration = .zero) throws -> [String] {
        if after > .zero { Thread.sleep(forTimeInterval: Double(after.components.seconds)) }
        try input.close()
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { process.terminate() }
        Thread.sleep(forTimeInterval: 0.1)
        return output.lines.withLock { $0 } + output.partial.withLock { $0.isEmpty ? [] : [$0] }
    }
}
