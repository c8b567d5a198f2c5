import Foundation
import IntentProtocol

/// The files of a new Swift extension package: its manifest, a handler per intent with
/// TODOs, a unit test with `HandlerTester`, and a README that says how to run it.
extension Scaffold {
    /// File paths relative to the package root, with their contents.
    var swiftFiles: [(path: String, contents: String)] {
        var files = [
            ("Package.swift", swiftPackageManifest),
            ("Sources/\(name)/\(name)Extension.swift", swiftExtensionFile),
            ("Sources/\(name)/Manifest/Info.plist", plist),
            ("Tests/\(name)Tests/\(name)Tests.swift", swiftTestFile),
            ("README.md", swiftReadme),
        ]
        files += intents.map { ("Sources/\(name)/\($0.name)Handler.swift", swiftHandlerFile($0)) }
        if let copy = domainFileCopy { files.append(copy) }
        if let phrases = phrasesFile { files.append(phrases) }
        return files
    }

    /// SwiftPM names a package depended on by path after its folder.
    private var sdkPackage: String { sdk.lastPathComponent.lowercased() }

    private var swiftPackageManifest: String {
        """
        // swift-tools-version:6.1
        import PackageDescription

        let package = Package(
            name: "\(name)",
            platforms: [.macOS(.v15)],
            dependencies: [
                // intentd's SDK. Depend on it by URL instead once it is published.
                .package(path: "\(sdk.path)"),
            ],
            targets: [
                .executableTarget(
                    name: "\(name)",
                    dependencies: [
                        .product(name: "IntentExtensionKit", package: "\(sdkPackage)"),
                        // For your data: SQLite in the sandbox (SandboxDatabase), whose writes
                        // keep the journal that makes a retried handle answer, not act, again.
                        // .product(name: "ExtensionStorage", package: "\(sdkPackage)"),
                    ],
                    resources: [.copy("Manifest")],
                    swiftSettings: [.swiftLanguageMode(.v6)]),
                .testTarget(
                    name: "\(name)Tests",
                    dependencies: ["\(name)", .product(name: "IntentExtensionKitTesting", package: "\(sdkPackage)")],
                    swiftSettings: [.swiftLanguageMode(.v6)]),
            ]
        )

        """
    }

    private var swiftExtensionFile: String {
        let cases = intents.map { "        case \"\($0.name)\": \($0.name)Handler()" }.joined(separator: "\n")
        return """
            import Foundation
            import IntentExtensionKit

            /// \(name)'s Intents extension (\(domain.name)).
            @main
            struct \(name)Extension: IntentExtension {
                static var manifestURL: URL? { Bundle.module.url(forResource: "Info", withExtension: "plist", subdirectory: "Manifest") }

                init(context: ExtensionContext) async throws {
                    // TODO: open your data in context.sandboxDirectory: SandboxDatabase.open
                    // (import ExtensionStorage, and uncomment it in Package.swift) gives SQLite
                    // with the checks the host expects.
                }

                func handler(for intent: Intent) -> (any IntentHandler)? {
                    switch intent.name {
            \(cases)
                    default: nil
                    }
                }

                func stop() async {
                    // TODO: close your stores: the host stops extensions with SIGTERM.
                }
            }

            """
    }

    private func swiftHandlerFile(_ intent: IntentDefinition) -> String {
        let parameters = parameterNotes(intent, comment: "//")
        guard builtIn else {
            return """
                import IntentExtensionKit

                /// Handles \(intent.name): \(intent.description)
                struct \(intent.name)Handler: IntentHandler {
                    // Its parameters, from the domain file:
                \(parameters)
                    // Each resolves to the value as given unless you add a resolver here, such as
                    // "\(intent.parameters.first?.name ?? "name")": .single { intent in .success(...) }.
                    var resolvers: [String: Resolver] { [:] }

                    func handle(_ intent: Intent) async throws -> IntentResponse {
                        // TODO: do it, then describe the result.\(responseNote(intent, comment: "//", indent: "        "))
                        IntentResponse(code: "success")
                    }
                }

                """
        }
        let first = intent.parameters.first
        let resolveExample = first.map { p in
            let name = p.name.prefix(1).uppercased() + p.name.dropFirst()
            return "    // func resolve\(name)(for intent: \(intent.name)Intent) async throws -> \(p.isList ? "[ResolutionResult]" : "ResolutionResult") { ... }"
        } ?? ""
        return """
            import IntentExtensionKit

            /// Handles \(intent.name): \(intent.description)
            struct \(intent.name)Handler: \(intent.name)IntentHandling {
                // Its parameters, from the catalog:
            \(parameters)
                // Each resolves to the value as given (needsValue when a required one is missing)
                // until you write its resolve method, such as:
            \(resolveExample)
                // Confirm answers ready until you write confirm(intent:).

                func handle(intent: \(intent.name)Intent) async throws -> \(intent.name)Response {
                    // TODO: do it, then describe the result.\(responseNote(intent, comment: "//", indent: "        "))
                    \(intent.name)Response(.success)
                }
            }

            """
    }

    private var swiftTestFile: String {
        let tests = intents.map { intent in
            let example = intent.parameters.filter(\.isRequired).map { "\"\($0.name)\": \(Self.literal(Self.example(for: $0), python: false))" }
            return """
                    @Test("\(intent.name) is handled")
                    func handles\(intent.name)() async throws {
                        let intent = Intent(name: "\(intent.name)", parameters: [\(example.isEmpty ? ":" : example.joined(separator: ", "))])
                        let response = try await HandlerTester(\(intent.name)Handler()).handle(intent)
                        #expect(response.code == "success")
                    }
                """
        }.joined(separator: "\n\n")
        return """
            import IntentExtensionKit
            import IntentExtensionKitTesting
            import Testing
            @testable import \(name)

            @Suite("\(name)")
            struct \(name)Tests {
            \(tests)
            }

            """
    }

    private var swiftReadme: String {
        """
            # \(name)

            An intentd extension for \(domain.name): \(intents.map(\.name).joined(separator: ", ")).

            ```sh
            swift build && swift test
            \(hostCommand)
            .build/debug/\(name) --print-identity | intentctl extensions trust -
            .build/debug/\(name) &
            \(sendCommand)
            \(conformanceCommand(manifest: "Sources/\(name)/Manifest/Info.plist", run: ".build/debug/\(name)"))
            ```

            \(reportsNote)The handlers are in `Sources/\(name)/`, one per intent, with TODOs; the manifest is
            `Sources/\(name)/Manifest/Info.plist` (usage description, alternative names, intents
            restricted while locked). Keep your data in `context.sandboxDirectory`, in a
            `SandboxDatabase` (`ExtensionStorage`, a product of the SDK package: uncomment it in
            `Package.swift`): every instance of the extension (a second copy started, or several
            the host launches) shares that directory, and its writes record the idempotency
            keys of the handles they do, so that a retried handle is answered, not done again.
            Handlers start on the connection's thread: `await` slow work, never block there (no
            `sleep`, no waiting on a lock), or heartbeats stop and the host takes the extension
            for stopped.

            """
    }
}
