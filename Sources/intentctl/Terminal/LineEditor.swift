import CLineEditing
import Foundation
import IntentProtocol
import Synchronization

/// Reads lines from the terminal with line editing and history (libedit), or plainly
/// from a pipe. History persists in `historyFile`.
///
/// On a terminal, libedit reads one key at a time (its unbuffered mode), so that text
/// shown while the user types (`show`, from any thread) goes above the line being edited,
/// which is then drawn again as it was. Ctrl-C drops the line being typed; Ctrl-D on an
/// empty line ends the input.
final class LineEditor: Sendable {
    /// What one read gives.
    enum Input: Equatable {
        /// A whole line, without its newline.
        case line(String)
        /// End of input (Ctrl-D, or the end of a pipe).
        case end
        /// A whole line finished after the read's deadline had passed.
        case lateLine(String)
        /// Ctrl-C on an empty line, where the read was asked to end on it.
        case interrupted
    }

    /// How long a question waits: once `at` passes, `note` is shown and the line being
    /// typed gets `prompt`. A key typed within `renewWithin` of `at` asks for more time.
    struct Deadline: Sendable {
        let at: ContinuousClock.Instant
        let note: String
        let prompt: String
        var renewWithin: Duration = .zero
    }

    /// The most characters a line holds: far more than a request the host understands
    /// (100 words), few enough that drawing the line again stays quick.
    static let maximumCharacters = 4_000
    /// The most lines the history keeps.
    static let historySize = 500

    /// Whether input comes from a terminal (and goes through libedit).
    let interactive: Bool
    private let historyFile: String?
    private let utf8: Bool
    /// libedit's editor and history; only the thread inside `read` and `remember` uses them.
    nonisolated(unsafe) private let editor: OpaquePointer?
    nonisolated(unsafe) private let history: OpaquePointer?
    /// The lines of the history, oldest first, as the history file keeps them.
    private let remembered = Mutex<[String]>([])
    /// Text waiting to be shown above the line being edited, whether one is, and the prompt.
    private let shared = Mutex<(editing: Bool, waiting: [String], prompt: String)>((false, [], ""))
    private let interrupted = Atomic<Bool>(false)
    private let resized = Atomic<Bool>(false)
    /// A pipe whose read end wakes the editing loop: for text to show, Ctrl-C and a resize.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Kept so that Ctrl-C, resizes, SIGTERM and SIGHUP go on being caught while the editor lives.
    nonisolated(unsafe) private let signals: [any DispatchSourceSignal]
    /// SIGTERM and SIGHUP, where taken over from their defaults; given back when the editor goes.
    private let taken: [Int32]

    init(historyFile: String?) {
        self.historyFile = historyFile
        var ends: [Int32] = [-1, -1]
        let terminal = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        if terminal, pipe(&ends) == 0 {
            _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        let modes = TerminalModes()
        utf8 = terminal ? TerminalLocale.adoptUTF8() : true
        let history = terminal ? intentctl_history_open(Int32(Self.historySize)) : nil
        let editor = history.flatMap { intentctl_editor_open("intentctl", $0) }
        (self.history, self.editor) = (history, editor)
        interactive = editor != nil
        guard interactive else {
            signals = []
            taken = []
            return
        }
        signal(SIGINT, SIG_IGN)
        let interrupts = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        // libedit hears of no resize itself (it handles no signals here).
        let resizes = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        // SIGTERM or SIGHUP while a line is read would leave the terminal in raw mode and
        // marking pastes: it gets its modes back first. A signal ignored (nohup) stays so.
        taken = [SIGTERM, SIGHUP].filter(Self.takeOver)
        let endings = taken.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { modes.restoreAndEnd(by: number) }
            return source
        }
        signals = [interrupts, resizes] + endings
        if let historyFile { loadHistory(historyFile) }
        interrupts.setEventHandler { [weak self] in self?.interrupt() }
        resizes.setEventHandler { [weak self] in
            self?.resized.store(true, ordering: .relaxed)
            self?.wake()
        }
        for source in signals { source.resume() }
    }

