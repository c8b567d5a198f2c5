import IntentExtensionKit

/// SetMessageAttribute: marks stored messages read, unread, flagged, unflagged or played.
struct SetMessageAttributeHandler: SetMessageAttributeIntentHandling {
    let store: MessageStore

    /// "Mark my messages as read" names no message: it means every one not read yet (as
    /// SiriKit's assistant fills them in from what it showed). Not needed, then: the
    /// handle marks every message without the attribute.
    func resolveIdentifiers(for intent: SetMessageAttributeIntent) async throws -> [ResolutionResult] {
        intent.identifiers.isEmpty ? [.notRequired] : intent.intent.defaultResolution(of: "identifiers", required: true)
    }

    func confirm(intent: SetMessageAttributeIntent) async throws -> SetMessageAttributeResponse {
        let missing = try await store.missing(intent.identifiers)
        return missing.isEmpty
            ? SetMessageAttributeResponse(.ready)
            : SetMessageAttributeResponse(.failureMessageNotFound, ["missing": .array(missing.map { .string($0) })])
    }

    func handle(intent: SetMessageAttributeIntent) async throws -> SetMessageAttributeResponse {
        guard let attribute = intent.attribute else { return SetMessageAttributeResponse(.failure) }
        let changed = try await store.set(attribute.rawValue, on: intent.identifiers.isEmpty ? nil : intent.identifiers)
        return SetMessageAttributeResponse(changed ? .success : .failureMessageAttributeNotSet)
    }
}
