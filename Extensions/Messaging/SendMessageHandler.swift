import Foundation
import IntentExtensionKit

/// SendMessage: recipients must each match one contact, and the message needs content.
struct SendMessageHandler: SendMessageIntentHandling {
    let store: MessageStore

    /// One match: success. Several: the user picks. None: unsupported, because no such
    /// person has a MonkeyChat account.
    func resolveRecipients(for intent: SendMessageIntent) async throws -> [ResolutionResult] {
        if intent.recipients.isEmpty { return [.needsValue] }
        var results: [ResolutionResult] = []
        for recipient in intent.recipients {
            let matches = try await store.contacts(matching: recipient)
            switch matches.count {
            case 0: results.append(.unsupported(reason: "noAccount"))
            case 1: results.append(.success(matches[0].person))
            default: results.append(.disambiguation(matches.map(\.person)))
            }
        }
        return results
    }

    /// The message needs words.
    func resolveContent(for intent: SendMessageIntent) async throws -> ResolutionResult {
        guard let text = intent.content?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return .needsValue
        }
        return .success(text)
    }

    func handle(intent: SendMessageIntent) async throws -> SendMessageResponse {
        guard !intent.recipients.isEmpty, let content = intent.content else { return SendMessageResponse(.failure) }
        let message = try await store.send(content, to: intent.recipients, group: intent.groupName)
        return SendMessageResponse(
            .success, ["message": try JSONValue(encoding: message)],
            userActivity: ["activityType": "SendMessage", "identifier": .string(message.identifier)])
    }
}
