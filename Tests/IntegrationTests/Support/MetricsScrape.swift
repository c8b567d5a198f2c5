import Foundation

/// One scrape of a Prometheus text endpoint, read into series: each sample by its name and
/// labels, so a test asks for a count instead of searching text.
struct MetricsScrape {
    /// Each sample's value by `name{label="value",...}` with the labels sorted by name.
    let samples: [String: Double]

    /// Fetches `url` (`http://127.0.0.1:PORT/metrics`) with a plain HTTP GET over a socket (the connection closed after it).
    init(url: String) throws {
        guard let components = URLComponents(string: url), let host = components.host, let port = components.port else {
            throw TestError("not an http URL: \(url)")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestError("cannot connect to \(url): errno \(errno)") }
        let request = Array("GET \(components.path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
        guard write(fd, request, request.count) == request.count else { throw TestError("cannot send the request") }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            response += buffer[..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 200"), let split = text.range(of: "\r\n\r\n") else {
            throw TestError("not a 200 answer from \(url):\n\(text.prefix(500))")
        }
        samples = Self.parse(String(text[split.upperBound...]))
    }

    /// The samples of Prometheus text.
    static func parse(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            let series = line[..<space]
            guard let brace = series.firstIndex(of: "{") else {
                samples[String(series)] = value
                continue
            }
            let labels = series[series.index(after: brace)..<series.index(before: series.endIndex)]
                .split(separator: ",").map(String.init).sorted()
            samples["\(series[..<brace]){\(labels.joined(separator: ","))}"] = value
        }
        return samples
    }

    /// The value of `name` with `labels` (in any order); 0 when there is no such series.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        let key = labels.isEmpty ? name : "\(name){\(labels.map { "\($0.key)=\"\($0.value)\"" }.sorted().joined(separator: ","))}"
        return samples[key] ?? 0
    }
}
