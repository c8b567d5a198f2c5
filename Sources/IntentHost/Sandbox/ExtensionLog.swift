import Foundation
import Logging
import IntentProtocol
import Synchronization

/// The log file of one launched extension: `STATE/logs/BUNDLE-ID.log`, where the host writes
/// what the extension prints on standard output and standard error.
///
/// Every line is prefixed with the time the host read it and the instance's name from the
/// config, and escaped: control characters, backslashes and bytes that are not UTF-8 become
/// `\xNN` (`\\`), so no extension can end a line early, move the cursor, or write a line that
/// reads like one of the host's own. A line longer than `maxLineBytes` is cut. When the file
/// passes `maxBytes` it is renamed to `.log.1` (replacing the previous one) and a new one begun.
final class ExtensionLog: Sendable {
    /// The file.
    let url: URL
    /// The size at which the file is rotated.
    let maxBytes: Int
    /// The longest line kept, in bytes, before escaping.
    static let maxLineBytes = 4096

    private struct State {
        var handle: FileHandle?
        var size: Int
        /// Whether the last write failed (said once, until one succeeds again).
        var failing = false
    }
    private let state: Mutex<State>

    /// Opens (creating) the log of `bundleIdentifier` under `directory`.
    init(directory: URL, bundleIdentifier: String, maxBytes: Int = 1 << 20) throws {
        try StateDirectory.create(directory)
        url = directory.appendingPathComponent("\(bundleIdentifier).log")
        self.maxBytes = maxBytes
        state = Mutex(State(handle: nil, size: 0))
        try state.withLock { try open(&$0) }
    }

    private func open(_ state: inout State) throws {
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        do {
            let handle = try FileHandle(forWritingTo: url)
            state.size = Int(try handle.seekToEnd())
            state.handle = handle
        } catch {
            throw ConfigurationError("cannot open the extension log \(url.path): \(describeFileError(error))")
        }
    }

    /// Appends one line printed by the instance `name` (without its newline); returns the
    /// line as escaped for the log.
    @discardableResult
    func append(_ line: some Collection<UInt8>, from name: String) -> String {
        var text: [UInt8] = []
        let escaped = Self.entry(line, from: Array("\(Self.now()) [\(Self.escape(Array(name.utf8)))] ".utf8), into: &text)
        if let problem = write(text) { Logger(label: HostLog.label).warning("\(problem)") }
        return escaped
    }

    /// The time as each line starts with it.
    private static func now() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
    }

    /// Adds `line` after `lead` (time and name) to `text` as the log keeps it; returns it escaped.
    private static func entry(_ line: some Collection<UInt8>, from lead: [UInt8], into text: inout [UInt8]) -> String {
        let escaped = escape(Array(line.prefix(maxLineBytes)))
        text += lead
        text += Array(escaped.utf8)
        if line.count > maxLineBytes { text += Array(" [line cut at \(maxLineBytes) bytes]".utf8) }
        text.append(UInt8(ascii: "\n"))
        return escaped
    }

    /// Appends `text` (whole lines, already escaped), rotating first when it would pass
    /// `maxBytes`; says what went wrong instead of logging it, so the host's own log can
    /// be written here too.
    /// A problem is said once, not at every line, until a write succeeds again.
    func write(_ text: [UInt8]) -> String? {
        state.withLock { state in
            var problem: String?
            if state.handle == nil {
                // The last rotation could not open a new file (a full disk): try again.
                do { try open(&state) } catch { problem = "\(error)" }
            } else if state.size + text.count > maxBytes, state.size > 0 {
                problem = rotate(&state)
            }
            if let handle = state.handle {
                do {
                    try handle.write(contentsOf: text)
                    state.size += text.count
                } catch {
                    problem = "cannot write to \(url.path): \(describeFileError(error))"
                }
            }
            defer { state.failing = problem != nil }
            return state.failing ? nil : problem
        }
    }

    private func rotate(_ state: inout State) -> String? {
        try? state.handle?.close()
        state.handle = nil
        let old = url.appendingPathExtension("1")
        // The older file is replaced only by a current one: a rotation that cannot go on
        // (a full disk) must not cost both.
        if FileManager.default.fileExists(atPath: url.path) {
            try? FileManager.default.removeItem(at: old)
            try? FileManager.default.moveItem(at: url, to: old)
        }
        do { try open(&state) } catch { return "\(error)" }
        return nil
    }

    /// Reads lines from `fd` until end of file and appends each but empty ones, attributed
    /// to `name`; `onLine` sees each line as escaped for the log. The lines of one read are
    /// written at once, with one time: an extension printing empty or short lines in a loop
    /// costs the host one write per read, not one per line.
    func copyLines(from fd: Int32, name: String, onLine: (String) -> Void = { _ in }) {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var pending: [UInt8] = []
        var batch: [UInt8] = []
        let tag = Array(" [\(Self.escape(Array(name.utf8)))] ".utf8)
        while true {
            let count: Int
            do { count = try SystemCall.read(fd, into: &buffer) } catch { break }
            if count == 0 { break }
            let lead = Array(Self.now().utf8) + tag
            var start = 0
            for i in 0..<count where buffer[i] == UInt8(ascii: "\n") {
                pending += buffer[start..<i]
                if !pending.isEmpty { onLine(Self.entry(pending, from: lead, into: &batch)) }
                pending.removeAll(keepingCapacity: true)
                start = i + 1
            }
            pending += buffer[start..<count]
            if pending.count > Self.maxLineBytes {
                onLine(Self.entry(pending, from: lead, into: &batch))
                pending.removeAll(keepingCapacity: true)
            }
            if !batch.isEmpty {
                if let problem = write(batch) { Logger(label: HostLog.label).warning("\(problem)") }
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !pending.isEmpty {
            onLine(append(pending, from: name))
        }
        SystemCall.close(fd)
    }

    /// `bytes` with control characters, backslashes and invalid UTF-8 escaped.
    static func escape(_ bytes: [UInt8]) -> String {
        var out = ""
        out.reserveCapacity(bytes.count)
        var i = 0
        func hex(_ b: UInt8) { out += "\\x" + String(b, radix: 16, uppercase: true).leftPadded(to: 2) }
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\\") {
                out += "\\\\"
                i += 1
            } else if b < 0x20 || b == 0x7F {
                hex(b)
                i += 1
            } else if b < 0x80 {
                out.unicodeScalars.append(Unicode.Scalar(b))
                i += 1
            } else {
                let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
                let end = min(i + length, bytes.count)
                if length > 1, let scalar = String(validating: bytes[i..<end], as: UTF8.self)?.unicodeScalars.first,
                    scalar.properties.generalCategory != .control, scalar.properties.generalCategory != .format
                {
                    out.unicodeScalars.append(scalar)
                    i = end
                } else {
                    hex(b)
                    i += 1
                }
            }
        }
        return out
    }
}

extension String {
    /// The string with zeros in front up to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
