import ExtensionStorage
import Foundation
import GRDB
import IntentExtensionKit

/// MonkeyChat's data: its address book and its messages, in one SQLite database in the
/// extension's sandbox, so both survive restarts, crashes and power cuts (a write returns
/// once its commit is on disk).
/// Every call that reads or writes the database is async: the database works on its own
/// threads, never the connection's. The address book is kept in memory.
final class MessageStore: Sendable {
    /// The most messages one search returns.
    static let searchLimit = 50
    /// The user, as the sender of the messages they send.
    static let me = Person(displayName: "Me", identifier: "me")

    private let database: SandboxDatabase
    /// The address book, by name: nothing changes it once the store is made, so it is read
    /// once instead of at every resolve.
    private let addressBook: [Contact]

    /// Completed handles, kept in this database with the writes they made.
    var journal: SandboxJournal { SandboxJournal(database) }

    /// Checkpoints and closes the database, on a clean stop.
    func close() { database.close() }

    /// Opens (or creates and seeds) the store in `directory`. Write-ahead logging: messages
    /// sent together share one synced append (group commit), and searches never wait for a send.
    init(directory: URL) throws {
        database = try SandboxDatabase.open("monkeychat.sqlite", in: directory, createSchema: Self.createSchema)
        addressBook = try database.pool.read { db in try Contact.order(Column("displayName")).fetchAll(db) }
    }

    private static func createSchema(_ db: Database) throws {
        try db.create(table: Contact.databaseTableName) { t in
            t.primaryKey("identifier", .text)
            t.column("displayName", .text).notNull()
            t.column("screenName", .text).notNull().unique()
        }
        try db.create(table: ChatMessage.databaseTableName) { t in
            t.primaryKey("identifier", .text)
            t.column("content", .text).notNull()
            t.column("sender", .text).notNull()
            t.column("recipients", .text).notNull()
            t.column("groupName", .text)
            t.column("dateSent", .text).notNull()
            t.column("read", .boolean).notNull()
            t.column("flagged", .boolean).notNull()
            t.column("played", .boolean).notNull()
        }
        for contact in Contact.initialAddressBook { try contact.insert(db) }
        for message in ChatMessage.welcome { try message.insert(db) }
    }

    // MARK: Contacts

    /// Every contact's name, for the user vocabulary.
    func contactNames() -> [String] { addressBook.map(\.displayName) }

    /// The contacts a person may mean: by identifier, then an exact name or screen name,
    /// then every contact whose name contains what was said.
    func contacts(matching person: Person) -> [Contact] {
        if let id = person.identifier, let contact = addressBook.first(where: { $0.identifier == id }) { return [contact] }
        let said = person.displayName.trimmingCharacters(in: .whitespaces).lowercased()
        guard !said.isEmpty else { return [] }
        let exact = addressBook.filter { $0.displayName.lowercased() == said || $0.screenName.lowercased() == said }
        if !exact.isEmpty { return exact }
        return addressBook.filter { $0.displayName.lowercased().contains(said) }
    }

    // MARK: Messages

    /// Stores a message from the user to `recipients` and returns it.
    func send(_ content: String, to recipients: [Person], group: String?) async throws -> ChatMessage {
        let message = ChatMessage(
            identifier: UUID().uuidString, content: content, sender: Self.me, recipients: recipients,
            groupName: group, dateSent: Date().formatted(.iso8601), read: true, flagged: false, played: false)
        // The message recorded the first time is the one a retried handle returns.
        return try await database.journaledWrite { db in
            try message.insert(db)
            return message
        }
    }

    /// The group called `name` (in any case) as its messages name it, with its members:
    /// everyone its messages went from or to but the user; nil when no message was in it.
    func group(named name: String) async throws -> (name: String, members: [Person])? {
        let messages = try await database.read { db in
            try ChatMessage.filter(sql: "groupName = ? COLLATE NOCASE", arguments: [name]).order(Column("dateSent")).fetchAll(db)
        }
        guard let first = messages.first?.groupName else { return nil }
        var members: [Person] = []
        for person in messages.flatMap({ [$0.sender] + $0.recipients }) where person.identifier != Self.me.identifier {
            if !members.contains(where: { $0.identifier == person.identifier && $0.displayName == person.displayName }) { members.append(person) }
        }
        return (first, members)
    }

    /// What a search asks for; empty fields match everything.
    struct Query {
        var recipients: [String] = []
        var senders: [String] = []
        var terms: [String] = []
        var attributes: [String] = []
        var identifiers: [String] = []
        var groups: [String] = []
        /// Sent then: a day, in its zone ("what did Coco say yesterday"), or a range ("this week").
        var sent: IntentDateRange?
    }

