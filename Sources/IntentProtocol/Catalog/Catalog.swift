import Foundation

/// Every domain the host knows, loaded from the JSON files of a directory.
public struct Catalog: Sendable {
    /// The domains, by file name order.
    public private(set) var domains: [Domain] = []
    private var intentsByName: [String: IntentDefinition] = [:]
    private var domainByIntent: [String: String] = [:]
    /// The file each domain was read from, to name in errors.
    private var fileByDomain: [String: String] = [:]

    /// An empty catalog.
    public init() {}

    /// Builds a catalog from domains; intent names must be unique across them.
    public init(domains: [Domain]) throws {
        for domain in domains { try add(domain) }
    }

    /// Loads every `*.json` file in each directory, in order.
    public init(directories: [URL]) throws {
        for directory in directories {
            let loaded = try Catalog(directory: directory)
            for domain in loaded.domains { try add(domain, from: loaded.fileByDomain[domain.name]) }
        }
    }

    /// Loads every `*.json` file in `directory`.
    public init(directory: URL) throws {
        let names: [URL]
        do {
            names = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        } catch {
            throw CatalogError("cannot read the catalog directory \(directory.path): \(describeFileError(error))")
        }
        let files = names
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        guard !files.isEmpty else { throw CatalogError("no domain files (*.json) in \(directory.path)") }
        for file in files { try add(try Self.domain(at: file), from: file.path) }
    }

    /// Reads the domain file `file`; one that is not JSON, lacks a member or has one domain
    /// files do not have (a typo) is refused, naming the file.
    public static func domain(at file: URL) throws -> Domain {
        let bytes: [UInt8]
        do { bytes = Array(try Data(contentsOf: file)) } catch {
            throw CatalogError("cannot read \(file.path): \(describeFileError(error))")
        }
        return try domain(bytes, from: file.path)
    }

    /// Reads `bytes`, the domain file `path`, as `domain(at:)` does.
    public static func domain(_ bytes: [UInt8], from path: String) throws -> Domain {
        let bytes = JSON.fileText(bytes)
        do {
            // Members first: a required one misspelled is named as the typo it is.
            if let problem = DomainFileMembers.problem(in: try JSONValue.parse(bytes)) { throw CatalogError("\(path): \(problem)") }
            return try JSON.decode(Domain.self, from: bytes)
        } catch let error as ProtocolError {
            throw CatalogError("\(path): \(error.inFile)\(Self.lineAndColumn(of: error, in: bytes))")
        }
    }

    /// Where in `bytes` the byte an error names ("at byte 61") is, as an editor says it:
    /// " (line 3, column 13)"; empty when it names none.
    static func lineAndColumn(of error: ProtocolError, in bytes: [UInt8]) -> String {
        guard let match = "\(error)".firstMatch(of: /at byte (\d+)/), let offset = Int(match.1), offset <= bytes.count else { return "" }
        let before = bytes[..<offset]
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        // Columns count characters, not bytes.
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return " (line \(line), column \(column))"
    }

