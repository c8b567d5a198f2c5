import Foundation
import IntentProtocol

/// The files of a new Python extension: a package with a handler per intent with TODOs, its
/// manifest, a unit test, and a README that says how to run it with the Python SDK.
extension Scaffold {
    /// The Python package name: the extension's name in lower case.
    var pythonModule: String { name.lowercased() }

    /// File paths relative to the output folder, with their contents.
    var pythonFiles: [(path: String, contents: String)] {
        var files = [
            ("\(pythonModule)/__init__.py", pythonExtensionFile),
            ("\(pythonModule)/__main__.py", "import intentd\n\nfrom . import \(name)\n\nintentd.run(\(name))\n"),
            ("\(pythonModule)/Manifest/Info.plist", plist),
            ("tests/test_\(pythonModule).py", pythonTestFile),
            ("README.md", pythonReadme),
        ]
        if let copy = domainFileCopy { files.append(copy) }
        if let phrases = phrasesFile { files.append(phrases) }
        return files
    }

    private var pythonExtensionFile: String {
        let cases = intents.map { "        if intent.name == \"\($0.name)\":\n            return \($0.name)()" }.joined(separator: "\n")
        let handlers = intents.map { intent in
            let parameters = parameterNotes(intent, comment: "#")
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
                        # TODO: do it (write through intent.store, the handle's transaction; tell of
                        # it from intent.after_commit(...)), then describe the result.\(responseNote(intent, comment: "#", indent: "        "))
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

    private var pythonTestFile: String {
        let tests = intents.map { intent in
            let example = intent.parameters.filter(\.isRequired).map { "\"\($0.name)\": \(Self.literal(Self.example(for: $0), python: true))" }
            return """
                    def test_\(intent.name.lowercased())_is_handled(self):
                        with Tester(\(pythonModule).\(name)) as tester:
                            response = tester.handle("\(intent.name)", {\(example.joined(separator: ", "))})
                            self.assertEqual(response.code, "success")
                """
        }.joined(separator: "\n\n")
        return """
            import unittest

            from intentd.testing import Tester

            import \(pythonModule)


            # Each Tester runs the extension in a new sandbox, as the host would: a handle writes
            # through intent.store and commits; tester.resolve and tester.confirm check the others.
            class \(name)Tests(unittest.TestCase):
            \(tests)


            if __name__ == "__main__":
                unittest.main()

            """
    }

    private var pythonReadme: String {
        """
            # \(name)

            An intentd extension in Python for \(domain.name): \(intents.map(\.name).joined(separator: ", ")).

            ```sh
            export PYTHONPATH=\(sdk.path)/sdk/python:$PWD     # or: pip install \(sdk.path)/sdk/python
            python3 -m unittest discover -s tests
            \(hostCommand)
            python3 -m \(pythonModule) --print-identity | intentctl extensions trust -
            python3 -m \(pythonModule) &
            \(sendCommand)
            \(conformanceCommand(manifest: "\(pythonModule)/Manifest/Info.plist", run: "python3 -m \(pythonModule)"))
            ```

            \(reportsNote)The handlers are in `\(pythonModule)/__init__.py`, one class per intent, with TODOs; the
            manifest is `\(pythonModule)/Manifest/Info.plist`. Keep your data in the sandbox database:
            in `handle`, write through `intent.store` only (the handle's transaction, which also
            records its idempotency key; it commits when `handle` returns) and push updates from
            `intent.after_commit(...)`; elsewhere read with `context.connect()`.

            """
    }
}