    /// Ignores `number` for a signal source to hear it instead; false, and ignored as
    /// before, when the program was started with it ignored.
    private static func takeOver(_ number: Int32) -> Bool {
        let before = signal(number, SIG_IGN)
        return unsafeBitCast(before, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self)
    }

    deinit {
        for source in signals { source.cancel() }
        for number in taken { signal(number, SIG_DFL) }
        if let editor { intentctl_editor_close(editor) }
        if let history { history_wend(history) }
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// The next line, or the end of input; Ctrl-C drops the line being typed and reading
    /// goes on, or with `interruptible` on an empty line (before the deadline) ends the read
    /// with `interrupted`. On a terminal, `deadline`'s note and prompt are shown the moment
    /// it passes, and a line finished after that comes as `lateLine`; while the user types
    /// the line close to it, `keepWaiting` is asked for a later one (at most once a second).
    /// With `freshOnly`, on a terminal, what was typed before the call is dropped (and the
    /// user told so): a yes typed ahead of the question it would answer answers nothing.
    /// Call it from one thread only.
    func read(
        prompt: String, deadline: Deadline? = nil, interruptible: Bool = false, freshOnly: Bool = false,
        keepWaiting: () -> Deadline? = { nil }
    ) -> Input {
        // From a pipe a line is an answer however late: the host says it stopped waiting.
        guard let editor else { return readLine().map(Input.line) ?? .end }
        interrupted.store(false, ordering: .relaxed)
        setPrompt(prompt)
        shared.withLock { $0.editing = true }
        intentctl_editor_begin_line(editor)
        if freshOnly, Self.dropTypedAhead() {
            queue("(What was typed before this question was dropped: answer it now.)")
            showWaiting(redraw: true)
        }
        var waiting = deadline
        var renewed = ContinuousClock.now - .seconds(1)
        var noted = false
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        var result: Input?
        while result == nil {
            let ready = poll(&fds, 2, waiting.map { Self.milliseconds(until: $0.at) } ?? -1)
            guard ready >= 0 || errno == EINTR else { result = .end; break }
            if let passed = waiting, passed.at <= .now {
                // The host stopped waiting: say so above the line, which stays as typed.
                waiting = nil
                setPrompt(passed.prompt)
                queue(passed.note)
                showWaiting(redraw: true)
            }
            guard ready > 0 else { continue }
            if fds[1].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while Foundation.read(wakeRead, &sink, sink.count) > 0 {}
                if interrupted.exchange(false, ordering: .relaxed) {
                    if interruptible, deadline == nil || waiting != nil, lineLength(editor) == 0 {
                        write(raw: "^C")
                        result = .interrupted
                        break
                    }
                    // Drop the line, leave it visible with ^C after it as shells do, and
                    // start an empty one.
                    dropLine(marking: "^C")
                }
                if resized.exchange(false, ordering: .relaxed) {
                    // The line is laid out anew at the new width, on a row of its own.
                    write(raw: "\r\n")
                    intentctl_editor_resize(editor)
                }
                showWaiting(redraw: true)
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                result = readKey(editor, hungUp: fds[0].revents & Int16(POLLHUP | POLLERR) != 0)
                // Bytes the key reader read ahead (after an escape) are keys the terminal
                // will not signal again.
                while result == nil, intentctl_input_pending() != 0 { result = readKey(editor, hungUp: false) }
                // Typing an answer as its time runs out: the question waits longer.
                if result == nil, let current = waiting, current.at - .now < current.renewWithin, renewed.duration(to: .now) >= .seconds(1),
                    lineLength(editor) > 0
                {
                    renewed = .now
                    if let later = keepWaiting() { waiting = later }
                }
                if result == nil, lineLength(editor) > Self.maximumCharacters {
                    if !noted {
                        noted = true
                        queue("(A line holds at most 4,000 characters: that one was dropped. Paste or type less at a time.)")
                    }
                    dropLine(marking: "")
                    showWaiting(redraw: true)
                }
            }
        }
        if deadline != nil, waiting == nil, case .line(let line) = result { result = .lateLine(line) }
        intentctl_editor_end_line(editor)
        if result == .end || result == .interrupted { write(raw: "\n") }
        shared.withLock { $0.editing = false }
        showWaiting(redraw: false)
        return result ?? .end
    }

