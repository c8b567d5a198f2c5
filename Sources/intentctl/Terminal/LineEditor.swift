import CLineEditing
import Foundation

/// Reads lines from the terminal with line editing and history (libedit), or plainly
/// from a pipe. History persists in `historyFile`.
struct LineEditor {
    let historyFile: String?
    let interactive: Bool

    init(historyFile: String?) {
        self.historyFile = historyFile
        interactive = isatty(STDIN_FILENO) == 1
        if interactive {
            using_history()
            stifle_history(500)
            if let historyFile { _ = read_history(historyFile) }
        }
    }

    /// The next line without its newline, or nil at end of input.
    func read(prompt: String) -> String? {
        guard interactive else { return readLine() }
        guard let line = readline(prompt) else { return nil }
        defer { free(line) }
        return String(cString: line)
    }

    /// Remembers a line for the up arrow and the history file.
    func remember(_ line: String) {
        guard interactive else { return }
        add_history(line)
        if let historyFile { _ = write_history(historyFile) }
    }
}
