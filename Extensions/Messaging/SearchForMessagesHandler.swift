import IntentExtensionKit

/// SearchForMessages: finds stored messages by recipient, sender, words, attributes,
/// identifiers, group and the day they were sent (`dateTime`'s, in the zone it was said in).
struct SearchForMessagesHandler: SearchForMessagesIntentHandling {
    let store: MessageStore

    func handle(intent: SearchForMessagesIntent) async throws -> SearchForMessagesResponse {
        let day = intent.dateTime.flatMap(IntentMoment.init)
        if intent.dateTime != nil, day == nil { return SearchForMessagesResponse(.failure) }
        let query = MessageStore.Query(
            recipients: intent.recipients.map(\.displayName), senders: intent.senders.map(\.displayName),
            terms: intent.searchTerms, attributes: intent.attributes.map(\.rawValue),
            identifiers: intent.identifiers, groups: intent.groupNames, day: day)
        let found = try await store.search(query)
        if found.count > MessageStore.searchLimit {
            return SearchForMessagesResponse(.failureMessageTooManyResults, ["count": .number(Double(found.count))])
        }
        return SearchForMessagesResponse(.success, ["messages": try JSONValue(encoding: found)])
    }
}
