import Foundation
import IntentExtensionKit

/// An extension that answers every stage at once with no work of its own, so a load test
/// measures the host's routing and the SDK, not an app.
@main
struct BenchExtension: IntentExtension {
    static var manifestURL: URL? { Bundle.module.url(forResource: "Info", withExtension: "plist", subdirectory: "Manifest") }

    init(context: ExtensionContext) async throws {}

    func handler(for intent: Intent) -> (any IntentHandler)? { Immediate() }

    /// Resolves every given value as is, confirms ready, handles with success.
    struct Immediate: IntentHandler {
        func handle(_ intent: Intent) async throws -> IntentResponse { IntentResponse(code: "success") }
    }
}
