import CZeroMQ
import Foundation

/// Gives memory freed after a flood back to the system. glibc's malloc keeps freed memory
/// in its arenas (a flood's messages, tasks and replies leave holes that never reach the
/// top of the heap), so the host's resident size would stay at a flood's peak for good;
/// `malloc_trim` returns every whole free page. Called once per heartbeat on the broker
/// thread: it trims when nothing was refused since the last tick (the flood is over) and
/// the resident size has grown by `slack` since the last trim.
struct MemoryReturner {
    private var lastRefused = 0
    private var floor: Int?
    /// Growth that is worth a trim.
    static let slack = 8 << 20

    /// One heartbeat tick; `refusedSoFar` is the count of requests refused since the start.
    mutating func tick(refusedSoFar: Int) {
        defer { lastRefused = refusedSoFar }
        guard refusedSoFar == lastRefused, let resident = Self.residentBytes() else { return }
        guard let floor else {
            self.floor = resident
            return
        }
        if resident < floor {
            self.floor = resident
        } else if resident > floor + Self.slack {
            malloc_trim(0)
            self.floor = Self.residentBytes() ?? resident
        }
    }

    /// This process's resident set size, from `/proc/self/statm`.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .ascii) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