    /// Lets libedit take one key: the whole line once Enter ends it, the end of input
    /// for Ctrl-D on an empty line (or when the terminal is gone), else nil.
    private func readKey(_ editor: OpaquePointer, hungUp: Bool) -> Input? {
        var count: Int32 = 0
        errno = 0
        // Without a line, -1 is also what a key that empties the line gives (Ctrl-K);
        // only a failed read sets errno.
        let characters = el_wgets(editor, &count)
        let line = UnsafeBufferPointer(start: characters, count: characters == nil ? 0 : Int(max(count, 0)))
        guard let last = line.last else { return count < 0 && (errno != 0 || hungUp) ? .end : nil }
        if last == 4, line.count == 1 {
            // Ctrl-D on an empty line, which libedit shows as "^D": rubbed out.
            write(raw: "\u{8}\u{8}\u{1B}[K")
            return .end
        }
        guard last == 10 else {
            // The terminal is gone with a line half typed: the input has ended.
            return hungUp ? .end : nil
        }
        return .line(Self.text(line.dropLast()))
    }

    /// How many characters the line being edited has.
    private func lineLength(_ editor: OpaquePointer) -> Int {
        guard let info = el_wline(editor) else { return 0 }
        return info.pointee.lastchar - info.pointee.buffer
    }

    /// Ends the line being edited without taking it, `marking` after it, and starts an
    /// empty one under the prompt.
    private func dropLine(marking: String) {
        guard let editor else { return }
        intentctl_editor_end_line(editor)
        write(raw: marking + "\r\n")
        intentctl_editor_begin_line(editor)
    }

    private func setPrompt(_ prompt: String) {
        guard let editor else { return }
        shared.withLock { $0.prompt = prompt }
        intentctl_editor_set_prompt(editor, TerminalLocale.displayable(prompt, utf8: utf8))
    }

    /// Remembers a line for the up arrow and the history file.
    func remember(_ line: String) {
        guard let history, !line.isEmpty else { return }
        Self.add(line, to: history)
        let lines = remembered.withLock { lines in
            if lines.last != line { lines.append(line) }
            if lines.count > Self.historySize { lines.removeFirst(lines.count - Self.historySize) }
            return lines
        }
        if let historyFile { Self.save(lines, to: historyFile) }
    }

    /// Loads the history file: one line of history per line, each a JSON string, or a file
    /// in libedit's own format (which earlier versions wrote). Lines a line could not hold
    /// are left out.
    private func loadHistory(_ file: String) {
        guard let history, let data = FileManager.default.contents(atPath: file) else { return }
        var lines: [String] = []
        if let old = LibeditHistoryFile.lines(data) {
            lines = old
        } else {
            for row in data.split(separator: UInt8(ascii: "\n")) {
                if case .string(let line)? = try? JSON.decode(JSONValue.self, from: Array(row)) { lines.append(line) }
            }
        }
        lines = lines.filter { !$0.isEmpty && !$0.contains("\n") && $0.unicodeScalars.count <= Self.maximumCharacters }
            .suffix(Self.historySize)
        for line in lines { Self.add(line, to: history) }
        remembered.withLock { $0 = lines }
    }

    /// Writes the history file anew (where a symbolic link points, if it is one), readable
    /// only by its owner from its first byte. A history that cannot be saved is no reason to
    /// stop the chat: it is left as it was.
    private static func save(_ lines: [String], to file: String) {
        let text = lines.map { (try? JSON.encode(JSONValue.string($0))).map { String(decoding: $0, as: UTF8.self) } ?? "" }
            .filter { !$0.isEmpty }.joined(separator: "\n") + "\n"
        let target = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        let temporary = "\(target).\(getpid()).new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        if written != bytes.count || rename(temporary, target) != 0 { unlink(temporary) }
    }

