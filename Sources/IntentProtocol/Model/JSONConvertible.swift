/// A body type with a direct conversion to and from `JSONValue`. `JSON.encode` and
/// `JSON.decode` use it instead of `Codable` for the bodies on the routing path.
public protocol JSONConvertible {
    /// Reads the value, with an error that names what is wrong.
    init(json: JSONValue) throws(ProtocolError)
    /// The value as JSON.
    var json: JSONValue { get }
    /// The value as compact UTF-8 JSON with sorted keys.
    func serialized() -> [UInt8]
}

extension JSONConvertible {
    public func serialized() -> [UInt8] { json.serialized() }
}

extension JSONValue: JSONConvertible {
    public init(json: JSONValue) { self = json }
    public var json: JSONValue { self }

    /// Parses UTF-8 JSON bytes.
    public static func parse(_ bytes: [UInt8]) throws(ProtocolError) -> JSONValue {
        try bytes.withUnsafeBytes { raw in Result { () throws(ProtocolError) in try JSONParser.parse(raw) } }.get()
    }

    /// Parses UTF-8 JSON bytes.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> JSONValue {
        let result: Result<JSONValue, ProtocolError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(ProtocolError) in try JSONParser.parse(UnsafeRawBufferPointer(buffer)) }
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBytes { raw in Result { () throws(ProtocolError) in try JSONParser.parse(raw) } }.get()
    }

    /// The value as compact UTF-8 JSON with sorted keys.
    public func serialized() -> [UInt8] {
        var writer = JSONWriter()
        writer.write(self)
        return writer.bytes
    }
}

/// Reads the members of a JSON object, naming the body and member in every error.
struct JSONFields {
    let members: [String: JSONValue]
    let what: String

    init(_ value: JSONValue, _ what: String) throws(ProtocolError) {
        guard case .object(let members) = value else { throw .malformedBody("\(what) must be a JSON object") }
        self.members = members
        self.what = what
    }

    private func present(_ key: String) -> JSONValue? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    private func wrong(_ key: String, _ type: String) -> ProtocolError {
        .malformedBody("\(what).\(key) must be \(type)")
    }

    func string(_ key: String) throws(ProtocolError) -> String {
        guard let value = try optionalString(key) else { throw .malformedBody("\(what).\(key) is missing") }
        return value
    }

    func optionalString(_ key: String) throws(ProtocolError) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let s) = value else { throw wrong(key, "a string") }
        return s
    }

    func optionalBool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard case .bool(let b) = value else { throw wrong(key, "true or false") }
        return b
    }

    func object(_ key: String) throws(ProtocolError) -> [String: JSONValue] {
        guard let value = try optionalObject(key) else { throw .malformedBody("\(what).\(key) is missing") }
        return value
    }

    func optionalObject(_ key: String) throws(ProtocolError) -> [String: JSONValue]? {
        guard let value = present(key) else { return nil }
        guard case .object(let o) = value else { throw wrong(key, "an object") }
        return o
    }

    func array(_ key: String) throws(ProtocolError) -> [JSONValue] {
        guard let value = present(key) else { throw .malformedBody("\(what).\(key) is missing") }
        guard case .array(let a) = value else { throw wrong(key, "an array") }
        return a
    }

    func value(_ key: String) throws(ProtocolError) -> JSONValue {
        guard let value = members[key] else { throw .malformedBody("\(what).\(key) is missing") }
        return value
    }

    func optionalValue(_ key: String) -> JSONValue? { present(key) }
}

/// Builds a JSON object, leaving out absent optionals.
struct JSONObjectBuilder {
    var members: [String: JSONValue] = [:]
    subscript(key: String) -> JSONValue? {
        get { members[key] }
        set { if let newValue { members[key] = newValue } }
    }
    var json: JSONValue { .object(members) }
}

extension StageRequest: JSONConvertible, JSONObjectWritable {
    /// Written straight from the fields, as every stage request is: no intermediate object.
    public func serialized() -> [UInt8] { writtenBytes(capacity: 256) }

    func write(to writer: inout JSONWriter) {
        var o = JSONObjectWriter(consume writer)
        o.add("batch", batch)
        o.add("deadline", deadline.map { .number(Double($0)) })
        o.add("idempotencyKey", idempotencyKey.map(JSONValue.string))
        o.add("intent", .string(intent))
        o.add("language", .string(language))
        o.add("parameter", parameter.map(JSONValue.string))
        o.add("parameters", .object(parameters))
        o.add("required", required.map(JSONValue.bool))
        o.add("sessionId", .string(sessionId))
        writer = o.finished()
    }

    public init(json: JSONValue) throws(ProtocolError) {
        let f = try JSONFields(json, "request")
        self.init(
            sessionId: try f.string("sessionId"), language: try f.string("language"), intent: try f.string("intent"),
            parameters: try f.object("parameters"), parameter: try f.optionalString("parameter"),
            required: try f.optionalBool("required"), idempotencyKey: try f.optionalString("idempotencyKey"),
            batch: try f.optionalValue("batch").map { (value) throws(ProtocolError) in try StageBatch(json: value) })
        if case .number(let n)? = f.optionalValue("deadline"), n.isFinite, abs(n) < 9e15 { deadline = Int64(n) }
    }

