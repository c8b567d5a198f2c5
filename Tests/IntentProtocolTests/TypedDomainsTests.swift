import Foundation
import Testing
@testable import IntentProtocol

/// The typed Swift API for the built-in domains (`Sources/IntentExtensionKit/Domains`) is
/// generated from `Protocols/domains`. This test fails when the two disagree; run it with
/// `INTENTD_REGENERATE=1` to write the Swift files anew.
@Suite("Typed domains")
struct TypedDomainsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let output = root.appendingPathComponent("Sources/IntentExtensionKit/Domains")

    @Test("The typed intents, responses and handler protocols match the domain catalog")
    func generatedCodeIsCurrent() throws {
        let catalog = try Catalog(directory: Self.root.appendingPathComponent("Protocols/domains"))
        let regenerate = ProcessInfo.processInfo.environment["INTENTD_REGENERATE"] == "1"
        if regenerate { try FileManager.default.createDirectory(at: Self.output, withIntermediateDirectories: true) }
        for domain in catalog.domains {
            let file = Self.output.appendingPathComponent("\(domain.name).swift")
            let code = TypedDomainGenerator.source(for: domain)
            if regenerate { try code.write(to: file, atomically: true, encoding: .utf8) }
            let committed = try? String(contentsOf: file, encoding: .utf8)
            #expect(committed == code, "\(file.lastPathComponent) is stale: run INTENTD_REGENERATE=1 swift test --filter TypedDomains")
        }
    }
}

/// Writes the Swift source of one domain's typed API.
enum TypedDomainGenerator {
    static func source(for domain: Domain) -> String {
        var out = """
            // Generated from Protocols/domains by TypedDomainsTests: do not edit by hand.
            // \(domain.description)

            """
        for intent in domain.intents { out += "\n" + source(for: intent) }
        return out
    }

    static func upper(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }

    static func swiftType(_ p: ParameterDefinition, in intent: IntentDefinition) -> (type: String, getter: String) {
        let name = "\"\(p.name)\""
        switch (p.type, p.isList) {
        case (.string, false), (.dateTime, false): return ("String?", "intent.string(\(name))")
        case (.string, true), (.dateTime, true): return ("[String]", "intent.strings(\(name))")
        case (.person, false): return ("Person?", "intent.persons(\(name)).first")
        case (.person, true): return ("[Person]", "intent.persons(\(name))")
        case (.integer, false): return ("Int?", "intent.integer(\(name))")
        case (.integer, true): return ("[Int]", "intent.strings(\(name)).compactMap { Int($0) }")
        case (.number, _): return ("Double?", "intent.number(\(name))")
        case (.boolean, _): return ("Bool?", "intent.bool(\(name))")
        case (.location, false): return ("Place?", "intent.place(\(name))")
        case (.location, true): return ("[Place]", "intent.places(\(name))")
        case (.enum, false): return ("\(upper(p.name))?", "intent.string(\(name)).flatMap(\(upper(p.name)).init(rawValue:))")
        case (.enum, true): return ("[\(upper(p.name))]", "intent.values(\(name))")
        }
    }

    static func source(for intent: IntentDefinition) -> String {
        let n = intent.name
        var s = "// MARK: - \(n)\n\n/// \(intent.description)\npublic struct \(n)Intent: TypedIntent {\n"
        s += "    /// The catalog name.\n    public static let name = \"\(n)\"\n"
        s += "    /// The intent as received, for anything not typed here.\n    public let intent: Intent\n\n"
        s += "    /// Wraps a received intent.\n    public init(_ intent: Intent) { self.intent = intent }\n"
        for p in intent.parameters {
            let (type, getter) = swiftType(p, in: intent)
            s += "\n    /// \(p.prompt)\n    public var \(p.name): \(type) { \(getter) }\n"
        }
        for p in intent.parameters where p.type == .enum {
            s += "\n    /// The values of `\(p.name)`.\n    public enum \(upper(p.name)): String, Sendable, CaseIterable {\n"
            s += "        /// The catalog's values.\n"
            s += "        case " + (p.values ?? []).joined(separator: ", ") + "\n    }\n"
        }
        s += "}\n\n/// \(n)'s response codes, with SiriKit's numbers.\npublic enum \(n)ResponseCode: String, Sendable, CaseIterable {\n"
        s += "    /// The codes, by SiriKit's names.\n"
        s += "    case " + intent.responseCodes.map(\.name).joined(separator: ", ") + "\n\n"
        s += "    /// SiriKit's number for the code.\n    public var value: Int {\n        switch self {\n"
        for code in intent.responseCodes { s += "        case .\(code.name): \(code.value)\n" }
        s += "        }\n    }\n}\n\n/// A typed response to \(n).\npublic typealias \(n)Response = TypedResponse<\(n)ResponseCode>\n\n"
        s += "/// Handles \(n) with typed intents: one resolve method per parameter (each defaults to\n"
        s += "/// the value as given), then confirm (defaults to ready), then handle.\n"
        s += "public protocol \(n)IntentHandling: IntentHandler {\n"
        for p in intent.parameters {
            s += "    /// Resolves `\(p.name)`\(p.isList ? ", one result per value" : "").\n"
            s += "    func resolve\(upper(p.name))(for intent: \(n)Intent) async throws -> \(p.isList ? "[ResolutionResult]" : "ResolutionResult")\n"
        }
        s += "    /// Says whether the intent can be done and what will happen.\n"
        s += "    func confirm(intent: \(n)Intent) async throws -> \(n)Response\n"
        s += "    /// Does it, and describes the result.\n"
        s += "    func handle(intent: \(n)Intent) async throws -> \(n)Response\n}\n\n"
        s += "extension \(n)IntentHandling {\n"
        for p in intent.parameters {
            let call = p.isList ? "defaultResolution" : "defaultResult"
            s += "    /// By default, `\(p.name)` as given\(p.isRequired ? "; needsValue when missing" : "").\n"
            s += "    public func resolve\(upper(p.name))(for intent: \(n)Intent) async throws -> \(p.isList ? "[ResolutionResult]" : "ResolutionResult") {\n"
            s += "        intent.intent.\(call)(of: \"\(p.name)\", required: \(p.isRequired))\n    }\n\n"
        }
        s += "    /// By default, ready.\n"
        s += "    public func confirm(intent: \(n)Intent) async throws -> \(n)Response { \(n)Response(.ready) }\n\n"
        s += "    /// The resolve methods, by parameter name.\n"
        s += "    public var resolvers: [String: Resolver] {\n        [\n"
        for p in intent.parameters {
            s += "            \"\(p.name)\": .\(p.isList ? "list" : "single") { try await resolve\(upper(p.name))(for: \(n)Intent($0)) },\n"
        }
        if intent.parameters.isEmpty { s += "            :\n" }
        s += "        ]\n    }\n\n"
        s += "    /// Confirms through the typed method.\n"
        s += "    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: \(n)Intent(intent)).response }\n\n"
        s += "    /// Handles through the typed method.\n"
        s += "    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: \(n)Intent(intent)).response }\n}\n"
        return s
    }
}
