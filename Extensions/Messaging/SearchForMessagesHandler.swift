import IntentExtensionKit

/// SearchForMessages: finds stored messages by recipient, sender, words, attributes,
/// identifiers and group.
struct SearchForMessagesHandler: SearchForMessagesIntentHandling {
    let store: MessageStore

    func handle(intent: SearchForMessagesIntent) async throws -> SearchForMessagesResponse {
        let query = MessageStore.Query(
            recipients: intent.recipients.map(\.displayName), senders: intent.senders.map(\.displayName),
            terms: intent.searchTerms, attributes: intent.attributes.map(\.rawValue),
            identifiers: intent.identifiers, groups: intent.groupNames)
        let found = try await store.search(query)
        if found.count > MessageStore.searchLimit {
            return SearchForMessagesResponse(.failureMessageTooManyResults, ["count": .number(Double(found.count))])
        }
        return SearchForMessagesResponse(.success, ["messages": try JSONValue(encoding: found)])
    }
}
