import Foundation
import IntentProtocol
import Understanding

/// What `intentctl new` makes, whatever the language, and what the Swift and Python
/// scaffolds share: the manifest, the parameter notes, the domain file, the README's host
/// and send commands, and example parameter values.
struct Scaffold {
    /// The extension's name, such as `Notely`.
    let name: String
    let bundleIdentifier: String
    let domain: Domain
    let intents: [IntentDefinition]
    /// Whether the intents are the catalog's own: typed in the Swift SDK, named IN…Intent
    /// in the manifest.
    let builtIn: Bool
    /// This repository, which the extension depends on.
    let sdk: URL
    /// The domain file to copy beside the extension, for a domain the host does not ship.
    let domainFile: URL?
    /// English phrases, an example and an answer for each intent of a domain of one's own
    /// that the host's language file cannot read: it has no patterns for it, or its patterns
    /// for that name read parameters the intent does not have (a domain reusing SiriKit's
    /// StartWorkout with an `activity`). A language addition to edit, which the host loads
    /// with `--phrases Phrases`.
    let phrasesFile: (path: String, contents: String)?

    init(name: String, bundleIdentifier: String, domain: Domain, intents: [IntentDefinition], builtIn: Bool, sdk: URL, domainFile: URL?) throws {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        self.domain = domain
        self.intents = intents
        self.builtIn = builtIn
        self.sdk = sdk
        self.domainFile = domainFile
        phrasesFile = domainFile == nil ? nil : try Self.phrases(for: intents, of: domain, sdk: sdk)
    }

    /// A copy of the domain file, for a domain the host does not ship.
    var domainFileCopy: (path: String, contents: String)? {
        guard let domainFile, let text = try? String(contentsOf: domainFile, encoding: .utf8) else { return nil }
        return ("Domain/\(domainFile.lastPathComponent)", text)
    }

