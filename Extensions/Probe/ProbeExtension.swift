import Foundation
import IntentExtensionKit

/// A test-only extension that tries, on request, what a hostile extension would: the
/// `content` of a SendMessage it handles is a command, and the response's `result` says how
/// it went (`ok: …` or `error: …`). The sandbox tests drive it; it is no example to follow.
///
/// Commands: `read PATH`, `list PATH`, `write NAME TEXT` (in the sandbox directory),
/// `unix PATH` (connect to a Unix socket), `tcp HOST PORT`, `alloc MIB`, `spawn ARGUMENT`
/// (start `sleep ARGUMENT` as a helper), `spawnmany COUNT ARGUMENT`, `daemon ARGUMENT` (the
/// same helper in a session of its own, as a daemon starts), `burn COUNT SECONDS MARKER` (COUNT
/// helpers that each spin for SECONDS, MARKER among their arguments), `print TEXT` (to standard output), `where`
/// (sandbox directory, HOME, TMPDIR, working directory), `publish TOPIC BYTES` (an update
/// whose payload is a string of BYTES letters), `vocab COUNT` (COUNT vocabulary changes, one
/// after the other), `token` (its launch token), `exit STATUS`, `throw TEXT` (the handler throws an error saying TEXT). Confirm answers `ready`; to `big BYTES` it adds that many
/// letters to its response.
@main
struct ProbeExtension: IntentExtension {
    static var manifestURL: URL? { Bundle.module.url(forResource: "Info", withExtension: "plist", subdirectory: "Manifest") }

    let sandbox: URL
    let updates: UpdatePublisher
    let vocabulary: VocabularyPublisher

    init(context: ExtensionContext) async throws {
        sandbox = context.sandboxDirectory
        updates = context.updates
        vocabulary = context.vocabulary
    }

    func handler(for intent: Intent) -> (any IntentHandler)? { Command(sandbox: sandbox, updates: updates, vocabulary: vocabulary) }

    struct Command: IntentHandler {
        let sandbox: URL
        let updates: UpdatePublisher
        let vocabulary: VocabularyPublisher

        func confirm(_ intent: Intent) async throws -> IntentResponse {
            let words = (intent.string("content") ?? "").split(separator: " ")
            // "crash": a request that stops every instance it reaches, before it answers.
            if words.first == "crash" { exit(3) }
            guard words.first == "big", words.count == 2, let bytes = Int(words[1]), bytes >= 0, bytes < 1 << 26 else {
                return IntentResponse(code: "ready")
            }
            return IntentResponse(code: "ready", response: ["pad": .string(String(repeating: "x", count: bytes))])
        }

        func handle(_ intent: Intent) async throws -> IntentResponse {
            let text = intent.string("content") ?? ""
            if text.hasPrefix("throw ") { throw Failure(description: String(text.dropFirst(6))) }
            return IntentResponse(code: "success", response: ["result": .string(run(text))])
        }

        /// What `throw TEXT` throws.
        struct Failure: Error, CustomStringConvertible { let description: String }

