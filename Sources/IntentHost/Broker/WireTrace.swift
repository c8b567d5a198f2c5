import Foundation
import Logging
import IntentProtocol
import ZeroMQ

/// Writes every message the host accepts or sends to a file, one JSON line each, for
/// people writing an extension or a client (`intentd --trace-wire FILE`):
/// `{"direction":"in","endpoint":"client","peer":"0080000001","frames":["aW50ZW50ZC8yFA…"]}`,
/// the frames base64, without the routing id, which `peer` gives in hex. Received
/// messages are written once they parse and are within the size limit.
final class WireTrace {
    /// Where a message went or came from.
    enum Endpoint: String {
        case client, extensions, updates
    }

    private let handle: FileHandle
    private let log = Logger(label: HostLog.label)

    /// Creates or empties `file`, readable by its owner only (messages hold what users say).
    init(file: URL) throws {
        let fd = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw ConfigurationError("cannot write the wire trace \(file.path): \(String(cString: strerror(errno)))")
        }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// Records one received message.
    func received(_ endpoint: Endpoint, from peer: RoutingID?, _ frames: some Collection<Message>) {
        write("in", endpoint, peer, frames.map(\.bytes))
    }

    /// Records one sent message.
    func sent(_ endpoint: Endpoint, to peer: RoutingID?, _ frames: [[UInt8]]) {
        write("out", endpoint, peer, frames)
    }

    private func write(_ direction: String, _ endpoint: Endpoint, _ peer: RoutingID?, _ frames: [[UInt8]]) {
        var line: [String: JSONValue] = [
            "direction": .string(direction), "endpoint": .string(endpoint.rawValue),
            "frames": .array(frames.map { .string(Data($0).base64EncodedString()) }),
        ]
        if let peer { line["peer"] = .string(peer.bytes.map { String(format: "%02x", $0) }.joined()) }
        do {
            try handle.write(contentsOf: JSONValue.object(line).serialized() + [0x0A])
        } catch {
            log.error("cannot write the wire trace: \(error)")
        }
    }
}
