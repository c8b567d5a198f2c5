import IntentProtocol

/// The resources one launched extension may use: memory, CPU time, processes (its own and
/// the helpers it starts, together) and open files. `nil` means no limit.
///
/// The config file sets the defaults under `limits` and overrides per extension name under
/// `extensionLimits`; any field left out keeps the default.
public struct ResourceLimits: Sendable, Hashable, Decodable {
    /// Memory in MiB (the cgroup's memory limit, else `RLIMIT_DATA`).
    public var memoryMegabytes: Int?
    /// CPU time in seconds, over the extension's whole life: its processes together (the
    /// cgroup's `cpuacct.usage`, watched by the host), else each process's (`RLIMIT_CPU`).
    public var cpuSeconds: Int?
    /// Processes and threads (the cgroup's `pids.max`, else `RLIMIT_NPROC`).
    public var processes: Int?
    /// Open files per process (`RLIMIT_NOFILE`).
    public var openFiles: Int?

    /// Creates limits.
    public init(memoryMegabytes: Int? = nil, cpuSeconds: Int? = nil, processes: Int? = nil, openFiles: Int? = nil) {
        self.memoryMegabytes = memoryMegabytes
        self.cpuSeconds = cpuSeconds
        self.processes = processes
        self.openFiles = openFiles
    }

    /// The limits unless the config says otherwise.
    public static let defaults = ResourceLimits(memoryMegabytes: 512, cpuSeconds: 3600, processes: 256, openFiles: 1024)

    /// These limits, with every field `other` sets taken from it.
    public func overridden(by other: ResourceLimits?) -> ResourceLimits {
        guard let other else { return self }
        return ResourceLimits(
            memoryMegabytes: other.memoryMegabytes ?? memoryMegabytes, cpuSeconds: other.cpuSeconds ?? cpuSeconds,
            processes: other.processes ?? processes, openFiles: other.openFiles ?? openFiles)
    }

    /// Throws unless every limit set is positive.
    func validate(_ context: String) throws {
        for (name, value) in [("memoryMegabytes", memoryMegabytes), ("cpuSeconds", cpuSeconds), ("processes", processes), ("openFiles", openFiles)] {
            if let value, value < 1 { throw ConfigurationError("\(context): \(name) must be at least 1 (leave it out for no limit)") }
        }
    }

    /// `command` started under these limits: a shell goes to `directory`, writes its own pid
    /// into each of the cgroups' `procs` files, sets the rlimits, then execs `command`, so
    /// nothing of the extension runs before its limits apply. It exits with 78 (do not
    /// restart) if it cannot.
    func startCommand(_ command: [String], in directory: String, joining procs: [String], cgroup: Bool, cpuByCgroup: Bool = false) -> [String] {
        let options = shellLimits(cgroup: cgroup, cpuByCgroup: cpuByCgroup)
        let ulimits = stride(from: 0, to: options.count, by: 2).map { "ulimit \(options[$0]) \(options[$0 + 1]) || exit 78; " }.joined()
        let script = "cd \"$1\" || exit 78; unset OLDPWD PWD; shift; "
            + "while [ \"$1\" != -- ]; do echo $$ > \"$1\" || exit 78; shift; done; shift; " + ulimits + "exec \"$@\""
        return ["/bin/sh", "-c", script, "intentd-launch", directory] + procs + ["--"] + command
    }

    /// The `ulimit` options of `/bin/sh` for the limits that are enforced as rlimits, given
    /// that the cgroup (if any) enforces memory and processes, and CPU time if `cpuByCgroup`.
    func shellLimits(cgroup: Bool, cpuByCgroup: Bool = false) -> [String] {
        var options: [String] = []
        if let cpuSeconds, !cpuByCgroup { options += ["-t", String(cpuSeconds)] }
        if let openFiles { options += ["-n", String(openFiles)] }
        if !cgroup {
            if let memoryMegabytes { options += ["-d", String(memoryMegabytes * 1024)] }
            if let processes { options += ["-p", String(processes)] }
        }
        return options
    }

    /// What `intentctl status` shows: each limit set, and what enforces it.
    func status(cgroup: Bool, cpuByCgroup: Bool = false) -> [LimitStatus] {
        var list: [LimitStatus] = []
        if let memoryMegabytes {
            list.append(LimitStatus(resource: "memory", value: memoryMegabytes, unit: "MiB", enforcedBy: cgroup ? "cgroup" : "rlimit"))
        }
        if let cpuSeconds { list.append(LimitStatus(resource: "cpu", value: cpuSeconds, unit: "s", enforcedBy: cpuByCgroup ? "cgroup" : "rlimit")) }
        if let processes {
            list.append(LimitStatus(resource: "processes", value: processes, unit: "", enforcedBy: cgroup ? "cgroup" : "rlimit"))
        }
        if let openFiles { list.append(LimitStatus(resource: "openFiles", value: openFiles, unit: "", enforcedBy: "rlimit")) }
        return list
    }
}
