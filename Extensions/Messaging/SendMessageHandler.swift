import Foundation
import IntentExtensionKit

/// SendMessage: recipients must each match one contact, or the message goes to a group
/// MonkeyChat has ("text the Tree Crew group …"), and it needs content.
struct SendMessageHandler: SendMessageIntentHandling {
    let store: MessageStore

    /// One match: success (notRequired, which drops it, when an earlier recipient is the
    /// same contact). Several: the user picks. None: unsupported, because no such person
    /// has a MonkeyChat account. No one, with a group named: not needed, the group's
    /// members get it (the group is resolved next).
    func resolveRecipients(for intent: SendMessageIntent) async throws -> [ResolutionResult] {
        if intent.recipients.isEmpty { return [intent.groupName == nil ? .needsValue : .notRequired] }
        var results: [ResolutionResult] = []
        var found = Set<String>()
        for recipient in intent.recipients {
            let matches = store.contacts(matching: recipient)
            switch matches.count {
            case 0: results.append(.unsupported(reason: "noAccount"))
            // Someone named twice ("Coco and Zorro", then "Coco" for Zorro) gets it once.
            case 1 where !found.insert(matches[0].identifier).inserted: results.append(.notRequired)
            case 1: results.append(.success(matches[0].person))
            default: results.append(.disambiguation(matches.map(\.person)))
            }
        }
        return results
    }

    /// A group MonkeyChat has, as it spells it; another is unsupported.
    func resolveGroupName(for intent: SendMessageIntent) async throws -> ResolutionResult {
        guard let name = intent.groupName else { return .notRequired }
        guard let group = try await store.group(named: name) else { return .unsupported(reason: "noSuchGroup") }
        return .success(group.name)
    }

    /// The message needs words.
    func resolveContent(for intent: SendMessageIntent) async throws -> ResolutionResult {
        guard let text = intent.content?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return .needsValue
        }
        return .success(text)
    }

    func handle(intent: SendMessageIntent) async throws -> SendMessageResponse {
        guard let content = intent.content else { return SendMessageResponse(.failure) }
        var recipients = intent.recipients
        if recipients.isEmpty, let name = intent.groupName { recipients = try await store.group(named: name)?.members ?? [] }
        guard !recipients.isEmpty else { return SendMessageResponse(.failure) }
        let message = try await store.send(content, to: recipients, group: intent.groupName)
        return SendMessageResponse(
            .success, ["message": try JSONValue(encoding: message)],
            userActivity: ["activityType": "SendMessage", "identifier": .string(message.identifier)])
    }
}
