import Foundation
import Synchronization

/// A real terminal: a program runs in a pseudo-terminal of a private tmux server, keys are
/// typed into it, and the screen is read back as a person would see it.
final class TerminalSession {
    private let server: String
    private static let sessions = Atomic<Int>(0)

    /// Starts `command` (run by bash, which waits for it, so that a Ctrl-C meant for the
    /// program does not end the shell) in a terminal of `columns` × `rows`; when the
    /// program ends, the screen says `TERMINAL-END-<status>`.
    init(_ command: String, columns: Int = 160, rows: Int = 60) throws {
        server = "intentd-test-\(getpid())-\(Self.sessions.wrappingAdd(1, ordering: .relaxed).newValue)"
        try tmux(
            "new-session", "-d", "-s", "main", "-x", String(columns), "-y", String(rows),
            "bash", "--norc", "--noprofile", "-c", "\(command); echo TERMINAL-END-$?; sleep 600")
    }

    deinit { close() }

    /// Closes the terminal, as closing its window does: the program's terminal hangs up.
    func close() { _ = try? tmux("kill-server") }

    /// Types text without pressing Enter.
    func type(_ text: String) throws { try tmux("send-keys", "-t", "main", "-l", text) }

    /// Types a line and presses Enter.
    func typeLine(_ text: String) throws {
        try type(text)
        try press("Enter")
    }

    /// Pastes text as a terminal does, marked as a paste when the program asked for that
    /// (bracketed paste); its line ends are sent as Enter is.
    func paste(_ text: String) throws {
        try tmux("set-buffer", "-b", "pasted", "--", text)
        try tmux("paste-buffer", "-p", "-d", "-b", "pasted", "-t", "main")
    }

    /// Resizes the terminal, as dragging its window's edge does.
    func resize(columns: Int) throws { try tmux("resize-window", "-t", "main", "-x", String(columns)) }

    /// Presses keys by tmux's names: `Enter`, `Up`, `C-c`, `C-d`, `C-u`.
    func press(_ keys: String...) throws { try tmux(["send-keys", "-t", "main"] + keys) }

    /// The screen and what scrolled off it, without trailing blank lines.
    func screen() throws -> String {
        let text = try tmux("capture-pane", "-p", "-t", "main", "-S", "-500")
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .reversed().drop { $0.trimmingCharacters(in: .whitespaces).isEmpty }.reversed().joined(separator: "\n")
    }

    /// The screen's lines, blank ones left out.
    func lines() throws -> [String] {
        try screen().split(separator: "\n").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Waits until `condition` holds for the screen; fails with the screen after `timeout`.
    @discardableResult
    func waitUntil(
        _ what: String, timeout: Duration = .seconds(30), _ condition: (String) -> Bool
    ) throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let text = try screen()
            if condition(text) { return text }
            guard ContinuousClock.now < deadline else { throw TestError("waited for \(what); the screen shows:\n\(text)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits until the screen shows `text`.
    @discardableResult
    func waitFor(_ text: String, timeout: Duration = .seconds(30)) throws -> String {
        try waitUntil("“\(text)”", timeout: timeout) { $0.contains(text) }
    }

    @discardableResult
    private func tmux(_ arguments: String...) throws -> String { try tmux(arguments) }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        // posix_spawn, not Process: Process learns that a child ended when a socket it
        // hands the child closes, and the tmux server that new-session forks keeps it open.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(server)-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: file) }
        let argv = ["/usr/bin/env", "tmux", "-L", server, "-f", "/dev/null"] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // A clean start: no signal blocked, every signal at its default.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw TestError("cannot start tmux: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let data = (try? Data(contentsOf: file)) ?? Data()
        let text = String(decoding: data, as: UTF8.self)
        guard status == 0 || arguments.first == "kill-server" else {
            throw TestError("tmux \(arguments.joined(separator: " ")): \(text)")
        }
        return text
    }
}
