import IntentExtensionKit

/// SearchForMessages: finds stored messages by recipient, sender, words, attributes,
/// identifiers and group.
struct SearchForMessagesHandler: IntentHandler {
    let store: MessageStore

    func handle(_ intent: Intent) async throws -> IntentResponse {
        let query = MessageStore.Query(
            recipients: intent.persons("recipients").map(\.displayName),
            senders: intent.persons("senders").map(\.displayName),
            terms: intent.strings("searchTerms"),
            attributes: intent.strings("attributes"),
            identifiers: intent.strings("identifiers"),
            groups: intent.strings("groupNames"))
        let found = try await store.search(query)
        if found.count > MessageStore.searchLimit {
            return IntentResponse(code: "failureMessageTooManyResults", response: ["count": .number(Double(found.count))])
        }
        return IntentResponse(code: "success", response: ["messages": try JSONValue(encoding: found)])
    }
}
