import Foundation

/// CPU time and memory of a process, from `/proc`.
public struct ProcessSample: Codable, Sendable, Equatable {
    /// The process id.
    public var pid: Int
    /// What it is, such as `intentd` or `Bench`.
    public var name: String
    /// User plus system CPU time so far, in seconds.
    public var cpuSeconds: Double
    /// Resident memory now, in bytes.
    public var residentBytes: Int
    /// The most resident memory it ever had, in bytes.
    public var peakResidentBytes: Int

    /// Reads the process's figures; `nil` if it is gone.
    public static func read(pid: Int, name: String) -> ProcessSample? {
        // An exited process not yet waited for is gone too.
        guard let stat = ProcessStat.read(pid: pid), !stat.hasEnded,
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        else { return nil }
        func kilobytes(_ key: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else { return 0 }
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return ProcessSample(
            pid: pid, name: name, cpuSeconds: stat.cpuSeconds,
            residentBytes: kilobytes("VmRSS") * 1024, peakResidentBytes: kilobytes("VmHWM") * 1024)
    }
}

/// A process's use over a run: CPU spent, and memory at the start and end.
public struct ProcessUsage: Codable, Sendable {
    /// The process id.
    public var pid: Int
    /// What it is.
    public var name: String
    /// CPU seconds spent during the run.
    public var cpuSeconds: Double
    /// Resident bytes when the run started and when it ended.
    public var residentBytesAtStart: Int, residentBytesAtEnd: Int
    /// Peak resident bytes at the end.
    public var peakResidentBytes: Int

    /// The difference between two samples of one process.
    public init(from start: ProcessSample, to end: ProcessSample) {
        pid = end.pid
        name = end.name
        cpuSeconds = end.cpuSeconds - start.cpuSeconds
        residentBytesAtStart = start.residentBytes
        residentBytesAtEnd = end.residentBytes
        peakResidentBytes = end.peakResidentBytes
    }
}
