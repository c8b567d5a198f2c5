import Foundation
import IntentProtocol

/// Everything `intentd` needs to start, from its flags, its config file and defaults.
public struct HostConfiguration: Sendable {
    /// Where host state lives.
    public var stateDirectory: StateDirectory
    /// Where clients connect (`ipc://STATE/client.sock` by default).
    public var clientEndpoint: String
    /// Where extensions connect (`ipc://STATE/extensions.sock` by default).
    public var extensionEndpoint: String
    /// Where the host publishes extensions' updates (`ipc://STATE/updates.sock` by default).
    public var updatesEndpoint: String
    /// Where the domain catalog's JSON files are; found automatically when empty. Every
    /// directory given is loaded: a domain is added by adding a file.
    public var catalogDirectories: [URL] = []
    /// The extensions to launch as child processes, by name (`messaging`).
    public var extensions: [String] = []
    /// Extension names mapped to executables: a file name found beside `intentd`, or a path.
    public var executables: [String: String] = HostConfiguration.builtInExtensions
    /// Extension names mapped to their manifest files, for executables whose manifest is not
    /// in a SwiftPM resource bundle beside them.
    public var manifests: [String: String] = [:]
    /// How long the host waits for an extension's answer to one stage.
    public var requestTimeout: Duration = .seconds(5)
    /// How often heartbeats go out when nothing else does.
    public var heartbeatInterval: Duration = .milliseconds(1000)
    /// Missed intervals after which a peer is taken for dead.
    public var liveness = 3
    /// The largest message accepted (one frame, after the routing id).
    public var maxMessageBytes = Wire.maxMessageBytes
    /// The lock state when none was saved before.
    public var startLocked = false
    /// How long a conversation waits for the user's answer before it ends.
    public var sessionTimeout: Duration = .seconds(30)
    /// The folder of language files; found beside the catalog when nil.
    public var languagesDirectory: URL?
    /// Folders of language additions (phrases, examples and answers for domains of one's
    /// own), merged into the language files as they load.
    public var phraseDirectories: [URL] = []
    /// The language of conversations that name none.
    public var defaultLanguage = "en"

    /// Whether launched extensions run in a sandbox (bubblewrap); when they cannot, the host
    /// refuses to launch them unless this is false (`--no-sandbox`).
    public var sandbox = true
    /// The bubblewrap executable: a path, or a name looked up on PATH.
    public var bubblewrapPath = "bwrap"
    /// Every launched extension's resource limits, unless `extensionLimits` says otherwise.
    public var limits = ResourceLimits.defaults
    /// Limits by extension name (`messaging`), overriding `limits` field by field.
    public var extensionLimits: [String: ResourceLimits] = [:]
    /// Whether memory and process limits may use cgroups (v1) where the host can create
    /// them; when false, rlimits enforce every limit.
    public var cgroups = true
    /// Names of the host's environment variables launched extensions get too.
    public var passEnvironment: [String] = []
    /// A file to write every message the host accepts or sends to (`--trace-wire`), for
    /// people writing extensions and clients; none when nil.
    public var wireTrace: URL?
    /// Where the host serves HTTP (the console, a web page of the host): `HOST:PORT` on
    /// loopback, or `off`.
    public var httpAddress = "127.0.0.1:8470"
    /// How much work the host takes on at once before it refuses with `overloaded`.
    public var admission = AdmissionLimits.defaults
    /// Whether lifecycles send several stages per request to extensions that declared
    /// `batched` stages (wire.md, section 5b); `false` sends one stage per request to all.
    public var batchedStages = true
    /// Whether a batch that confirms carries the handle too, so that a lifecycle that needs
    /// nothing from the user is one request (wire.md, section 5b). A hang or crash during
    /// such a request is then answered `outcomeUnknown`, with the key to find out, since
    /// the handle may have run; `false` (the default) sends the handle alone.
    public var handleInBatch = false
    /// Where the host's HTTP side listens, once it does, for STATUS; nil when it is off.
    public var http: HTTPEndpoint?

    /// The extensions that ship with intentd.
    public static let builtInExtensions = ["messaging": "MonkeyChat", "lists": "ListOMat", "rides": "Zippy", "bench": "IntentBench"]

    /// A configuration with default endpoints inside `stateDirectory`.
    public init(stateDirectory: StateDirectory) {
        self.stateDirectory = stateDirectory
        clientEndpoint = stateDirectory.clientEndpoint
        extensionEndpoint = stateDirectory.extensionEndpoint
        updatesEndpoint = stateDirectory.updatesEndpoint
    }

