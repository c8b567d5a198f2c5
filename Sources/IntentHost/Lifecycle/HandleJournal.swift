import Foundation
import IntentProtocol
import Synchronization

/// The handles sent with a key the client gave, written down (one line of JSON each, synced)
/// before they go, so that a host restarted after a crash still sends such a handle again
/// when asked with its key, rather than running its lifecycle from the start, whose confirm
/// would see the first run's work ("your current ride must finish first"). The extension
/// answers from its own journal (wire.md, section 5a). Kept a day, the newest `capacity`.
final class HandleJournal: Sendable {
    /// One handle as it was sent.
    struct Record: Codable, Sendable {
        var key: String
        var app: String
        var intent: String
        var parameters: [String: JSONValue]
        var resolutions: [ParameterResolution]
        /// What the request was (`Run.asked`).
        var asked: JSONValue?
        /// Seconds since 1970 when it was sent.
        var time: Double
    }

    /// How long records are kept.
    static let keptFor: TimeInterval = 86_400
    /// A file larger than this is not read (it was not written by this host).
    static let maxFileBytes = 64 << 20

    let url: URL
    /// The most records kept.
    let capacity: Int
    /// Lines in the file as far as this host knows, and whether its last may be cut short
    /// (a write that failed part way, a disk that filled): the next line then starts on a
    /// line of its own.
    private let file = Mutex((lines: 0, torn: false))

    init(url: URL, capacity: Int = 4096) {
        self.url = url
        self.capacity = capacity
    }

    /// The records kept, oldest first: the newest `capacity` of the last day, the first for
    /// each app's key (a key used again for another intent is the app's to refuse, not a new
    /// handle); lines that cannot be read are skipped. A file too large to be this host's is
    /// not read, and is written again whole at the next record.
    func load(now: Date = Date()) -> [Record] {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int else { return [] }
        guard size <= Self.maxFileBytes, let data = try? Data(contentsOf: url) else {
            file.withLock { $0 = (capacity * 2, false) }
            return []
        }
        let lines = data.split(separator: UInt8(ascii: "\n"))
        // The file is written whole again once it holds twice the capacity, across restarts too.
        file.withLock { $0 = (lines.count, data.last.map { $0 != UInt8(ascii: "\n") } ?? false) }
        var seen = Set<String>()
        let records = lines.compactMap { try? JSON.decode(Record.self, from: Array($0)) }.filter { seen.insert("\($0.app)/\($0.key)").inserted }
        return Array(records.filter { now.timeIntervalSince1970 - $0.time < Self.keptFor }.suffix(capacity))
    }

    /// Writes `record` down, durably; past twice the capacity, the file is written again with
    /// the newest records only.
    func append(_ record: Record) throws(PolicyStateError) {
        let (count, torn) = file.withLock { file in
            file.lines += 1
            return file
        }
        guard count > capacity * 2 else {
            var line = torn ? [UInt8(ascii: "\n")] : []
            line += Self.line(record)
            do { try DurableFile.append(line, to: url) } catch {
                file.withLock { $0.torn = true }
                throw error
            }
            file.withLock { $0.torn = false }
            return
        }
        let earlier = load()
        let kept = earlier.contains { $0.key == record.key } ? earlier : earlier + [record]
        try DurableFile.write(kept.flatMap(Self.line), to: url)
        file.withLock { $0 = (kept.count, false) }
    }

    /// `record` as a line of the file: its JSON and a newline.
    private static func line(_ record: Record) -> [UInt8] {
        ((try? JSON.encode(record)) ?? []) + [UInt8(ascii: "\n")]
    }
}
