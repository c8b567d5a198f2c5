/// A REQUEST body read in one checking pass that builds only the small members: the
/// parameters stay as JSON bytes until someone asks for them. A handler that never reads
/// its parameters (or reads them once) pays for no decoding it does not use.
public struct LazyStageRequest: Sendable {
    /// The conversation this request belongs to.
    public let sessionId: String
    /// The user's language, such as `en`.
    public let language: String
    /// The intent's name, such as `SendMessage`.
    public let intent: String
    /// For resolve: the parameter to resolve.
    public let parameter: String?
    /// For resolve: whether the catalog marks that parameter as required.
    public let required: Bool?
    /// For handle: the key that names this piece of work across retries.
    public let idempotencyKey: String?
    /// When the host stops waiting, in milliseconds since 1970 (UTC), if it said.
    public let deadline: Int64?
    /// The stages to run, when the request is a batch.
    public let batch: StageBatch?
    private let body: [UInt8]
    private let parametersRange: Range<Int>

    /// Checks that `body` is a valid StageRequest and reads all but its parameters.
    public init(_ body: [UInt8]) throws(ProtocolError) {
        var sessionId: String?, language: String?, intent: String?, parameter: String?
        var required: Bool?
        var idempotencyKey: String?
        var deadline: Int64?
        var batch: StageBatch?
        var parametersRange: Range<Int>?
        let checked = body.withUnsafeBytes { raw in Result { () throws(ProtocolError) in
            try JSONParser.visitMembers(raw) { (key, range) throws(ProtocolError) in
                let value = { () throws(ProtocolError) in try JSONParser.parse(UnsafeRawBufferPointer(rebasing: raw[range])) }
                func text() throws(ProtocolError) -> String? {
                    switch try value() {
                    case .string(let s): s
                    case .null: nil
                    default: throw .malformedBody("request.\(key) must be a string")
                    }
                }
                switch key {
                case "parameters":
                    guard raw[range.lowerBound] == UInt8(ascii: "{") else { throw .malformedBody("request.parameters must be an object") }
                    parametersRange = range
                case "sessionId": sessionId = try text()
                case "language": language = try text()
                case "intent": intent = try text()
                case "parameter": parameter = try text()
                case "batch":
                    let given = try value()
                    batch = given == .null ? nil : try StageBatch(json: given)
                case "idempotencyKey": idempotencyKey = try text()
                case "deadline":
                    switch try value() {
                    case .number(let n) where n.isFinite && abs(n) < 9e15: deadline = Int64(n)
                    case .null: deadline = nil
                    default: throw .malformedBody("request.deadline must be a number of milliseconds")
                    }
                case "required":
                    switch try value() {
                    case .bool(let b): required = b
                    case .null: required = nil
                    default: throw .malformedBody("request.required must be true or false")
                    }
                default: break
                }
            }
        } }
        try checked.get()
        guard let sessionId else { throw .malformedBody("request.sessionId is missing") }
        guard let language else { throw .malformedBody("request.language is missing") }
        guard let intent else { throw .malformedBody("request.intent is missing") }
        guard let parametersRange else { throw .malformedBody("request.parameters is missing") }
        self.sessionId = sessionId
        self.language = language
        self.intent = intent
        self.parameter = parameter
        self.required = required
        self.idempotencyKey = idempotencyKey
        self.deadline = deadline
        self.batch = batch
        self.body = body
        self.parametersRange = parametersRange
    }

    /// Decodes the parameters; the bytes were checked already, so this does not fail on
    /// anything `init` accepted.
    public func parameters() -> [String: JSONValue] {
        let value = body.withUnsafeBytes { raw in
            try? JSONParser.parse(UnsafeRawBufferPointer(rebasing: raw[parametersRange]))
        }
        return value?.objectValue ?? [:]
    }
}
