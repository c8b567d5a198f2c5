import IntentExtensionKit

/// SetMessageAttribute: marks stored messages read, unread, flagged, unflagged or played.
struct SetMessageAttributeHandler: IntentHandler {
    let store: MessageStore

    func confirm(_ intent: Intent) async throws -> IntentResponse {
        let identifiers = intent.strings("identifiers")
        let missing = try await store.missing(identifiers)
        return missing.isEmpty
            ? IntentResponse(code: "ready")
            : IntentResponse(code: "failureMessageNotFound", response: ["missing": .array(missing.map { .string($0) })])
    }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        guard let attribute = intent.string("attribute") else { return IntentResponse(code: "failure") }
        let changed = try await store.set(attribute, on: intent.strings("identifiers"))
        return changed
            ? IntentResponse(code: "success")
            : IntentResponse(code: "failureMessageAttributeNotSet")
    }
}
