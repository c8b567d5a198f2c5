import Foundation
import Synchronization

/// A tcp relay on loopback that forwards every connection to a target port and records
/// every byte that passes, both ways: what an eavesdropper on the network would see.
final class ByteRelay: Sendable {
    /// The port it listens on.
    let port: UInt16
    private let listener: Int32
    private let recorded = Mutex<[UInt8]>([])
    private let running = Atomic<Bool>(true)

    /// Listens on a free loopback port and relays to `127.0.0.1:target`.
    init(to target: UInt16) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = Self.loopback(0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw TestError("the relay cannot listen: \(String(cString: strerror(errno)))") }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in
            while running.load(ordering: .relaxed) {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { continue }
                let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var target = Self.loopback(target)
                let connected = withUnsafePointer(to: &target) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                    }
                }
                guard connected else {
                    close(client)
                    close(server)
                    continue
                }
                pump(from: client, to: server)
                pump(from: server, to: client)
            }
        }
    }

    /// Everything that passed so far.
    var bytes: [UInt8] { recorded.withLock { $0 } }

    /// Whether `text` passed in the clear.
    func saw(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        let haystack = bytes
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func pump(from source: Int32, to destination: Int32) {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(source, &buffer, buffer.count)
                guard count > 0 else { break }
                recorded.withLock { $0.append(contentsOf: buffer[..<count]) }
                guard write(destination, buffer, count) == count else { break }
            }
            shutdown(destination, Int32(SHUT_WR))
        }
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