    public var json: JSONValue {
        var o = JSONObjectBuilder()
        o["sessionId"] = .string(sessionId)
        o["language"] = .string(language)
        o["intent"] = .string(intent)
        o["parameters"] = .object(parameters)
        o["parameter"] = parameter.map(JSONValue.string)
        o["required"] = required.map(JSONValue.bool)
        o["idempotencyKey"] = idempotencyKey.map(JSONValue.string)
        o["deadline"] = deadline.map { .number(Double($0)) }
        o["batch"] = batch?.json
        return o.json
    }
}

extension Submission: JSONConvertible {
    public init(json: JSONValue) throws(ProtocolError) {
        let f = try JSONFields(json, "submission")
        self.init(
            parameters: try f.object("parameters"), language: try f.optionalString("language"),
            sessionId: try f.optionalString("sessionId"), confirmed: try f.optionalBool("confirmed"),
            idempotencyKey: try f.optionalString("idempotencyKey"))
        traceparent = try f.optionalString("traceparent")
    }

    public var json: JSONValue {
        var o = JSONObjectBuilder()
        o["parameters"] = .object(parameters)
        o["language"] = language.map(JSONValue.string)
        o["sessionId"] = sessionId.map(JSONValue.string)
        o["confirmed"] = confirmed.map(JSONValue.bool)
        o["idempotencyKey"] = idempotencyKey.map(JSONValue.string)
        o["traceparent"] = traceparent.map(JSONValue.string)
        return o.json
    }
}

extension ResolutionResult: JSONConvertible, JSONObjectWritable {
    public func serialized() -> [UInt8] { writtenBytes(capacity: 64) }

    func write(to writer: inout JSONWriter) {
        var o = JSONObjectWriter(consume writer)
        o.add("kind", .string(kind))
        switch self {
        case .success(let value): o.add("value", value)
        case .confirmationRequired(let value, let reason):
            if let reason { o.add("reason", .string(reason)) }
            o.add("value", value)
        case .disambiguation(let options): o.add("options", .array(options))
        case .unsupported(let reason): o.add("reason", reason.map(JSONValue.string))
        case .needsValue, .notRequired: break
        }
        writer = o.finished()
    }

    public init(json: JSONValue) throws(ProtocolError) {
        let f = try JSONFields(json, "result")
        switch try f.string("kind") {
        case "success": self = .success(try f.value("value"))
        case "disambiguation":
            let options = try f.array("options")
            guard (2...Self.maximumOptions).contains(options.count) else {
                throw .malformedBody("a disambiguation offers 2 to 10 options, not \(options.count)")
            }
            self = .disambiguation(options)
        case "confirmationRequired": self = .confirmationRequired(try f.value("value"), reason: try f.optionalString("reason"))
        case "needsValue": self = .needsValue
        case "notRequired": self = .notRequired
        case "unsupported": self = .unsupported(reason: try f.optionalString("reason"))
        case let other: throw .malformedBody("unknown resolution kind \"\(other)\"")
        }
    }

    public var json: JSONValue {
        var o = JSONObjectBuilder()
        o["kind"] = .string(kind)
        switch self {
        case .success(let value): o["value"] = value
        case .confirmationRequired(let value, let reason):
            o["value"] = value
            if let reason { o["reason"] = .string(reason) }
        case .disambiguation(let options): o["options"] = .array(options)
        case .unsupported(let reason): o["reason"] = reason.map(JSONValue.string)
        case .needsValue, .notRequired: break
        }
        return o.json
    }
}

extension ResolveReply: JSONConvertible, JSONObjectWritable {
    /// Written straight from the results, as every resolve reply is: no intermediate object.
    public func serialized() -> [UInt8] { writtenBytes(capacity: 64 + 48 * results.count) }

    func write(to writer: inout JSONWriter) {
        var o = JSONObjectWriter(consume writer)
        o.add("results", array: results)
        writer = o.finished()
    }

    public init(json: JSONValue) throws(ProtocolError) {
        var results: [ResolutionResult] = []
        for result in try JSONFields(json, "reply").array("results") { results.append(try ResolutionResult(json: result)) }
        self.init(results: results)
    }

    public var json: JSONValue { ["results": .array(results.map(\.json))] }
}

extension IntentResponse: JSONConvertible, JSONObjectWritable {
    /// Written straight from the fields, as every handle reply is: no intermediate object.
    public func serialized() -> [UInt8] { writtenBytes(capacity: 32 + code.utf8.count) }

    func write(to writer: inout JSONWriter) {
        var o = JSONObjectWriter(consume writer)
        o.add("code", .string(code))
        o.add("response", .object(response))
        o.add("userActivity", userActivity)
        writer = o.finished()
    }

