import ExtensionStorage
import Foundation
import IntentExtensionKit

/// MonkeyChat's Intents extension: send, search and mark messages to the friends in
/// MonkeyChat's own address book.
@main
struct MonkeyChatExtension: IntentExtension {
    static var manifestURL: URL? { Bundle.module.url(forResource: "Info", withExtension: "plist", subdirectory: "Manifest") }

    let store: MessageStore

    init(context: ExtensionContext) async throws {
        store = try MessageStore(directory: context.sandboxDirectory)
        // As the seed's MonkeyChat does: the assistant learns the contacts' screen names.
        context.vocabulary.set(store.contactNames(), for: "contactName")
    }

    /// Handles done, by idempotency key, in the app's own database.
    var journal: (any HandleJournal)? { store.journal }

    func stop() async { store.close() }

    func handler(for intent: Intent) -> (any IntentHandler)? {
        switch intent.name {
        case "SendMessage": SendMessageHandler(store: store)
        case "SearchForMessages": SearchForMessagesHandler(store: store)
        case "SetMessageAttribute": SetMessageAttributeHandler(store: store)
        default: nil
        }
    }
}