    /// The language addition of `phrasesFile`, or nil when the language file reads every one
    /// of `intents` already. A language file that cannot be read is an error: every intent
    /// would look new.
    private static func phrases(for intents: [IntentDefinition], of domain: Domain, sdk: URL) throws -> (path: String, contents: String)? {
        // As the host reads them: an intent without patterns, or whose patterns read none of
        // its parameters (the host warns of those at start).
        let file = sdk.appendingPathComponent("Protocols/languages/en.json")
        let pack: LanguagePack
        do { pack = try LanguagePack(contentsOf: file) } catch { throw CommandFailure("cannot read the language file \(file.path): \(error)") }
        let unread = (try? Catalog(domains: [domain])).map { pack.unreadParameters(in: $0) } ?? [:]
        let new = intents.filter { !pack.reads($0.name) || unread[$0.name] != nil }
        guard !new.isEmpty else { return nil }
        func words(_ name: String) -> String {
            name.reduce(into: "") { text, c in text += c.isUppercase && !text.isEmpty ? " \(c)" : String(c) }.lowercased()
        }
        /// `name` as the start of a sentence: "Stop exercise".
        func sentence(_ name: String) -> String { "\(words(name).prefix(1).uppercased())\(words(name).dropFirst())" }
        let addition: [String: Any] = [
            "language": "en",
            "description": "Phrases for \(domain.name), added to en.json: a pattern's (a|b) is a choice, [a] may be left out, {name} reads a parameter (see Protocols/languages/en.json)",
            "intents": Dictionary(uniqueKeysWithValues: new.map { intent in
                (intent.name, [words(intent.name)] + intent.parameters.prefix(1).map { "\(words(intent.name)) {\($0.name)}" })
            }),
            // The language file's example of a name it has stays: an addition adds no text.
            "examples": Dictionary(uniqueKeysWithValues: new.filter { pack.example(of: $0.name) == nil }.map {
                ($0.name, "\(sentence($0.name)) in {app}")
            }),
            "results": Dictionary(uniqueKeysWithValues: new.map { ($0.name, ["Done."]) }),
            // What the user is asked before an intent that needs their yes: the first that
            // can be filled ("Stop exercise yoga?"), rather than "Should I go ahead?".
            "summaries": Dictionary(uniqueKeysWithValues: new.filter { $0.requiresUserConfirmation == true }.map { intent in
                let asked = sentence(intent.name)
                return (intent.name, intent.parameters.prefix(1).map { "\(asked) {\($0.name)}?" } + ["\(asked)?"])
            }),
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: addition, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else { return nil }
        return ("Phrases/en.json", String(decoding: data, as: UTF8.self) + "\n")
    }

    /// A README paragraph (ending in a blank line) on what successes must report, for
    /// intents whose domain requires members of a successful handle; empty when none do.
    var reportsNote: String {
        let required = intents.compactMap { intent -> String? in
            let members = intent.handleResponse?["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return members.isEmpty ? nil : "\(intent.name): \(members.joined(separator: ", "))"
        }
        guard !required.isEmpty else { return "" }
        return "Until each handler reports what its domain requires of a success (\(required.joined(separator: "; "))), "
            + "`intentctl conformance` fails its handle check: without it the assistant cannot say what was done, "
            + "nor take it for \"add milk to it\".\n\n"
    }

    /// A comment line, after a line break, naming what a successful handle of `intent`
    /// must report (its `handleResponse`'s required members); nothing when it says none.
    func responseNote(_ intent: IntentDefinition, comment: String, indent: String) -> String {
        let required = intent.handleResponse?["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard !required.isEmpty else { return "" }
        return "\n\(indent)\(comment) A success reports \(required.joined(separator: ", ")) (the domain's handleResponse)."
    }

    /// One comment line per parameter of `intent`, after `comment` (`//` or `#`).
    func parameterNotes(_ intent: IntentDefinition, comment: String) -> String {
        intent.parameters.map { p in
            "    \(comment)   \(p.name): \(p.type.rawValue)\(p.isList ? ", a list" : "")\(p.isRequired ? ", required" : "") (\"\(p.prompt)\")"
        }.joined(separator: "\n")
    }

    /// The README's command that starts a host knowing the domain.
    var hostCommand: String {
        "intentd " + (domainFile == nil ? "" : "--catalog \(sdk.path)/Protocols/domains --catalog Domain ")
            + (phrasesFile == nil ? "" : "--phrases Phrases ") + "&    # unless it already runs"
    }

    /// The README's command that checks the extension with `intentctl conformance`, whose
    /// test host needs the domain file too when the host does not ship the domain.
    func conformanceCommand(manifest: String, run: String) -> String {
        "intentctl conformance " + (domainFile == nil ? "" : "--catalog Domain ") + "--manifest \(manifest) -- \(run)"
    }

    /// The README's command that sends the first intent with its required parameters.
    var sendCommand: String {
        let first = intents.first
        let arguments = first?.parameters.filter(\.isRequired).map { "\($0.name)=example" }.joined(separator: " ") ?? ""
        return "intentctl send \(name) \(first?.name ?? "INTENT") \(arguments)"
    }

    /// The Info.plist of the extension.
    var plist: String {
        let supported = intents.map { "                <string>\(builtIn ? "IN\($0.name)Intent" : $0.name)</string>" }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
                <key>CFBundleIdentifier</key>
                <string>\(bundleIdentifier)</string>
                <key>CFBundleDisplayName</key>
                <string>\(name)</string>
                <key>NSSiriUsageDescription</key>
                <string>\(name) carries out your \(domain.name) requests.</string>
                <key>NSExtension</key>
                <dict>
                    <key>NSExtensionAttributes</key>
                    <dict>
                        <key>IntentsSupported</key>
                        <array>
            \(supported)
                        </array>
                        <key>IntentsRestrictedWhileLocked</key>
                        <array>
                        </array>
                    </dict>
                </dict>
            </dict>
            </plist>

            """
    }

}

extension Scaffold {
    /// A value of the parameter's type, for a generated test.
    static func example(for parameter: ParameterDefinition) -> JSONValue {
        let one: JSONValue = switch parameter.type {
        case .integer, .number: 1
        case .boolean: true
        case .enum: .string(parameter.values?.first ?? "value")
        case .person: ["displayName": "Coco"]
        case .location: ["name": "Home"]
        case .dateTime: "2026-11-24T09:00:00Z"
        case .string: "example"
        }
        return parameter.isList ? [one] : one
    }

    /// `value` as a literal of Swift (`true`, `[:]` dictionaries) or Python (`True`, `{}`).
    static func literal(_ value: JSONValue, python: Bool) -> String {
        switch value {
        case .null: python ? "None" : "nil"
        case .bool(let b): python ? (b ? "True" : "False") : (b ? "true" : "false")
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .string(let s): "\"\(s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
        case .array(let items): "[" + items.map { literal($0, python: python) }.joined(separator: ", ") + "]"
        case .object(let members):
            (python ? "{" : "[") + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \(literal($0.value, python: python))" }
                .joined(separator: ", ") + (python ? "}" : "]")
        }
    }
}
