import IntentProtocol

/// What the Swift and Python scaffolds share: the manifest, and example parameter values.
enum ScaffoldManifest {
    /// The Info.plist of an extension named `name` supporting `intents`.
    static func plist(name: String, bundleIdentifier: String, domain: Domain, intents: [IntentDefinition], builtIn: Bool) -> String {
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
