import Foundation

/// The machine's processes, as `/proc` lists them.
enum ProcessTable {
    /// The processes whose command line (arguments joined by NUL) contains `text`.
    static func pids(commandLineContaining text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self).contains(text) } ?? false
        }
    }
}