    /// Adds a domain (read from the file `source`) after checking it.
    public mutating func add(_ domain: Domain, from source: String? = nil) throws {
        // Names from a file, made printable; a problem names the file it is in.
        func named(_ domain: String, _ file: String?) -> String { file.map { "\(PeerNames.loggable(domain)) (\($0))" } ?? PeerNames.loggable(domain) }
        func problem(_ text: String) -> CatalogError { CatalogError(source.map { "\($0): \(text)" } ?? text) }
        for intent in domain.intents {
            let name = PeerNames.loggable(intent.name)
            if let other = domainByIntent[intent.name] {
                throw CatalogError("intent \(name) is defined by both \(named(other, fileByDomain[other])) and \(named(domain.name, source))")
            }
            let names = intent.parameters.map(\.name)
            if Set(names).count != names.count {
                throw problem("\(name) names a parameter twice")
            }
            for parameter in intent.parameters where parameter.type == .enum && (parameter.values ?? []).isEmpty {
                throw problem("\(name).\(PeerNames.loggable(parameter.name)) is an enum without values")
            }
            for parameter in intent.parameters where parameter.past != nil && parameter.type != .dateTime {
                throw problem("\(name).\(PeerNames.loggable(parameter.name)) has past but is no dateTime")
            }
            for parameter in intent.parameters where parameter.range != nil && parameter.type != .dateTime {
                throw problem("\(name).\(PeerNames.loggable(parameter.name)) has range but is no dateTime")
            }
            for parameter in intent.parameters {
                for source in parameter.carriedFrom ?? [] {
                    let place = "\(name).\(PeerNames.loggable(parameter.name))"
                    // A value carried over is said back before anything is done with it.
                    guard intent.requiresUserConfirmation == true else {
                        throw problem("\(place) is carried from another intent, but \(name) does not require the user's confirmation")
                    }
                    // Another intent of the same domain must have that parameter, of the same type.
                    guard let from = IntentParameterName(source), from.intent != intent.name,
                        let other = domain.intents.first(where: { $0.name == from.intent }),
                        let carried = other.parameter(from.parameter), carried.type == parameter.type, carried.isList == parameter.isList
                    else {
                        throw problem("\(place) is carried from \"\(PeerNames.loggable(source))\", which is no parameter of its type of another intent of its domain")
                    }
                }
            }
            if intent.responseCodes.contains(where: { $0.kind == nil }) {
                throw problem("every response code of \(name) needs a kind")
            }
            // Confirm must answer one to go on to handle: without it no request could be done.
            guard intent.responseCodes.contains(where: { $0.kind == .ready }) else {
                throw problem(
                    "\(name) has no response code of kind ready, which confirm answers before handle: add one, such as {\"name\": \"ready\", \"value\": 1, \"kind\": \"ready\"}")
            }
            intentsByName[intent.name] = intent
            domainByIntent[intent.name] = domain.name
        }
        domains.append(domain)
        fileByDomain[domain.name] = source
    }

    /// Every intent's name, domain by domain.
    public var intentNames: [String] { domains.flatMap { $0.intents.map(\.name) } }

    /// The intent named `name` (`SendMessage`, or SiriKit's `INSendMessageIntent`).
    public func intent(_ name: String) -> IntentDefinition? {
        intentsByName[Catalog.canonicalIntentName(name)]
    }

    /// The domain that defines the intent named `name`.
    public func domain(ofIntent name: String) -> String? {
        domainByIntent[Catalog.canonicalIntentName(name)]
    }

    /// Turns SiriKit's class names (`INSendMessageIntent`) into catalog names (`SendMessage`).
    public static func canonicalIntentName(_ name: String) -> String {
        guard name.hasPrefix("IN"), name.hasSuffix("Intent"), name.count > 8 else { return name }
        return String(name.dropFirst(2).dropLast(6))
    }

    /// Finds the catalog directory: an explicit path, then `INTENTD_CATALOG_DIR`, then
    /// `Protocols/domains` above the running executable, then the installed location.
    public static func locate(explicit: String? = nil, executable: URL? = nil) -> URL? {
        let fm = FileManager.default
        if let explicit { return URL(fileURLWithPath: explicit) }
        if let env = ProcessInfo.processInfo.environment["INTENTD_CATALOG_DIR"] { return URL(fileURLWithPath: env) }
        // The running executable itself, not argv[0]: found through PATH or a symlink
        // (~/.local/bin/intentd), argv[0] says nothing about where the build is.
        var dir = (executable ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
            .deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("Protocols/domains")
            if fm.fileExists(atPath: candidate.path) { return candidate }
            dir.deleteLastPathComponent()
        }
        for installed in ["/usr/local/share/intentd/domains", "/usr/share/intentd/domains"]
        where fm.fileExists(atPath: installed) {
            return URL(fileURLWithPath: installed)
        }
        return nil
    }
}

/// A catalog file that cannot be used.
public struct CatalogError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