    public init(json: JSONValue) throws(ProtocolError) {
        let f = try JSONFields(json, "response")
        self.init(code: try f.string("code"), response: try f.optionalObject("response") ?? [:], userActivity: f.optionalValue("userActivity"))
    }

    public var json: JSONValue {
        var o = JSONObjectBuilder()
        o["code"] = .string(code)
        o["response"] = .object(response)
        o["userActivity"] = userActivity
        return o.json
    }
}

extension ErrorReply: JSONConvertible, JSONObjectWritable {
    public func serialized() -> [UInt8] { writtenBytes(capacity: 16 + error.utf8.count) }

    func write(to writer: inout JSONWriter) {
        var o = JSONObjectWriter(consume writer)
        o.add("error", .string(error))
        writer = o.finished()
    }

    public init(json: JSONValue) throws(ProtocolError) {
        self.init(error: try JSONFields(json, "reply").string("error"))
    }

    public var json: JSONValue { ["error": .string(error)] }

    /// The reply as an ErrorReply, or nil for any other reply, read as `init(json:)` reads
    /// it but without making an error to throw for every reply that is not one.
    public static func found(in json: JSONValue) -> ErrorReply? {
        guard case .object(let members) = json, case .string(let error)? = members["error"] else { return nil }
        return ErrorReply(error: error)
    }
}

extension ParameterResolution: JSONConvertible, JSONObjectWritable {
    public func serialized() -> [UInt8] { writtenBytes(capacity: 64) }

    func write(to writer: inout JSONWriter) {
        var o = JSONObjectWriter(consume writer)
        o.add("parameter", .string(parameter))
        o.add("results", array: results)
        writer = o.finished()
    }

    public init(json: JSONValue) throws(ProtocolError) {
        let f = try JSONFields(json, "resolution")
        var results: [ResolutionResult] = []
        for result in try f.array("results") { results.append(try ResolutionResult(json: result)) }
        self.init(parameter: try f.string("parameter"), results: results)
    }

    public var json: JSONValue { ["parameter": .string(parameter), "results": .array(results.map(\.json))] }
}

extension Outcome: JSONConvertible, JSONObjectWritable {
    /// Written straight from the fields, as every SUBMIT's answer is: no intermediate object.
    public func serialized() -> [UInt8] { writtenBytes(capacity: 512) }

    func write(to writer: inout JSONWriter) {
        var o = JSONObjectWriter(consume writer)
        o.add("app", .string(app))
        o.add("code", .string(code))
        o.add("idempotencyKey", idempotencyKey.map(JSONValue.string))
        o.add("intent", .string(intent))
        o.add("message", .string(message))
        o.add("outcome", .string(outcome.rawValue))
        o.add("resolutions", array: resolutions)
        o.add("response", response)
        o.add("sessionId", .string(sessionId))
        o.add("traceparent", traceparent.map(JSONValue.string))
        writer = o.finished()
    }

    public init(json: JSONValue) throws(ProtocolError) {
        let f = try JSONFields(json, "outcome")
        guard let kind = Kind(rawValue: try f.string("outcome")) else { throw .malformedBody("outcome.outcome is not a known kind") }
        var resolutions: [ParameterResolution] = []
        for r in (try? f.array("resolutions")) ?? [] { resolutions.append(try ParameterResolution(json: r)) }
        var response: IntentResponse?
        if let r = f.optionalValue("response") { response = try IntentResponse(json: r) }
        self.init(
            outcome: kind, code: try f.string("code"), app: try f.string("app"), intent: try f.string("intent"),
            sessionId: try f.string("sessionId"), resolutions: resolutions, response: response, message: try f.string("message"))
        idempotencyKey = try f.optionalString("idempotencyKey")
        traceparent = try f.optionalString("traceparent")
    }

    public var json: JSONValue {
        var o = JSONObjectBuilder()
        o["outcome"] = .string(outcome.rawValue)
        o["code"] = .string(code)
        o["app"] = .string(app)
        o["intent"] = .string(intent)
        o["sessionId"] = .string(sessionId)
        o["resolutions"] = .array(resolutions.map(\.json))
        o["response"] = response?.json
        o["message"] = .string(message)
        o["idempotencyKey"] = idempotencyKey.map(JSONValue.string)
        o["traceparent"] = traceparent.map(JSONValue.string)
        return o.json
    }
}

extension Person: JSONConvertible {
    public init(json: JSONValue) throws(ProtocolError) {
        let f = try JSONFields(json, "person")
        self.init(displayName: try f.string("displayName"), identifier: try f.optionalString("identifier"), handle: try f.optionalString("handle"))
    }

    public var json: JSONValue {
        var o = JSONObjectBuilder()
        o["displayName"] = .string(displayName)
        o["identifier"] = identifier.map(JSONValue.string)
        o["handle"] = handle.map(JSONValue.string)
        return o.json
    }
}