    /// Puts `line` in libedit's history, for the up arrow.
    private static func add(_ line: String, to history: OpaquePointer) {
        wide(line).withUnsafeBufferPointer { intentctl_history_add(history, $0.baseAddress) }
    }

    /// `text` as a NUL-terminated wide string.
    private static func wide(_ text: String) -> [wchar_t] {
        text.unicodeScalars.map { wchar_t(bitPattern: $0.value) } + [0]
    }

    /// The text of wide characters; one that is no Unicode scalar becomes U+FFFD.
    private static func text(_ characters: some Sequence<wchar_t>) -> String {
        var scalars = String.UnicodeScalarView()
        for character in characters { scalars.append(Unicode.Scalar(UInt32(bitPattern: character)) ?? "\u{FFFD}") }
        return String(scalars)
    }

    /// Drops what the terminal holds that was not read yet, and the key reader's bytes read
    /// ahead; whether there was any (bytes that arrive between the look and the drop are
    /// dropped unsaid: typed in the same instant as the question appeared).
    private static func dropTypedAhead() -> Bool {
        var unread: Int32 = 0
        let any = (ioctl(STDIN_FILENO, UInt(FIONREAD), &unread) == 0 && unread > 0) || intentctl_input_pending() != 0
        tcflush(STDIN_FILENO, TCIFLUSH)
        intentctl_input_discard()
        return any
    }

    /// Queues a note of the editor's own to show above the line, laid out as `show` does.
    private func queue(_ note: String) {
        let text = laidOut(note)
        shared.withLock { $0.waiting.append(text) }
    }

    /// `text` wrapped between words to the terminal's width, on a terminal.
    private func laidOut(_ text: String) -> String {
        interactive ? Self.wrapped(text, width: Self.columns() - 1) : text
    }

    /// Shows whole lines of text: above the line being edited while the user types (which
    /// is then drawn again), else at once. Safe from any thread.
    func show(_ text: String) {
        // What the host says carries strings extensions chose.
        let text = laidOut(PeerNames.printable(text))
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

    /// On which row, counted from the first, the cursor stands after `text` is drawn from
    /// the start of a row `width` columns wide: a character two columns wide that does not
    /// fit at a row's end goes to the next row, and a full row moves the cursor on.
    static func rowsBelowStart(of text: String, width: Int) -> Int {
        guard width > 1 else { return 0 }
        var row = 0
        var column = 0
        for character in text {
            let wide = columns(of: character)
            if column + wide > width {
                row += 1
                column = 0
            }
            column += wide
        }
        return column >= width ? row + 1 : row
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
    /// a line is edited, so lines end in CR LF there; the rows of the edited line are
    /// cleared first and it is drawn again after.
    private func showWaiting(redraw: Bool) {
        let (texts, prompt) = shared.withLock { state in
            defer { state.waiting.removeAll() }
            return (state.waiting, state.prompt)
        }
        guard !texts.isEmpty else { return }
        let lines = texts.joined(separator: "\n")
        guard redraw, let editor else {
            FileHandle.standardOutput.write(Data((lines + "\n").utf8))
            return
        }
        // Up to the row the prompt is on: the line may wrap over several.
        var above = 0
        if let info = el_wline(editor) {
            let typed = Self.text(UnsafeBufferPointer(start: info.pointee.buffer, count: info.pointee.cursor - info.pointee.buffer))
            above = Self.rowsBelowStart(of: prompt + typed, width: Int(intentctl_editor_columns(editor)))
        }
        write(raw: "\r" + (above > 0 ? "\u{1B}[\(above)A" : "") + "\u{1B}[J" + lines.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n")
        intentctl_editor_redraw(editor)
    }

    private func write(raw text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
