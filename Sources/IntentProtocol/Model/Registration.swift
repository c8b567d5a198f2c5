/// The body of REGISTER: who the extension is and what it handles.
public struct Registration: Sendable, Hashable, Codable {
    /// The wire protocol version the extension speaks.
    public var protocolVersion: Int
    /// The extension's bundle identifier, such as `com.monkeychat.intents`.
    public var bundleIdentifier: String
    /// The app's name, as the user says it.
    public var appName: String
    /// Up to three other names the user may call the app.
    public var alternativeAppNames: [AlternativeAppName]
    /// Every other name requests may call the app by: each alternative name, then its
    /// pronunciation if it has one.
    public var otherNames: [String] { alternativeAppNames.flatMap { [$0.name] + ($0.pronunciation.map { [$0] } ?? []) } }
    /// Why the app wants the assistant, shown when the user is asked to allow it.
    public var usageDescription: String
    /// The intents the extension handles, by catalog name.
    public var intentsSupported: [String]
    /// The intents that need the device unlocked; each must also be supported.
    public var intentsRestrictedWhileLocked: [String]
    /// The extension's process id, for status and diagnostics.
    public var processIdentifier: Int?
    /// The app's own vocabulary (AppIntentVocabulary.plist), if it ships one.
    public var vocabulary: AppVocabulary?
    /// The token the host gave the process when it launched it (`INTENTD_LAUNCH_TOKEN`), so
    /// that the host knows which launch this instance is; absent for extensions started by
    /// hand.
    public var launchToken: String?
    /// The ways of sending stages the extension takes besides one stage per request, such
    /// as `batched` (wire.md, section 5b); empty for extensions that take one at a time.
    public var stages: [String] = []

    /// Whether the host may send this extension several stages in one request.
    public var takesBatches: Bool { stages.contains(StageBatch.capability) }

    /// Creates a registration.
    public init(
        protocolVersion: Int = Wire.version, bundleIdentifier: String, appName: String,
        alternativeAppNames: [AlternativeAppName] = [], usageDescription: String = "",
        intentsSupported: [String], intentsRestrictedWhileLocked: [String] = [], processIdentifier: Int? = nil
    ) {
        self.protocolVersion = protocolVersion
        self.bundleIdentifier = bundleIdentifier
        self.appName = appName
        self.alternativeAppNames = alternativeAppNames
        self.usageDescription = usageDescription
        self.intentsSupported = intentsSupported
        self.intentsRestrictedWhileLocked = intentsRestrictedWhileLocked
        self.processIdentifier = processIdentifier
    }

    /// Decodes a registration; only the bundle identifier, the app name and the supported
    /// intents are required, the rest default to empty.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        protocolVersion = try c.decode(Int.self, forKey: .protocolVersion)
        bundleIdentifier = try c.decode(String.self, forKey: .bundleIdentifier)
        appName = try c.decode(String.self, forKey: .appName)
        alternativeAppNames = try c.decodeIfPresent([AlternativeAppName].self, forKey: .alternativeAppNames) ?? []
        usageDescription = try c.decodeIfPresent(String.self, forKey: .usageDescription) ?? ""
        intentsSupported = try c.decode([String].self, forKey: .intentsSupported)
        intentsRestrictedWhileLocked = try c.decodeIfPresent([String].self, forKey: .intentsRestrictedWhileLocked) ?? []
        processIdentifier = try c.decodeIfPresent(Int.self, forKey: .processIdentifier)
        vocabulary = try c.decodeIfPresent(AppVocabulary.self, forKey: .vocabulary)
        launchToken = try c.decodeIfPresent(String.self, forKey: .launchToken)
        stages = try c.decodeIfPresent([String].self, forKey: .stages) ?? []
    }

    /// Reads a REGISTER body as the host does: strictly, as every body (`JSON.decode`), and
    /// with `protocolVersion` and `processIdentifier` written as integers: `2`, not `2.0`.
    public static func decode(_ bytes: [UInt8]) throws -> Registration {
        let registration = try JSON.decode(Registration.self, from: bytes)
        let checked = bytes.withUnsafeBytes { raw in
            Result { () throws(ProtocolError) in
                try JSONParser.visitMembers(raw) { (key, range) throws(ProtocolError) in
                    guard key == "protocolVersion" || key == "processIdentifier" else { return }
                    let text = raw[range]
                    let integer = text.enumerated().allSatisfy { i, byte in
                        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (i == 0 && byte == UInt8(ascii: "-"))
                    }
                    guard integer || text.elementsEqual("null".utf8) else {
                        throw .malformedBody("registration.\(key) must be an integer, written without a fraction or exponent")
                    }
                }
            }
        }
        try checked.get()
        return registration
    }

    /// The same registration with SiriKit class names (`INSendMessageIntent`) turned into
    /// catalog names (`SendMessage`), each name once (the first time it appears).
    public func normalized() -> Registration {
        func unique(_ names: [String]) -> [String] {
            var seen = Set<String>()
            return names.map(Catalog.canonicalIntentName).filter { seen.insert($0).inserted }
        }
        var copy = self
        copy.intentsSupported = unique(intentsSupported)
        copy.intentsRestrictedWhileLocked = unique(intentsRestrictedWhileLocked)
        return copy
    }
}

/// Another name for an app, with an optional hint of how it sounds.
public struct AlternativeAppName: Sendable, Hashable, Codable {
    /// The name.
    public var name: String
    /// How it is pronounced, such as "list oh mat".
    public var pronunciation: String?

    /// Creates a name.
    public init(name: String, pronunciation: String? = nil) {
        self.name = name
        self.pronunciation = pronunciation
    }
}

/// The body of REGISTERED.
public struct Registered: Sendable, Hashable, Codable {
    /// The host's id for this extension instance.
    public var extensionId: String
    /// How often each side sends a heartbeat when it has nothing else to send.
    public var heartbeatMilliseconds: Int
    /// How many intervals without traffic mean the peer is gone.
    public var liveness: Int
    /// The largest message the host accepts.
    public var maxMessageBytes: Int

    /// Creates the body.
    public init(extensionId: String, heartbeatMilliseconds: Int, liveness: Int, maxMessageBytes: Int) {
        self.extensionId = extensionId
        self.heartbeatMilliseconds = heartbeatMilliseconds
        self.liveness = liveness
        self.maxMessageBytes = maxMessageBytes
    }
}
