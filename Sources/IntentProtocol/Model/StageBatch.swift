/// The `batch` member of a REQUEST body: several stages of one intent in one request, for
/// extensions that declared the `batched` stages at registration (wire.md, section 5b).
/// The extension runs them in this order, as the host would have sent them one by one:
/// each parameter of `resolve`, then confirm, then handle; it stops at the first resolve
/// that is not settled, at a confirm that does not answer `ready`, and at an error.
public struct StageBatch: Sendable, Hashable {
    /// The most parameters one batch resolves (an intent has far fewer).
    public static let maximumResolves = 64

    /// One parameter to resolve.
    public struct Resolve: Sendable, Hashable {
        /// The parameter's name.
        public var parameter: String
        /// Whether the catalog marks it required.
        public var required: Bool
        /// Whether it is a list parameter (its results apply element by element).
        public var list: Bool

        /// Creates an entry.
        public init(parameter: String, required: Bool, list: Bool) {
            self.parameter = parameter
            self.required = required
            self.list = list
        }
    }

    /// The capability an extension names in `Registration.stages` to be sent batches.
    public static let capability = "batched"
    /// The code of a confirm response after which a batch goes on to handle.
    public static let readyCode = "ready"

    /// The parameters to resolve, in catalog order.
    public var resolve: [Resolve]
    /// Confirm after the last resolve.
    public var confirm: Bool
    /// Handle after confirm, when confirm answered `ready`. Needs `confirm`.
    public var handle: Bool

    /// Creates a batch.
    public init(resolve: [Resolve], confirm: Bool, handle: Bool) {
        self.resolve = resolve
        self.confirm = confirm
        self.handle = confirm && handle
    }

    /// The stage byte of a REQUEST carrying this batch: its last stage. A batch with a
    /// handle is a handle (sent once, with the idempotency key, `outcomeUnknown` without an
    /// answer); one without is a read (retried on another instance).
    public var stage: Stage { handle ? .handle : confirm ? .confirm : .resolve }

    /// How many replies a batch that runs to its end gives.
    public var count: Int { resolve.count + (confirm ? 1 : 0) + (handle ? 1 : 0) }

    /// Whether a batch goes on after a resolve step that gave `results` for a parameter
    /// whose value was `given`: only when every result is settled and their number fits.
    public static func continues(after results: [ResolutionResult], for entry: Resolve, given: JSONValue?) -> Bool {
        results.count == ResolvedValues.expectedCount(given: given, list: entry.list) && results.allSatisfy(\.isSettled)
    }

    /// Whether a batch goes on to handle after confirm answered `code`.
    public static func handles(after code: String) -> Bool { code == readyCode }
}

extension StageBatch: JSONConvertible, JSONObjectWritable, Codable {
    public func serialized() -> [UInt8] { writtenBytes(capacity: 128) }

    func write(to writer: inout JSONWriter) {
        var o = JSONObjectWriter(consume writer)
        o.add("confirm", trueIf: confirm)
        o.add("handle", trueIf: handle)
        o.add("resolve", array: resolve)
        writer = o.finished()
    }

    public init(json: JSONValue) throws(ProtocolError) {
        let f = try JSONFields(json, "request.batch")
        var resolve: [Resolve] = []
        let entries = try f.array("resolve")
        // Each entry's reply may repeat its value: bounded, and each parameter once, so that a
        // reply stays about the size of its request.
        guard entries.count <= Self.maximumResolves else {
            throw .malformedBody("request.batch.resolve has \(entries.count) entries; at most \(Self.maximumResolves)")
        }
        var seen = Set<String>()
        for entry in entries {
            let e = try JSONFields(entry, "request.batch.resolve[]")
            let parameter = try e.string("parameter")
            guard seen.insert(parameter).inserted else {
                throw .malformedBody("request.batch.resolve names \"\(PeerNames.loggable(parameter))\" twice")
            }
            resolve.append(Resolve(
                parameter: parameter, required: try e.optionalBool("required") ?? false,
                list: try e.optionalBool("list") ?? false))
        }
        let confirm = try f.optionalBool("confirm") ?? false
        let handle = try f.optionalBool("handle") ?? false
        if handle && !confirm { throw .malformedBody("request.batch.handle needs confirm") }
        self.init(resolve: resolve, confirm: confirm, handle: handle)
    }

    public var json: JSONValue {
        var o = JSONObjectBuilder()
        o["resolve"] = .array(resolve.map { entry in
            var e = JSONObjectBuilder()
            e["parameter"] = .string(entry.parameter)
            // Both default to false: an optional single-value parameter is just its name.
            e["required"] = entry.required ? .bool(true) : nil
            e["list"] = entry.list ? .bool(true) : nil
            return e.json
        })
        o["confirm"] = confirm ? .bool(true) : nil
        o["handle"] = handle ? .bool(true) : nil
        return o.json
    }

    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        try self.init(json: value)
    }

    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}

extension StageBatch.Resolve: JSONObjectWritable {
    /// Both flags default to false: an optional single-value parameter is just its name.
    func write(to writer: inout JSONWriter) {
        var o = JSONObjectWriter(consume writer)
        o.add("list", trueIf: list)
        o.add("parameter", .string(parameter))
        o.add("required", trueIf: required)
        writer = o.finished()
    }
}
