import W3CTraceContext

/// The W3C `traceparent` a request carries (wire.md, section 5b): one trace id from the
/// client through the host to every extension stage and back, logged by each as the `trace`
/// metadata of its lines, so `intentctl logs --trace ID` finds one request's path.
public enum TraceParent {
    /// The member's name in a body.
    public static let member = "traceparent"
    private static let memberPrefix = Array("\"traceparent\":\"".utf8)

    /// A new `traceparent` (version 00, random trace and parent ids, sampled).
    public static func make() -> String {
        var random = PooledRandom()
        // An id of all zeros is invalid; a one in the lowest bit rules it out.
        let trace = (random.next(), random.next() | 1)
        let span = random.next() | 1
        return "00-" + PooledRandom.hex(trace.0, 16, upper: false) + PooledRandom.hex(trace.1, 16, upper: false) + "-"
            + PooledRandom.hex(span, 16, upper: false) + "-01"
    }

    /// `text` if it is a valid `traceparent`, else nil.
    public static func valid(_ text: String) -> String? {
        (try? TraceContext(traceParentHeaderValue: text)) == nil ? nil : text
    }

    /// The trace id (32 hex digits) of a valid `traceparent`.
    public static func traceID(of traceparent: String) -> String? {
        (try? TraceContext(traceParentHeaderValue: traceparent)).map { "\($0.traceID)" }
    }

    /// The valid `traceparent` a JSON body names, if any (`"traceparent":"…"`, written
    /// without spaces, as this project's encoders and the Python SDK write it).
    public static func find(in body: some Collection<UInt8>) -> String? {
        if let found = body.withContiguousStorageIfAvailable({ find(in: UnsafeRawBufferPointer($0)) }) { return found }
        return Array(body).withUnsafeBytes { find(in: $0) }
    }

    private static func find(in body: UnsafeRawBufferPointer) -> String? {
        guard let at = ByteSearch.firstOffset(of: memberPrefix, in: body) else { return nil }
        let start = at + memberPrefix.count
        guard start + 55 <= body.count else { return nil }
        return valid(String(decoding: UnsafeRawBufferPointer(rebasing: body[start..<(start + 55)]), as: UTF8.self))
    }

    /// The trace id of the `traceparent` in `body`, for log metadata.
    public static func traceID(in body: some Collection<UInt8>) -> String? {
        find(in: body).flatMap(traceID(of:))
    }

    /// `body` (a JSON object) with `"traceparent"` added as its last member, unless it has
    /// one; nil if `body` is not an object.
    public static func adding(_ traceparent: String, to body: [UInt8]) -> [UInt8]? {
        if find(in: body) != nil { return body }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0a || b == 0x0d || b == 0x09 }
        guard let first = body.firstIndex(where: { !isSpace($0) }), body[first] == UInt8(ascii: "{"),
            let last = body.lastIndex(where: { !isSpace($0) }), last > first, body[last] == UInt8(ascii: "}")
        else { return nil }
        let inside = body[(first + 1)..<last].contains { !isSpace($0) }
        var out = Array(body[..<last])
        if inside { out.append(UInt8(ascii: ",")) }
        out += memberPrefix
        out += traceparent.utf8
        out.append(UInt8(ascii: "\""))
        out += body[last...]
        return out
    }
}
