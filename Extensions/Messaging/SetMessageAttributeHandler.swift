import IntentExtensionKit

/// SetMessageAttribute: marks stored messages read, unread, flagged, unflagged or played.
struct SetMessageAttributeHandler: SetMessageAttributeIntentHandling {
    let store: MessageStore

    func confirm(intent: SetMessageAttributeIntent) async throws -> SetMessageAttributeResponse {
        let missing = try await store.missing(intent.identifiers)
        return missing.isEmpty
            ? SetMessageAttributeResponse(.ready)
            : SetMessageAttributeResponse(.failureMessageNotFound, ["missing": .array(missing.map { .string($0) })])
    }

    func handle(intent: SetMessageAttributeIntent) async throws -> SetMessageAttributeResponse {
        guard let attribute = intent.attribute else { return SetMessageAttributeResponse(.failure) }
        let changed = try await store.set(attribute.rawValue, on: intent.identifiers)
        return SetMessageAttributeResponse(changed ? .success : .failureMessageAttributeNotSet)
    }
}
