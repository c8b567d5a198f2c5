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
    /// Lines in the file, as far as this host knows.
    private let appended = Mutex(0)

    init(url: URL, capacity: Int = 4096) {
        self.url = url
        self.capacity = capacity
    }

    /// The records kept, oldest first: the newest `capacity` of the last day; lines that
    /// cannot be read are skipped.
    func load(now: Date = Date()) -> [Record] {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size <= Self.maxFileBytes,
            let data = try? Data(contentsOf: url)
        else { return [] }
        let lines = data.split(separator: UInt8(ascii: "\n"))
        // The file is written whole again once it holds twice the capacity, across restarts too.
        appended.withLock { $0 = lines.count }
        let records = lines.compactMap { try? JSON.decode(Record.self, from: Array($0)) }
        return Array(records.filter { now.timeIntervalSince1970 - $0.time < Self.keptFor }.suffix(capacity))
    }

    /// Writes `record` down, durably; past twice the capacity, the file is written again with
    /// the newest records only.
    func append(_ record: Record) throws(PolicyStateError) {
        var line = (try? JSON.encode(record)) ?? []
        line.append(UInt8(ascii: "\n"))
        let count = appended.withLock { count in
            count += 1
            return count
        }
        guard count > capacity * 2 else { return try DurableFile.append(line, to: url) }
        let kept = load() + [record]
        try DurableFile.write(kept.flatMap { ((try? JSON.encode($0)) ?? []) + [UInt8(ascii: "\n")] }, to: url)
        appended.withLock { $0 = kept.count }
    }
}
