import HTTPTypes
import Hummingbird

/// Lets through only requests that carry the console's token (the `token` query parameter,
/// or `Authorization: Bearer TOKEN`), and gives every answer headers that keep the page to
/// its own scripts and out of other sites' frames.
struct ConsoleGuard<Context: RequestContext>: RouterMiddleware {
    let token: ConsoleToken

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let query = request.uri.queryParameters.get("token")
        guard token.matches(query.map { String($0) }) || token.matches(bearer) else {
            // A token that is not this console's is most often an old one: say where the new one is.
            let why = query == nil && bearer == nil
                ? "This console needs its token: open the address intentd printed when it started (http://…/?token=…); the token is in STATE/console-token.\n"
                : "This token is not the console's (intentd makes a new one when its own is lost or its port was taken): open the address in STATE/console.url.\n"
            var refused = Response(
                status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: why)))
            Self.protect(&refused.headers)
            return refused
        }
        var response = try await next(request, context)
        Self.protect(&response.headers)
        return response
    }

    static func protect(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        headers[.xContentTypeOptions] = "nosniff"
        if let referrer = HTTPField.Name("Referrer-Policy") { headers[referrer] = "no-referrer" }
        headers[.cacheControl] = headers[.cacheControl] ?? "no-store"
    }
}
