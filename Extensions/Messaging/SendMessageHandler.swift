import Foundation
import IntentExtensionKit

/// SendMessage: recipients must each match one contact, and the message needs content.
struct SendMessageHandler: IntentHandler {
    let store: MessageStore

    var resolvers: [String: Resolver] {
        ["recipients": .list(resolveRecipients), "content": .single(resolveContent)]
    }

    /// One match: success. Several: the user picks. None: unsupported.
    func resolveRecipients(_ intent: Intent) async throws -> [ResolutionResult] {
        let recipients = intent.persons("recipients")
        if recipients.isEmpty { return [.needsValue] }
        var results: [ResolutionResult] = []
        for recipient in recipients {
            let matches = try await store.contacts(matching: recipient)
            switch matches.count {
            case 0: results.append(.unsupported)
            case 1: results.append(.success(matches[0].person))
            default: results.append(.disambiguation(matches.map(\.person)))
            }
        }
        return results
    }

    func resolveContent(_ intent: Intent) async throws -> ResolutionResult {
        guard let text = intent.string("content")?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return .needsValue
        }
        return .success(text)
    }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        let recipients = intent.persons("recipients")
        guard !recipients.isEmpty, let content = intent.string("content") else {
            return IntentResponse(code: "failure")
        }
        let message = try await store.send(content, to: recipients, group: intent.string("groupName"))
        return IntentResponse(
            code: "success", response: ["message": try JSONValue(encoding: message)],
            userActivity: ["activityType": "SendMessage", "identifier": .string(message.identifier)])
    }
}
