import Foundation

/// Two network namespaces joined by a veth pair: two "machines" that reach each other only
/// over the network. Names are unique to this process; `remove` deletes both (and with them
/// the veth pair). The addresses exist only inside these namespaces.
final class NamespacePair {
    /// Where the host runs, and its address.
    let hostNamespace: String
    let hostAddress: String
    /// Where the other machine's processes run, and its address.
    let remoteNamespace: String
    let remoteAddress: String

    /// Why namespaces cannot be made here (not root, no iproute2): tests skip with this.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        let tag = "\(getpid() % 100_000)x\(Int.random(in: 0...999))"
        hostNamespace = "intentd-h\(tag)"
        remoteNamespace = "intentd-r\(tag)"
        let subnet = Int.random(in: 1...250)
        hostAddress = "10.200.\(subnet).1"
        remoteAddress = "10.200.\(subnet).2"
        let (status, error) = Self.ip(["netns", "add", hostNamespace])
        guard status == 0 else {
            throw Unavailable(description: "`ip netns add` failed (\(error.trimmingCharacters(in: .whitespacesAndNewlines))); this test needs root and iproute2")
        }
        let hostLink = "ih\(tag)", remoteLink = "ir\(tag)"
        let steps: [[String]] = [
            ["netns", "add", remoteNamespace],
            ["link", "add", hostLink, "type", "veth", "peer", "name", remoteLink],
            ["link", "set", hostLink, "netns", hostNamespace],
            ["link", "set", remoteLink, "netns", remoteNamespace],
            ["-n", hostNamespace, "addr", "add", "\(hostAddress)/24", "dev", hostLink],
            ["-n", remoteNamespace, "addr", "add", "\(remoteAddress)/24", "dev", remoteLink],
            ["-n", hostNamespace, "link", "set", hostLink, "up"],
            ["-n", remoteNamespace, "link", "set", remoteLink, "up"],
            ["-n", hostNamespace, "link", "set", "lo", "up"],
            ["-n", remoteNamespace, "link", "set", "lo", "up"],
        ]
        for step in steps {
            let (status, error) = Self.ip(step)
            guard status == 0 else {
                remove()
                throw TestError("ip \(step.joined(separator: " ")) failed: \(error)")
            }
        }
    }

    /// Starts `executable` inside `namespace`.
    func launch(in namespace: String, _ executable: URL, _ arguments: [String], output: URL) throws -> Process {
        try TestHost.launch(Self.ipTool, ["netns", "exec", namespace, executable.path] + arguments, output: output, environment: [:])
    }

    /// Deletes both namespaces.
    func remove() {
        _ = Self.ip(["netns", "del", hostNamespace])
        _ = Self.ip(["netns", "del", remoteNamespace])
    }

    static let ipTool = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].map(URL.init(fileURLWithPath:))
        .first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? URL(fileURLWithPath: "/usr/sbin/ip")

    /// Runs `ip` and returns its status and standard error.
    @discardableResult
    static func ip(_ arguments: [String]) -> (Int32, String) {
        let p = Process()
        p.executableURL = ipTool
        p.arguments = arguments
        let errors = Pipe()
        p.standardError = errors
        p.standardOutput = FileHandle.nullDevice
        do { try p.run() } catch { return (-1, "\(error)") }
        p.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (p.terminationStatus, text)
    }
}
