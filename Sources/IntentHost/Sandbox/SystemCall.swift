import Foundation
import Logging
import IntentProtocol

/// A system call that failed: which, on what, and the error number.
struct SystemError: Error, CustomStringConvertible, Sendable {
    /// The call, such as `posix_spawn`.
    let call: String
    /// What it was applied to (a path, a pid), for the message.
    let subject: String
    /// `errno`, or the value a `posix_spawn*` function returned.
    let code: Int32

    var description: String {
        "\(call)(\(subject)): \(String(cString: strerror(code)).lowercased())"
    }
}

/// The system calls the launcher and the sandbox make, in one place with one error policy:
/// every failure throws a `SystemError` naming the call and its subject; nothing is retried
/// except a call interrupted by a signal (`EINTR`).
enum SystemCall {
    /// Runs `body` until it does not fail with `EINTR`; throws on -1.
    @discardableResult
    static func check<T: BinaryInteger>(_ call: String, _ subject: @autoclosure () -> String, _ body: () -> T) throws -> T {
        while true {
            let result = body()
            if result != -1 { return result }
            if errno == EINTR { continue }
            throw SystemError(call: call, subject: subject(), code: errno)
        }
    }

    /// A pipe whose ends are closed on exec: (read end, write end).
    static func pipe() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        try check("pipe", "") { Glibc.pipe(&fds) }
        for fd in fds { try check("fcntl", "fd \(fd)") { fcntl(fd, F_SETFD, FD_CLOEXEC) } }
        return (fds[0], fds[1])
    }

    /// Starts `arguments[0]` (a full path) with exactly `environment`, an empty signal mask,
    /// every signal at its default disposition, standard input from `/dev/null` and standard
    /// output and error into `output`, in a process group of its own. Returns its pid.
    static func spawn(_ arguments: [String], environment: [String: String], output: Int32) throws -> pid_t {
        guard let path = arguments.first else { throw SystemError(call: "posix_spawn", subject: "", code: EINVAL) }
        var attributes = posix_spawnattr_t()
        try spawnCheck("posix_spawnattr_init", path) { posix_spawnattr_init(&attributes) }
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        var all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        try spawnCheck("posix_spawnattr_setsigmask", path) { posix_spawnattr_setsigmask(&attributes, &empty) }
        try spawnCheck("posix_spawnattr_setsigdefault", path) { posix_spawnattr_setsigdefault(&attributes, &all) }
        try spawnCheck("posix_spawnattr_setpgroup", path) { posix_spawnattr_setpgroup(&attributes, 0) }
        let flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP)
        try spawnCheck("posix_spawnattr_setflags", path) { posix_spawnattr_setflags(&attributes, flags) }

        var actions = posix_spawn_file_actions_t()
        try spawnCheck("posix_spawn_file_actions_init", path) { posix_spawn_file_actions_init(&actions) }
        defer { posix_spawn_file_actions_destroy(&actions) }
        try spawnCheck("posix_spawn_file_actions_addopen", path) {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        for target in [Int32(1), 2] {
            try spawnCheck("posix_spawn_file_actions_adddup2", path) { posix_spawn_file_actions_adddup2(&actions, output, target) }
        }
        // No other descriptor of the host's reaches the child (glibc 2.34 and later).
        if let closeFrom = Self.closeFrom {
            try spawnCheck("posix_spawn_file_actions_addclosefrom_np", path) { closeFrom(&actions, 3) }
        }

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        try spawnCheck("posix_spawn", path) { posix_spawn(&pid, path, &actions, &attributes, argv, envp) }
        return pid
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which the Glibc module does not export.
    private static let closeFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    /// `posix_spawn*` functions return the error number instead of setting `errno`.
    private static func spawnCheck(_ call: String, _ subject: String, _ body: () -> Int32) throws {
        let code = body()
        if code != 0 { throw SystemError(call: call, subject: subject, code: code) }
    }

    /// How a child ended.
    enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let signal): "was killed by signal \(signal)"
            }
        }
    }

    /// Waits for `pid` to end and reaps it.
    static func wait(_ pid: pid_t) throws -> Termination {
        var status: Int32 = 0
        try check("waitpid", "\(pid)") { waitpid(pid, &status, 0) }
        let low = status & 0x7f
        return low == 0 ? .exited((status >> 8) & 0xff) : .signaled(low)
    }

    /// Sends `signal` to `pid` (a negative pid: its process group); a process already gone is
    /// not an error.
    static func signal(_ pid: pid_t, _ signal: Int32) {
        if kill(pid, signal) == -1 && errno != ESRCH {
            Logger(label: HostLog.label).warning("kill(\(pid), \(signal)): \(String(cString: strerror(errno)))")
        }
    }

    /// Reads what `fd` has into `buffer`; 0 at end of file.
    static func read(_ fd: Int32, into buffer: inout [UInt8]) throws -> Int {
        try buffer.withUnsafeMutableBytes { raw in
            try check("read", "fd \(fd)") { Glibc.read(fd, raw.baseAddress, raw.count) }
        }
    }

    /// Closes `fd`, ignoring errors (there is nothing left to do about them).
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// The whole of a small file such as one under `/proc` (whose size `stat` does not tell).
    static func readFile(_ path: String) -> String? {
        guard let fd = try? check("open", path, { open(path, O_RDONLY | O_CLOEXEC) }) else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while let count = try? read(fd, into: &buffer), count > 0, bytes.count < 64 << 20 { bytes += buffer[..<count] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The pids of `pid`'s children, from `/proc/PID/task/PID/children`.
    static func children(of pid: pid_t) -> [pid_t] {
        guard let text = readFile("/proc/\(pid)/task/\(pid)/children") else { return [] }
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Writes `text` to an existing file such as a cgroup control file.
    static func write(_ text: String, to path: String) throws {
        let fd = try check("open", path) { open(path, O_WRONLY | O_CLOEXEC) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = try bytes.withUnsafeBytes { raw in
            try check("write", path) { Glibc.write(fd, raw.baseAddress, raw.count) }
        }
        if written != bytes.count { throw SystemError(call: "write", subject: path, code: EIO) }
    }

    /// Creates a directory (not its parents); one that exists already is fine.
    static func makeDirectory(_ path: String, mode: mode_t = 0o755) throws {
        if mkdir(path, mode) == -1 && errno != EEXIST { throw SystemError(call: "mkdir", subject: path, code: errno) }
    }

    /// Removes an empty directory; one that is gone already is fine.
    static func removeDirectory(_ path: String) throws {
        if rmdir(path) == -1 && errno != ENOENT { throw SystemError(call: "rmdir", subject: path, code: errno) }
    }
}
