import Foundation
import IntentProtocol

/// Control groups (version 1) for launched extensions, where the host may create them:
/// `MOUNT/memory/HOST-GROUP/intentd-PID/NAME` and the same under `pids` (and `cpuacct`
/// where it is mounted), where `HOST-GROUP` is the host's own group from
/// `/proc/self/cgroup`. Each extension's group caps its memory (`memory.limit_in_bytes`; the
/// kernel kills a process of the group that needs more) and its processes and threads
/// together (`pids.max`), and counts the CPU time of all its processes (`cpuacct.usage`),
/// which the launcher holds to the extension's limit.
///
/// The launcher starts each child through a shell that writes its own pid into the groups'
/// `cgroup.procs` before it execs the sandbox, so that nothing of the extension runs outside.
struct CgroupV1: Sendable {
    /// `intentd-PID` under the host's memory group.
    let memory: String
    /// `intentd-PID` under the host's pids group.
    let pids: String
    /// `intentd-PID` under the host's cpuacct group, where that controller is mounted.
    var cpuacct: String?

    /// The groups' bases, each controller's.
    private var bases: [String] { [memory, pids] + (cpuacct.map { [$0] } ?? []) }

    /// Creates the host's two groups, or returns nil (saying why in `reason`) where the
    /// controllers are not mounted or the host may not create groups.
    static func make(reason: inout String) -> CgroupV1? {
        let mounts = SystemCall.readFile("/proc/self/mounts") ?? ""
        let own = SystemCall.readFile("/proc/self/cgroup") ?? ""
        func directory(_ controller: String) -> String? {
            let lines: [[Substring]] = mounts.split(separator: "\n").map { $0.split(separator: " ") }
            let mount = lines.first { (fields: [Substring]) -> Bool in
                guard fields.count >= 4, fields[2] == "cgroup" else { return false }
                return fields[3].split(separator: ",").contains(Substring(controller))
            }
            guard let mount else { return nil }
            let group = own.split(separator: "\n").compactMap { line -> String? in
                let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count == 3, parts[1].split(separator: ",").contains(Substring(controller)) else { return nil }
                return String(parts[2])
            }.first ?? "/"
            return String(mount[1]) + (group == "/" ? "" : group) + "/intentd-\(getpid())"
        }
        guard let memory = directory("memory"), let pids = directory("pids") else {
            reason = "no cgroup v1 memory and pids controllers are mounted"
            return nil
        }
        var cpuacct = directory("cpuacct")
        for path in [memory, pids] + (cpuacct.map { [$0] } ?? []) { removeStale(beside: path) }
        do {
            for path in [memory, pids] { try SystemCall.makeDirectory(path) }
        } catch {
            reason = "cannot create a cgroup: \(error)"
            return nil
        }
        // Without it, CPU time is limited per process (RLIMIT_CPU), as before.
        if let path = cpuacct, (try? SystemCall.makeDirectory(path)) == nil { cpuacct = nil }
        return CgroupV1(memory: memory, pids: pids, cpuacct: cpuacct)
    }

    /// Removes the empty groups of hosts that died without removing them (`intentd-PID`
    /// where no process PID runs any more).
    private static func removeStale(beside path: String) {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] where name.hasPrefix("intentd-") {
            guard let pid = Int32(name.dropFirst(8)), kill(pid, 0) == -1, errno == ESRCH else { continue }
            CgroupV1(memory: "\(parent)/\(name)", pids: "\(parent)/\(name)").removeAll()
        }
    }

    /// Creates (or reuses) the group of one extension and sets its limits; returns the
    /// `cgroup.procs` files the child must join.
    func prepare(_ name: String, _ limits: ResourceLimits) throws -> [String] {
        var procs: [String] = []
        for (base, controller) in [(memory, "memory"), (pids, "pids")] + (cpuacct.map { [($0, "cpuacct")] } ?? []) {
            let path = "\(base)/\(name)"
            try SystemCall.makeDirectory(path)
            switch controller {
            case "cpuacct":
                break
            case "memory":
                let bytes = limits.memoryMegabytes.map { String($0 << 20) } ?? "-1"
                try SystemCall.write(bytes, to: "\(path)/memory.limit_in_bytes")
                // With swap, the memory and swap together get the same limit.
                if FileManager.default.fileExists(atPath: "\(path)/memory.memsw.limit_in_bytes") {
                    try? SystemCall.write(bytes, to: "\(path)/memory.memsw.limit_in_bytes")
                }
            default:
                try SystemCall.write(limits.processes.map(String.init) ?? "max", to: "\(path)/pids.max")
            }
            procs.append("\(path)/cgroup.procs")
        }
        return procs
    }

    /// Ends what is left of one extension in its groups, then removes them (waiting up to a
    /// second for the kernel to finish tearing them down).
    func remove(_ name: String) {
        endProcesses(name)
        for base in bases {
            let path = "\(base)/\(name)"
            for _ in 0..<100 {
                if (try? SystemCall.removeDirectory(path)) != nil { break }
                usleep(10_000)
            }
        }
    }

    /// Kills every process still in one extension's groups, until none is left or a second
    /// has passed. Its process group and, in a sandbox, its pid namespace end with it; this
    /// ends the rest: helpers that started a session of their own (`setsid`, a daemon's
    /// double fork) and would outlive an unsandboxed extension.
    func endProcesses(_ name: String) {
        let own = getpid()
        for _ in 0..<100 {
            var left: Set<pid_t> = []
            for base in bases {
                let listed = SystemCall.readFile("\(base)/\(name)/cgroup.procs") ?? ""
                left.formUnion(listed.split(separator: "\n").compactMap { pid_t($0) }.filter { $0 > 1 && $0 != own })
            }
            if left.isEmpty { return }
            for pid in left { SystemCall.signal(pid, SIGKILL) }
            usleep(10_000)
        }
    }

    /// The CPU time, in seconds, that the processes of one extension's group have used,
    /// those gone included; nil without the cpuacct controller.
    func cpuSeconds(_ name: String) -> Double? {
        guard let cpuacct, let text = SystemCall.readFile("\(cpuacct)/\(name)/cpuacct.usage"),
            let nanoseconds = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return Double(nanoseconds) / 1e9
    }

    /// Removes the host's own groups (after every extension's), ending what still runs in
    /// them.
    func removeAll() {
        for base in bases {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
            for name in names where (try? FileManager.default.attributesOfItem(atPath: "\(base)/\(name)")[.type] as? FileAttributeType)
                == .typeDirectory
            {
                endProcesses(name)
                try? SystemCall.removeDirectory("\(base)/\(name)")
            }
            try? SystemCall.removeDirectory(base)
        }
    }
}
