/// Where the host's HTTP side listens: a loopback host and a port (0 for any free one),
/// from `--http HOST:PORT`; `--http off` turns it off.
public struct OperationsAddress: Sendable, Equatable, CustomStringConvertible {
    /// The default: loopback, port 8470.
    public static let standard = OperationsAddress(host: "127.0.0.1", port: 8470)

    /// The address to bind, such as `127.0.0.1` or `::1`.
    public var host: String
    /// The port; 0 for any free one.
    public var port: Int

    /// An address.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `HOST:PORT` (`[::1]:PORT` for IPv6); only loopback addresses are accepted:
    /// the metrics, and later the console, are for the user of this machine.
    public init(parsing text: String) throws(OperationsAddressError) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw OperationsAddressError("\"\(text)\" is not HOST:PORT (such as 127.0.0.1:8470), nor off")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { host = "127.0.0.1" }
        guard host == "::1" || host.split(separator: ".").first == "127" && host.split(separator: ".").count == 4
            && host.split(separator: ".").allSatisfy({ UInt8($0) != nil })
        else {
            throw OperationsAddressError("\(host) is not a loopback address: the HTTP side serves this machine only (127.0.0.0/8 or ::1)")
        }
        self.init(host: host, port: port)
    }

    /// `HOST:PORT`.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Why an HTTP address was not accepted.
public struct OperationsAddressError: Error, CustomStringConvertible {
    /// What was wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
