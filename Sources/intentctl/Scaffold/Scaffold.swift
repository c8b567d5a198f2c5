import Foundation
import IntentProtocol

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

    /// A copy of the domain file, for a domain the host does not ship.
    var domainFileCopy: (path: String, contents: String)? {
        guard let domainFile, let text = try? String(contentsOf: domainFile, encoding: .utf8) else { return nil }
        return ("Domain/\(domainFile.lastPathComponent)", text)
    }

    /// One comment line per parameter of `intent`, after `comment` (`//` or `#`).
    func parameterNotes(_ intent: IntentDefinition, comment: String) -> String {
        intent.parameters.map { p in
            "    \(comment)   \(p.name): \(p.type.rawValue)\(p.isList ? ", a list" : "")\(p.isRequired ? ", required" : "") (\"\(p.prompt)\")"
        }.joined(separator: "\n")
    }

    /// The README's command that starts a host knowing the domain.
    var hostCommand: String {
        "intentd " + (domainFile == nil ? "" : "--catalog \(sdk.path)/Protocols/domains --catalog Domain ") + "&    # unless it already runs"
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
