import Foundation
import IntentProtocol

/// The files of a new Python extension: a package with a handler per intent with TODOs, its
/// manifest, a unit test, and a README that says how to run it with the Python SDK.
struct PythonScaffold {
    let name: String
    let bundleIdentifier: String
    let domain: Domain
    let intents: [IntentDefinition]
    /// Whether the intents are the catalog's own (named IN…Intent in the manifest).
    let builtIn: Bool
    /// This repository, whose `sdk/python` the README points at.
    let sdk: URL
    /// The domain file to copy beside the package, for a domain the host does not ship.
    let domainFile: URL?

    /// The Python package name: the extension's name in lower case.
    var module: String { name.lowercased() }

    /// File paths relative to the output folder, with their contents.
    var files: [(path: String, contents: String)] {
        var files = [
            ("\(module)/__init__.py", extensionFile),
            ("\(module)/__main__.py", "import intentd\n\nfrom . import \(name)\n\nintentd.run(\(name))\n"),
            ("\(module)/Manifest/Info.plist", ScaffoldManifest.plist(name: name, bundleIdentifier: bundleIdentifier, domain: domain, intents: intents, builtIn: builtIn)),
            ("tests/test_\(module).py", testFile),
            ("README.md", readme),
        ]
        if let domainFile, let text = try? String(contentsOf: domainFile, encoding: .utf8) {
            files.append(("Domain/\(domainFile.lastPathComponent)", text))
        }
        return files
    }

    private var extensionFile: String {
        let cases = intents.map { "        if intent.name == \"\($0.name)\":\n            return \($0.name)()" }.joined(separator: "\n")
        let handlers = intents.map { intent in
            let parameters = intent.parameters.map { p in
                "    #   \(p.name): \(p.type.rawValue)\(p.isList ? ", a list" : "")\(p.isRequired ? ", required" : "") (\"\(p.prompt)\")"
            }.joined(separator: "\n")
            return """
                class \(intent.name)(intentd.Handler):
                    \"\"\"\(intent.description)\"\"\"

                    # Its parameters:
                \(parameters)
                    # Each resolves to the value as given (needsValue when a required one is missing)
                    # unless you add a resolver, such as
                    #   self.resolvers = {"\(intent.parameters.first?.name ?? "name")": lambda intent: Resolution.success(...)}
                    # Confirm answers ready until you define confirm(self, intent).

                    def handle(self, intent):
                        # TODO: do it (write through intent.store, the handle's transaction), then
                        # describe the result.
                        return IntentResponse("success")
                """
        }.joined(separator: "\n\n")
        return """
            \"\"\"\(name): an intentd extension for \(domain.name).\"\"\"

            import pathlib

            import intentd
            from intentd import IntentResponse, Resolution  # noqa: F401 (Resolution: for your resolvers)


            class \(name)(intentd.Extension):
                manifest = pathlib.Path(__file__).parent / "Manifest" / "Info.plist"

                def __init__(self, context):
                    super().__init__(context)
                    # TODO: create your tables: with context.connect() as db: db.execute(...)

                def handler(self, intent):
            \(cases)
                    return None


            \(handlers)

            """
    }

    private var testFile: String {
        let tests = intents.map { intent in
            let example = intent.parameters.filter(\.isRequired).map { "\"\($0.name)\": \(ScaffoldManifest.literal(ScaffoldManifest.example(for: $0), python: true))" }
            return """
                    def test_\(intent.name.lowercased())_is_handled(self):
                        intent = Intent("\(intent.name)", "handle", {"parameters": {\(example.joined(separator: ", "))}})
                        self.assertEqual(\(module).\(intent.name)().handle(intent).code, "success")
                """
        }.joined(separator: "\n\n")
        return """
            import unittest

            from intentd import Intent

            import \(module)


            class \(name)Tests(unittest.TestCase):
            \(tests)


            if __name__ == "__main__":
                unittest.main()

            """
    }

    private var readme: String {
        let catalog = domainFile == nil ? "" : "--catalog \(sdk.path)/Protocols/domains --catalog Domain "
        let first = intents.first
        let arguments = first?.parameters.filter(\.isRequired).map { "\($0.name)=example" }.joined(separator: " ") ?? ""
        return """
            # \(name)

            An intentd extension in Python for \(domain.name): \(intents.map(\.name).joined(separator: ", ")).

            ```sh
            export PYTHONPATH=\(sdk.path)/sdk/python:$PWD     # or: pip install \(sdk.path)/sdk/python
            python3 -m unittest discover -s tests
            intentd \(catalog)&    # unless it already runs
            python3 -m \(module) --print-identity | intentctl extensions trust -
            python3 -m \(module) &
            intentctl send \(name) \(first?.name ?? "INTENT") \(arguments)
            intentctl conformance --manifest \(module)/Manifest/Info.plist -- python3 -m \(module)
            ```

            The handlers are in `\(module)/__init__.py`, one class per intent, with TODOs; the
            manifest is `\(module)/Manifest/Info.plist`. Keep your data in the sandbox database
            (`context.connect()`).

            """
    }
}
