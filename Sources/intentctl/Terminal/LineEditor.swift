import CLineEditing
import Foundation
import IntentProtocol
import Synchronization

/// Reads lines from the terminal with line editing and history (libedit), or plainly
/// from a pipe. History persists in `historyFile`.
///
/// On a terminal, lines arrive through libedit's callback interface, one key at a time,
/// so that text shown while the user types (`show`, from any thread) goes above the line
/// being edited, which is then drawn again as it was. Ctrl-C drops the line being typed;
/// Ctrl-D on an empty line ends the input.
final class LineEditor: Sendable {
    /// What one read gives.
    enum Input: Equatable {
        /// A whole line, without its newline.
        case line(String)
        /// End of input (Ctrl-D, or the end of a pipe).
        case end
        /// A whole line finished after the read's deadline had passed.
        case lateLine(String)
    }

    /// How long a question waits: once `at` passes, `note` is shown and the line being
    /// typed gets `prompt`.
    struct Deadline: Sendable {
        let at: ContinuousClock.Instant
        let note: String
        let prompt: String
    }

    /// Whether input comes from a terminal (and goes through libedit).
    let interactive: Bool
    private let historyFile: String?
    private let utf8: Bool
    /// Text waiting to be shown above the line being edited, and whether one is.
    private let shared = Mutex<(editing: Bool, waiting: [String])>((false, []))
    private let interrupted = Atomic<Bool>(false)
    /// A pipe whose read end wakes the editing loop: for text to show, and for Ctrl-C.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Kept so that Ctrl-C goes on being caught while the editor lives.
    nonisolated(unsafe) private let interrupts: (any DispatchSourceSignal)?

    init(historyFile: String?) {
        self.historyFile = historyFile
        interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        var ends: [Int32] = [-1, -1]
        if interactive, pipe(&ends) == 0 {
            _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        guard interactive else {
            utf8 = true
            interrupts = nil
            return
        }
        utf8 = TerminalLocale.adoptUTF8()
        intentctl_rl_leave_signals_alone()
        rl_initialize()
        intentctl_rl_one_key_one_character()
        using_history()
        stifle_history(500)
        if let historyFile {
            _ = read_history(historyFile)
            intentctl_history_drop_unfit()
        }
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupts = source
        source.setEventHandler { [weak self] in self?.interrupt() }
        source.resume()
    }

    deinit {
        interrupts?.cancel()
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// The next line, or the end of input; Ctrl-C drops the line being typed and reading
    /// goes on. On a terminal, `deadline`'s note and prompt are shown the moment it passes,
    /// and a line finished after that comes as `lateLine`. Call it from one thread only.
    func read(prompt: String, deadline: Deadline? = nil) -> Input {
        // From a pipe a line is an answer however late: the host says it stopped waiting.
        guard interactive else { return readLine().map(Input.line) ?? .end }
        interrupted.store(false, ordering: .relaxed)
        shared.withLock { $0.editing = true }
        EditedLine.received = nil
        var prompt = prompt
        var waiting = deadline
        var noted = false
        rl_callback_handler_install(TerminalLocale.displayable(prompt, utf8: utf8), EditedLine.handler)
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        var result: Input?
        while result == nil {
            let ready = poll(&fds, 2, waiting.map { Self.milliseconds(until: $0.at) } ?? -1)
            guard ready >= 0 || errno == EINTR else { result = .end; break }
            if let passed = waiting, passed.at <= .now {
                // The host stopped waiting: say so above the line, which stays as typed.
                waiting = nil
                prompt = passed.prompt
                shared.withLock { $0.waiting.append(passed.note) }
                _ = rl_set_prompt(TerminalLocale.displayable(prompt, utf8: utf8))
                showWaiting(redraw: true)
            }
            guard ready > 0 else { continue }
            if fds[1].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while Foundation.read(wakeRead, &sink, sink.count) > 0 {}
                if interrupted.exchange(false, ordering: .relaxed) {
                    // Drop the line, leave it visible with ^C after it as shells do, and
                    // start an empty one.
                    dropLine(marking: "^C", prompt: prompt)
                }
                showWaiting(redraw: true)
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                rl_callback_read_char()
                result = EditedLine.received
                if result == nil, intentctl_rl_line_length() > INTENTCTL_MAX_LINE_BYTES {
                    // Too long to hold: dropped as Ctrl-C drops a line (changing the line
                    // from outside left libedit's state broken), once said why.
                    if !noted {
                        noted = true
                        shared.withLock { $0.waiting.append("(A line holds at most 1,000 bytes of text, fewer characters outside ASCII: that one was dropped. Paste or type less at a time.)") }
                    }
                    dropLine(marking: "", prompt: prompt)
                    showWaiting(redraw: true)
                }
            }
        }
        if deadline != nil, waiting == nil, case .line(let line) = result { result = .lateLine(line) }
        rl_callback_handler_remove()
        if result == .end { write(raw: "\n") }
        shared.withLock { $0.editing = false }
        showWaiting(redraw: false)
        return result ?? .end
    }

    /// Ends the line being edited without taking it, `marking` after it, and starts an empty
    /// one: installing the handler again is what empties libedit's line.
    private func dropLine(marking: String, prompt: String) {
        rl_callback_handler_remove()
        write(raw: marking + "\r\n")
        rl_callback_handler_install(TerminalLocale.displayable(prompt, utf8: utf8), EditedLine.handler)
    }

    /// Remembers a line for the up arrow and the history file.
    func remember(_ line: String) {
        guard interactive, intentctl_history_fits(line) != 0 else { return }
        add_history(line)
        if let historyFile { _ = write_history(historyFile) }
    }

    /// Shows whole lines of text: above the line being edited while the user types (which
    /// is then drawn again), else at once. Safe from any thread.
    func show(_ text: String) {
        // What the host says carries strings extensions chose.
        var text = PeerNames.printable(text)
        if interactive { text = Self.wrapped(text, width: Self.columns() - 1) }
        let now: Bool = shared.withLock { state in
            guard state.editing else {
                FileHandle.standardOutput.write(Data((text + "\n").utf8))
                return true
            }
            state.waiting.append(text)
            return false
        }
        if !now { wake() }
    }

    /// A poll timeout in milliseconds that does not end before `instant`.
    private static func milliseconds(until instant: ContinuousClock.Instant) -> Int32 {
        let (seconds, attoseconds) = ContinuousClock.now.duration(to: instant).components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }

    /// The terminal's width in columns (80 when it does not say).
    private static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// `text` with each line broken at spaces into lines of at most `width` columns (a word
    /// wider than that is cut), so that the terminal does not break words.
    static func wrapped(_ text: String, width: Int) -> String {
        guard width >= 20 else { return text }
        var out: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var used = 0
            for word in paragraph.split(separator: " ") {
                var word = Substring(word)
                var wide = columns(of: word)
                if !line.isEmpty, used + 1 + wide > width {
                    out.append(line)
                    line = ""
                    used = 0
                }
                while line.isEmpty, wide > width {
                    let cut = prefix(of: word, columns: width)
                    out.append(String(cut))
                    word = word.dropFirst(cut.count)
                    wide = columns(of: word)
                }
                line += (line.isEmpty ? "" : " ") + word
                used += (used == 0 ? 0 : 1) + wide
            }
            out.append(line)
        }
        return out.joined(separator: "\n")
    }

