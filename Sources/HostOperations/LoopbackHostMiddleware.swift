import Hummingbird

/// Refuses requests whose `Host` is not a loopback name (`localhost`, `127.x.x.x`, `::1`),
/// with 421. The HTTP side listens on loopback only, but a page elsewhere can have its own
/// name resolve to 127.0.0.1 (DNS rebinding) and read what needs no token, `/metrics`:
/// its requests carry its own name.
public struct LoopbackHostMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The middleware.
    public init() {}

    /// Passes on requests for a loopback name only.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let authority = request.head.authority, Self.isLoopback(authority) else {
            return Response(status: .misdirectedRequest)
        }
        return try await next(request, context)
    }

    /// Whether `authority` (`HOST[:PORT]`) names this machine's loopback.
    static func isLoopback(_ authority: String) -> Bool {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            host = host[host.index(after: host.startIndex)..<close]
            return host == "::1"
        }
        if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
        if host.lowercased() == "localhost" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