    /// The messages matching every given field, oldest first. A search by nothing but
    /// senders and a time ("read my messages") is of messages the user received: their own are found
    /// by whom they went to, what they say, their attributes, group or identifiers.
    func search(_ query: Query) async throws -> [ChatMessage] {
        let all = try await database.read { db in try ChatMessage.order(Column("dateSent")).fetchAll(db) }
        // Messages the user received, unless what is asked for may be the user's own.
        let received = query.recipients.isEmpty && query.senders.isEmpty && query.terms.isEmpty && query.identifiers.isEmpty
            && query.attributes.isEmpty && query.groups.isEmpty
        // "Messages from the Tree Crew", "what did I send to the Tree Crew": senders, or
        // recipients, who are all no contact but a group's name are the group.
        var query = query
        let groupNames = Set(all.compactMap { $0.groupName?.lowercased() })
        func groupsOnly(_ names: [String]) -> Bool {
            !names.isEmpty && names.allSatisfy { groupNames.contains($0.lowercased()) && contacts(matching: Person(displayName: $0)).isEmpty }
        }
        if groupsOnly(query.senders) {
            query.groups += query.senders
            query.senders = []
        }
        if groupsOnly(query.recipients) {
            query.groups += query.recipients
            query.recipients = []
        }
        func names(_ people: [Person]) -> [String] { people.flatMap { [$0.displayName.lowercased(), $0.identifier ?? ""] } }
        // "Me" is the user ("what did I send today"), not every name with "me" in it.
        func anyName(_ wanted: [String], in people: [Person]) -> Bool {
            wanted.isEmpty || wanted.contains { w in
                w.caseInsensitiveCompare(Self.me.displayName) == .orderedSame
                    ? people.contains { $0.identifier == Self.me.identifier } : names(people).contains { $0.contains(w.lowercased()) }
            }
        }
        return all.filter { m in
            !(received && m.sender.identifier == Self.me.identifier)
                && anyName(query.recipients, in: m.recipients)
                && anyName(query.senders, in: [m.sender])
                && query.terms.allSatisfy { m.content.localizedCaseInsensitiveContains($0) }
                && query.attributes.allSatisfy { m.has($0) }
                && (query.identifiers.isEmpty || query.identifiers.contains(m.identifier))
                && (query.groups.isEmpty || query.groups.contains { $0.caseInsensitiveCompare(m.groupName ?? "") == .orderedSame })
                && query.sent.map { sent in IntentMoment(m.dateSent).map { sent.contains($0.date) } ?? false } ?? true
        }
    }

    /// The identifiers that name no stored message.
    func missing(_ identifiers: [String]) async throws -> [String] {
        try await database.read { db in
            try identifiers.filter { try ChatMessage.fetchOne(db, key: $0) == nil }
        }
    }

    /// Sets an attribute (read, unread, flagged, unflagged, played) on messages; false if
    /// any of them is missing, in which case none is changed.
    func set(_ attribute: String, on identifiers: [String]) async throws -> Bool {
        try await database.journaledWrite { db in
            var messages: [ChatMessage] = []
            for id in identifiers {
                guard let message = try ChatMessage.fetchOne(db, key: id) else { return false }
                messages.append(message)
            }
            for var message in messages {
                switch attribute {
                case "read": message.read = true
                case "unread": message.read = false
                case "flagged": message.flagged = true
                case "unflagged": message.flagged = false
                case "played": message.played = true
                default: return false
                }
                try message.update(db)
            }
            return !messages.isEmpty
        }
    }
}

/// A friend in MonkeyChat's address book, known by screen name.
struct Contact: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "contact"
    var identifier: String
    var displayName: String
    var screenName: String

    var person: Person { Person(displayName: displayName, identifier: identifier, handle: screenName) }

    /// The address book a new install starts with: the names in `MONKEYCHAT_CONTACTS`
    /// (separated by commas) when set, else `addressBook`.
    static var initialAddressBook: [Contact] {
        guard let names = ProcessInfo.processInfo.environment["MONKEYCHAT_CONTACTS"] else { return addressBook }
        return names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { name in
            let handle = String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
            return Contact(identifier: "c-\(handle)", displayName: name, screenName: handle)
        }
    }

    /// The friends a new install knows.
    static let addressBook = [
        Contact(identifier: "c-bobo-great", displayName: "Bobo the Great", screenName: "bobo_the_great"),
        Contact(identifier: "c-bobo-jr", displayName: "Bobo Jr.", screenName: "bobo_jr"),
        Contact(identifier: "c-little-bobo", displayName: "Little Bobo", screenName: "little_bobo"),
        Contact(identifier: "c-coco", displayName: "Coco", screenName: "coco_banana"),
        Contact(identifier: "c-kiki", displayName: "Kiki", screenName: "kiki"),
        Contact(identifier: "c-mojo", displayName: "Mister Mojo", screenName: "mojo"),
    ]
}

/// A stored message, as SearchForMessages reports it.
struct ChatMessage: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "message"
    var identifier: String
    var content: String
    var sender: Person
    var recipients: [Person]
    var groupName: String?
    var dateSent: String
    var read: Bool
    var flagged: Bool
    var played: Bool

    func has(_ attribute: String) -> Bool {
        switch attribute.lowercased() {
        case "read": read
        case "unread": !read
        case "flagged": flagged
        case "unflagged": !flagged
        case "played": played
        default: false
        }
    }

    /// Messages a new install starts with, so there is something to search and mark.
    static let welcome = [
        ChatMessage(
            identifier: "m-welcome-1", content: "Bring more bananas to the big tree",
            sender: Contact.addressBook[1].person, recipients: [MessageStore.me], groupName: nil,
            dateSent: "2026-01-01T09:00:00Z", read: false, flagged: false, played: false),
        ChatMessage(
            identifier: "m-welcome-2", content: "Meet at the big tree at noon?",
            sender: Contact.addressBook[3].person, recipients: [MessageStore.me], groupName: "Tree Crew",
            dateSent: "2026-01-01T10:00:00Z", read: true, flagged: true, played: false),
    ]
}