    /// The columns `text` takes in a terminal: two for an emoji or a wide East Asian
    /// character, none for a zero-width one, one for anything else.
    static func columns(of text: Substring) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    private static func columns(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        // Emoji, a keycap ("1️⃣") among them, and what asks for emoji presentation.
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x20E3 }) { return 2 }
        if first.isASCII { return 1 }
        if first.properties.isEmojiPresentation { return 2 }
        switch first.value {
        case 0x00AD, 0x200B...0x200F, 0x2060...0x2064, 0xFEFF: return 0
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1B000...0x1B2FF, 0x20000...0x3FFFD:
            return 2
        default: return 1
        }
    }

    /// The longest start of `word` that fits in `columns` (at least one character).
    private static func prefix(of word: Substring, columns limit: Int) -> Substring {
        var used = 0
        var end = word.startIndex
        while end < word.endIndex {
            let next = used + columns(of: word[end])
            if next > limit, end > word.startIndex { break }
            used = next
            end = word.index(after: end)
        }
        return word[..<end]
    }

    private func interrupt() {
        let editing = shared.withLock { $0.editing }
        guard editing else {
            // Ctrl-C while waiting for the host: leave, as any terminal program would.
            FileHandle.standardOutput.write(Data("\n".utf8))
            exit(130)
        }
        interrupted.store(true, ordering: .relaxed)
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = Foundation.write(wakeWrite, &byte, 1)
    }

    /// Prints the text that came while the user typed. The terminal is in raw mode while
    /// a line is edited, so lines end in CR LF there; the edited line is cleared first and
    /// drawn again after.
    private func showWaiting(redraw: Bool) {
        let texts = shared.withLock { state in
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        guard !texts.isEmpty else { return }
        let lines = texts.joined(separator: "\n")
        if redraw {
            write(raw: "\r\u{1B}[K" + lines.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n")
            rl_forced_update_display()
        } else {
            FileHandle.standardOutput.write(Data((lines + "\n").utf8))
        }
    }

    private func write(raw text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// Where libedit's line handler, a C function that can capture nothing, leaves the line.
/// Only the thread inside `LineEditor.read` touches it.
private enum EditedLine {
    nonisolated(unsafe) static var received: LineEditor.Input?

    /// libedit's line handler: a whole line, or nil at the end of input.
    static let handler: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { line in
        let text = line.map { raw in
            defer { free(raw) }
            return String(cString: raw)
        }
        received = text.map(LineEditor.Input.line) ?? .end
    }
}