        func run(_ text: String) -> String {
            let words = text.split(separator: " ", maxSplits: 2).map(String.init)
            let argument = words.count > 1 ? words[1] : ""
            let rest = words.count > 2 ? words[2] : ""
            switch words.first ?? "" {
            case "read":
                guard let data = FileManager.default.contents(atPath: argument) else { return "error: \(reason(argument))" }
                return "ok: " + String(decoding: data.prefix(8192), as: UTF8.self)
            case "list":
                do { return "ok: " + (try FileManager.default.contentsOfDirectory(atPath: argument)).sorted().joined(separator: ",") } catch {
                    return "error: \(error.localizedDescription)"
                }
            case "write":
                let file = sandbox.appendingPathComponent(argument)
                do { try Data(rest.utf8).write(to: file) } catch { return "error: \(error.localizedDescription)" }
                return "ok: \(file.path)"
            case "unix":
                return connectUnix(argument)
            case "tcp":
                return connectTCP(argument, port: UInt16(rest) ?? 0)
            case "publish":
                updates.publish(argument, .string(String(repeating: "x", count: Int(rest) ?? 0)))
                return "ok: published"
            case "vocab":
                for i in 0..<(Int(argument) ?? 0) { vocabulary.set(["term \(i)"], for: "probeName") }
                return "ok: sent"
            case "alloc":
                let megabytes = Int(argument) ?? 0
                var blocks: [UnsafeMutableRawPointer] = []
                for _ in 0..<megabytes {
                    guard let block = malloc(1 << 20) else { return "error: malloc failed after \(blocks.count) MiB" }
                    memset(block, 1, 1 << 20)
                    blocks.append(block)
                }
                blocks.forEach { free($0) }
                return "ok: allocated \(megabytes) MiB"
            case "spawn":
                let (pid, result) = spawnSleep(argument)
                return result == 0 ? "ok: \(pid)" : "error: \(String(cString: strerror(result)))"
            case "daemon":
                let (pid, result) = spawnSleep(argument, newSession: true)
                return result == 0 ? "ok: \(pid)" : "error: \(String(cString: strerror(result)))"
            case "burn":
                let words = rest.split(separator: " ").map(String.init)
                guard let count = Int(argument), words.count == 2 else { return "error: burn COUNT SECONDS MARKER" }
                var started = 0
                for _ in 0..<min(count, 16) {
                    var pid: pid_t = 0
                    let argv = ["/usr/bin/timeout", words[0], "/bin/sh", "-c", "while :; do :; done", words[1]]
                    let c: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
                    defer { c.forEach { free($0) } }
                    if posix_spawn(&pid, argv[0], nil, nil, c, environ) == 0 { started += 1 }
                }
                return "ok: \(started)"
            case "spawnmany":
                // Starts up to ARGUMENT helpers (`sleep REST`); says how many started.
                var started = 0
                for _ in 0..<(Int(argument) ?? 0) {
                    guard spawnSleep(rest).1 == 0 else { break }
                    started += 1
                }
                return "ok: \(started)"
            case "print":
                FileHandle.standardOutput.write(Data((argument + (rest.isEmpty ? "" : " " + rest) + "\n").utf8))
                return "ok"
            case "where":
                let env = ProcessInfo.processInfo.environment
                return "ok: \(sandbox.path) \(env["HOME"] ?? "-") \(env["TMPDIR"] ?? "-") \(FileManager.default.currentDirectoryPath)"
            case "token":
                return "ok: " + (ProcessInfo.processInfo.environment["INTENTD_LAUNCH_TOKEN"] ?? "")
            case "exit":
                exit(Int32(argument) ?? 1)
            default:
                return "error: unknown command \(text)"
            }
        }

        /// Starts `sleep ARGUMENT` (through `setsid`, in a session of its own, if `newSession`);
        /// its pid and posix_spawn's result.
        func spawnSleep(_ argument: String, newSession: Bool = false) -> (pid_t, Int32) {
            var pid: pid_t = 0
            let words = (newSession ? ["/usr/bin/setsid"] : []) + ["/bin/sleep", argument]
            let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            return (pid, posix_spawn(&pid, words[0], nil, nil, argv, environ))
        }

        func reason(_ path: String) -> String {
            let fd = open(path, O_RDONLY)
            if fd >= 0 {
                close(fd)
                return "unreadable"
            }
            return String(cString: strerror(errno))
        }

        func connectUnix(_ path: String) -> String {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return "error: socket: \(String(cString: strerror(errno)))" }
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8.prefix(MemoryLayout.size(ofValue: address.sun_path) - 1))
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, b) in bytes.enumerated() { raw[i] = b }
            }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            return result == 0 ? "ok: connected" : "error: \(String(cString: strerror(errno)))"
        }

        func connectTCP(_ host: String, port: UInt16) -> String {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return "error: socket: \(String(cString: strerror(errno)))" }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return "error: bad address \(host)" }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            return result == 0 ? "ok: connected" : "error: \(String(cString: strerror(errno)))"
        }
    }
}
