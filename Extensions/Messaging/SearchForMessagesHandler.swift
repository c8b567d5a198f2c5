import IntentExtensionKit

/// SearchForMessages: finds stored messages by recipient, sender, words, attributes,
/// identifiers, group and when they were sent (`dateTime`'s day, in the zone it was said in, or its range).
struct SearchForMessagesHandler: SearchForMessagesIntentHandling {
    let store: MessageStore

    func handle(intent: SearchForMessagesIntent) async throws -> SearchForMessagesResponse {
        let sent = intent.dateTime.flatMap(IntentDateRange.init)
        if intent.dateTime != nil, sent == nil { return SearchForMessagesResponse(.failure) }
        let query = MessageStore.Query(
            recipients: intent.recipients.map(\.displayName), senders: intent.senders.map(\.displayName),
            terms: intent.searchTerms, attributes: intent.attributes.map(\.rawValue),
            identifiers: intent.identifiers, groups: intent.groupNames, sent: sent)
        let found = try await store.search(query)
        if found.count > MessageStore.searchLimit {
            return SearchForMessagesResponse(.failureMessageTooManyResults, ["count": .number(Double(found.count))])
        }
        return SearchForMessagesResponse(.success, ["messages": try JSONValue(encoding: found)])
    }
}
