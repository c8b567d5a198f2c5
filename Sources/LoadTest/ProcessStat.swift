import Foundation

/// What `/proc/PID/stat` says of a process: its command, state, parent and CPU time. The one
/// reader of that file, for everything that watches processes it started.
public struct ProcessStat: Sendable, Equatable {
    /// The command name, as the kernel keeps it (at most 15 bytes of the executable's name).
    public var command: String
    /// The state letter: `R` running, `S` sleeping, `T` stopped, `Z` ended but not yet waited for, ….
    public var state: Character
    /// The parent's process id.
    public var parent: Int
    /// User plus system CPU time so far, in seconds.
    public var cpuSeconds: Double

    /// Whether the process has ended (a child not yet waited for has).
    public var hasEnded: Bool { state == "Z" }

    /// The process's stat; `nil` if there is no such process.
    public static func read(pid: Int) -> ProcessStat? {
        guard let line = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        return parse(line)
    }

    /// A stat line read: the command is between the first `(` and the last `)` (it may hold
    /// either), and state, parent, … follow it; utime and stime are fields 14 and 15.
    static func parse(_ line: String) -> ProcessStat? {
        guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let state = fields[0].first, let parent = Int(fields[1]),
            let user = Double(fields[11]), let system = Double(fields[12])
        else { return nil }
        return ProcessStat(
            command: String(line[line.index(after: open)..<close]), state: state, parent: parent,
            cpuSeconds: (user + system) / Self.ticksPerSecond)
    }

    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
}