    /// Applies a JSON config file (see `deploy/intentd.json`); flags given later win.
    public mutating func apply(file url: URL) throws {
        let file: File
        do {
            file = try JSON.decode(File.self, from: JSON.fileText(Array(try Data(contentsOf: url))))
        } catch let error as ProtocolError {
            throw ConfigurationError("the config file \(url.path): \(error.inFile)")
        } catch {
            throw ConfigurationError("cannot read the config file \(url.path): \(describeFileError(error))")
        }
        if let value = file.extensions { extensions = value }
        if let value = file.executables { executables.merge(value) { _, new in new } }
        if let value = file.manifests {
            manifests.merge(value.mapValues { URL(fileURLWithPath: $0, relativeTo: url.deletingLastPathComponent()).path }) { _, new in new }
        }
        if let value = file.clientEndpoint { clientEndpoint = value }
        if let value = file.extensionEndpoint { extensionEndpoint = value }
        if let value = file.updatesEndpoint { updatesEndpoint = value }
        if let value = file.catalogDirectories {
            catalogDirectories = value.map { URL(fileURLWithPath: $0, relativeTo: url.deletingLastPathComponent()) }
        }
        if let value = file.requestTimeoutMilliseconds { requestTimeout = .milliseconds(value) }
        if let value = file.heartbeatMilliseconds { heartbeatInterval = .milliseconds(value) }
        if let value = file.liveness { liveness = value }
        if let value = file.maxMessageBytes { maxMessageBytes = value }
        if let value = file.startLocked { startLocked = value }
        if let value = file.sessionTimeoutSeconds {
            guard let timeout = Duration.checkedSeconds(value) else {
                throw ConfigurationError("the config file \(url.path): sessionTimeoutSeconds is \(value); give seconds from 0 to 1000000000")
            }
            sessionTimeout = timeout
        }
        if let value = file.languagesDirectory {
            languagesDirectory = URL(fileURLWithPath: value, relativeTo: url.deletingLastPathComponent())
        }
        if let value = file.phraseDirectories {
            phraseDirectories = value.map { URL(fileURLWithPath: $0, relativeTo: url.deletingLastPathComponent()) }
        }
        if let value = file.defaultLanguage { defaultLanguage = value }
        if let value = file.sandbox { sandbox = value }
        if let value = file.bubblewrapPath { bubblewrapPath = value }
        if let value = file.limits {
            try value.validate("\(url.path): limits")
            limits = limits.overridden(by: value)
        }
        if let value = file.extensionLimits {
            for (name, limits) in value { try limits.validate("\(url.path): extensionLimits.\(name)") }
            extensionLimits.merge(value) { _, new in new }
        }
        if let value = file.passEnvironment { passEnvironment += value }
        if let value = file.cgroups { cgroups = value }
        if let value = file.http { httpAddress = value }
        if let value = file.batchedStages { batchedStages = value }
        if let value = file.handleInBatch { handleInBatch = value }
        if let value = file.admission {
            try value.validate("\(url.path): admission")
            admission = admission.overridden(by: value)
        }
    }

    /// The config file's fields; all optional.
    struct File: Decodable {
        var extensions: [String]?
        var executables: [String: String]?
        var manifests: [String: String]?
        var clientEndpoint: String?
        var extensionEndpoint: String?
        var updatesEndpoint: String?
        var catalogDirectories: [String]?
        var requestTimeoutMilliseconds: Int?
        var heartbeatMilliseconds: Int?
        var liveness: Int?
        var maxMessageBytes: Int?
        var startLocked: Bool?
        var sessionTimeoutSeconds: Double?
        var languagesDirectory: String?
        var phraseDirectories: [String]?
        var defaultLanguage: String?
        var sandbox: Bool?
        var bubblewrapPath: String?
        var limits: ResourceLimits?
        var extensionLimits: [String: ResourceLimits]?
        var passEnvironment: [String]?
        var cgroups: Bool?
        var admission: AdmissionLimits?
        var http: String?
        var batchedStages: Bool?
        var handleInBatch: Bool?
    }
}

/// A configuration that cannot be used.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

extension HostConfiguration {
    /// The language additions `phraseDirectories` (`--phrases`) name: each a `.json` file, or
    /// every one in a folder (links followed). A path that names none is an error, not phrases
    /// silently missing.
    func languageAdditions() throws -> [URL] {
        try phraseDirectories.flatMap(Self.languageAdditions)
    }

    static func languageAdditions(_ path: URL) throws -> [URL] {
        let resolved = path.resolvingSymlinksInPath()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isFolder) else {
            throw ConfigurationError("--phrases \(path.path): no such file or folder")
        }
        let isAddition = { (file: URL) in file.pathExtension.lowercased() == "json" }
        guard isFolder.boolValue else {
            guard isAddition(resolved) else { throw ConfigurationError("--phrases \(path.path): a language addition is a .json file") }
            return [resolved]
        }
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: resolved, includingPropertiesForKeys: nil).filter(isAddition)
        } catch {
            throw ConfigurationError("cannot read the phrases folder \(path.path): \(describeFileError(error))")
        }
        guard !files.isEmpty else { throw ConfigurationError("--phrases \(path.path): no language additions (*.json) in it") }
        return files
    }
}
