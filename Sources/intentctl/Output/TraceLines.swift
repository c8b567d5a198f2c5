import Foundation
import IntentProtocol

/// The log lines of one trace: from the host's log (`STATE/logs/intentd.log`) and every
/// extension's (`STATE/logs/BUNDLE-ID.log`, each line after the host's `TIME [NAME] `), those
/// whose `trace` metadata is the id, ordered by the time each process wrote them.
enum TraceLines {
    /// The matching lines, as written in their files.
    static func find(_ traceID: String, in directory: URL) throws -> [String] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path) } catch {
            throw TraceLinesError("cannot read \(directory.path): \(describeFileError(error))")
        }
        var found: [(time: String, text: String)] = []
        for name in names.sorted() where name.hasSuffix(".log") || name.hasSuffix(".log.1") {
            guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                guard let parsed = LogLine(line) ?? LogLine(afterPrefix(line)), parsed.metadata["trace"] == traceID else { continue }
                found.append((parsed.time, String(line)))
            }
        }
        return found.sorted { $0.time < $1.time }.map(\.text)
    }

    /// An extension's line without the host's `TIME [NAME] ` in front.
    private static func afterPrefix(_ line: Substring) -> Substring {
        guard let close = line.range(of: "] ") else { return line }
        return line[close.upperBound...]
    }
}

/// Why the trace's lines could not be read.
struct TraceLinesError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
