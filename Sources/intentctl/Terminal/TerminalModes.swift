import Foundation

/// The terminal's modes as a program found them, to give back when a signal ends it while
/// a line is edited (libedit's raw mode, the paste marks asked for), where no code of the
/// editor runs to end the line.
struct TerminalModes: Sendable {
    private let saved: termios?

    /// The modes of standard input now, if it is a terminal.
    init() {
        var modes = termios()
        saved = tcgetattr(STDIN_FILENO, &modes) == 0 ? modes : nil
    }

    /// Stops the terminal marking pastes and puts the saved modes back.
    func restore() {
        let off = Array("\u{1B}[?2004l".utf8)
        _ = off.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        guard var modes = saved else { return }
        // At once: waiting for output to drain could wait for ever on a stopped terminal.
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &modes)
    }

    /// Restores the modes and ends the process by `signal`, as it would have ended without
    /// a handler (a parent sees the signal); with the signal blocked, exits 128 + signal.
    func restoreAndEnd(by signal: Int32) -> Never {
        restore()
        Foundation.signal(signal, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        _exit(128 + signal)
    }
}
