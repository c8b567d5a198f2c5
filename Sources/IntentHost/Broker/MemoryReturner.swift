import CZeroMQ
import Foundation

/// Gives memory freed after a flood back to the system. glibc's malloc keeps freed memory
/// in its arenas (a flood's messages, tasks and replies leave holes that never reach the
/// top of the heap), so the host's resident size would stay at a flood's peak for good;
/// `malloc_trim` returns every whole free page. Called once per heartbeat on the broker
/// thread, it trims once a flood is over: after requests were refused, or replies piled up
/// for a client that did not read, at the first tick with no new refusal and those replies
/// gone; and whenever the resident size has grown by `slack` since the last trim.
struct MemoryReturner {
    private var lastRefused = 0
    private var floor: Int?
    private var flooded = false
    /// Growth that is worth a trim.
    static let slack = 8 << 20

    /// One heartbeat tick: `refusedSoFar` counts the requests refused since the start,
    /// `queuedBytes` what the host holds for clients that have not read it yet.
    mutating func tick(refusedSoFar: Int, queuedBytes: Int) {
        defer { lastRefused = refusedSoFar }
        if refusedSoFar != lastRefused || queuedBytes > Self.slack {
            flooded = true
            return
        }
        guard let resident = Self.residentBytes() else { return }
        if flooded || resident > (floor ?? resident) + Self.slack {
            flooded = false
            malloc_trim(0)
            floor = Self.residentBytes() ?? resident
        } else if resident < floor ?? .max {
            floor = resident
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
