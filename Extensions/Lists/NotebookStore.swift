import ExtensionStorage
import Foundation
import GRDB
import IntentExtensionKit

/// List-o-Mat's data: task lists, their tasks, and notes, in SQLite in the extension's
/// sandbox (write-ahead log, each change all or nothing and on disk before it returns), so
/// they survive restarts and crashes mid-write. Every call is async: the database works on its own threads.
final class NotebookStore: Sendable {
    private let database: SandboxDatabase

    /// Completed handles, kept in this database with the writes they made.
    var journal: SandboxJournal { SandboxJournal(database) }

    /// Checkpoints and closes the database, on a clean stop.
    func close() { database.close() }

    init(directory: URL) throws {
        database = try SandboxDatabase.open("listomat.sqlite", in: directory) { db in
            try db.create(table: TaskList.databaseTableName) { t in
                t.primaryKey("identifier", .text)
                t.column("title", .text).notNull()
                t.column("groupName", .text)
                t.column("created", .text).notNull()
            }
            try db.create(table: TaskItem.databaseTableName) { t in
                t.primaryKey("identifier", .text)
                t.column("list", .text).notNull().references(TaskList.databaseTableName, onDelete: .cascade)
                t.column("title", .text).notNull()
                t.column("status", .text).notNull()
                t.column("priority", .text).notNull()
                t.column("reminder", .text)
                t.column("created", .text).notNull()
            }
            try db.create(table: Note.databaseTableName) { t in
                t.primaryKey("identifier", .text)
                t.column("title", .text).notNull()
                t.column("content", .text).notNull()
                t.column("groupName", .text)
                t.column("created", .text).notNull()
            }
        }
    }

    static func now() -> String { Date().formatted(.iso8601) }

    // MARK: Reading

    func listTitles() async throws -> [String] {
        try await database.read { db in try TaskList.order(Column("title")).fetchAll(db).map(\.title) }
    }

    func noteTitles() async throws -> [String] {
        try await database.read { db in try Note.order(Column("title")).fetchAll(db).map(\.title) }
    }

    func taskTitles() async throws -> [String] {
        try await database.read { db in try TaskItem.order(Column("title")).fetchAll(db).map(\.title) }
    }

    /// The tasks titled `title`, oldest first, each with its list's title.
    func tasksWithLists(titled title: String) async throws -> [(task: TaskItem, list: String)] {
        try await database.read { db in try Self.withLists(TaskItem.filter(Column("title").collating(.nocase) == title), db) }
    }

    /// Every task, oldest first, with its list's title.
    func allTasksWithLists() async throws -> [(task: TaskItem, list: String)] {
        try await database.read { db in try Self.withLists(TaskItem.all(), db) }
    }

    private static func withLists(_ tasks: QueryInterfaceRequest<TaskItem>, _ db: Database) throws -> [(task: TaskItem, list: String)] {
        let lists = Dictionary(try TaskList.fetchAll(db).map { ($0.identifier, $0.title) }, uniquingKeysWith: { first, _ in first })
        return try tasks.order(Column("created")).fetchAll(db).map { ($0, lists[$0.list] ?? "") }
    }

    /// The tasks to do whose reminder falls after `start` and at or before `end`, with
    /// their lists' titles, soonest first.
    func reminders(dueAfter start: Date, through end: Date) async throws -> [(task: TaskItem, list: String)] {
        try await database.read { db in
            let set = TaskItem.filter(Column("reminder") != nil && Column("status") != "completed")
            let due = try Self.withLists(set, db).compactMap { task, list -> (task: TaskItem, list: String, at: Date)? in
                guard let at = task.reminder.flatMap(IntentMoment.init)?.date, at > start, at <= end else { return nil }
                return (task, list, at)
            }
            return due.sorted { $0.at < $1.at }.map { ($0.task, $0.list) }
        }
    }

    /// The other tasks on the list of the task `identifier` (none when there is no such task).
    func tasks(besides identifier: String) async throws -> [TaskItem] {
        try await database.read { db in
            guard let task = try TaskItem.fetchOne(db, key: identifier) else { return [] }
            return try TaskItem.filter(Column("list") == task.list && Column("identifier") != identifier).fetchAll(db)
        }
    }

    /// The tasks on the list titled `list`; nil when there is no such list.
    func tasks(onList list: String) async throws -> [TaskItem]? {
        try await database.read { db in try Self.tasks(onList: list, db) }
    }

    /// The tasks on the list titled `list`; nil when there is no such list.
    private static func tasks(onList list: String, _ db: Database) throws -> [TaskItem]? {
        guard let found = try TaskList.filter(Column("title") == list).fetchOne(db) else { return nil }
        return try TaskItem.filter(Column("list") == found.identifier).fetchAll(db)
    }

    func list(titled title: String) async throws -> TaskList? {
        try await database.read { db in try TaskList.filter(Column("title") == title).fetchOne(db) }
    }

    /// Lists with their tasks (those with `status`, when given), for search results, and how
    /// many of all their tasks are to do and done: "what's left" on a list all done is not
    /// an empty list.
    /// The lists titled `titles` (every list when nil), each with its tasks in `status` (any
    /// when nil) and its counts of open and done tasks.
    func lists(titled titles: [String]?, status: String? = nil) async throws -> [JSONValue] {
        try await database.read { db in
            let lists = try TaskList.order(Column("title")).fetchAll(db).filter { titles?.contains($0.title) ?? true }
            return try lists.map { list in
                let all = try TaskItem.filter(Column("list") == list.identifier).order(Column("created")).fetchAll(db)
                let done = all.filter { $0.status == "completed" }.count
                var json = try JSONValue(encoding: list)
                if case .object(var members) = json {
                    members["tasks"] = try JSONValue(encoding: all.filter { $0.has(status: status, priority: nil) })
                    members["openTaskCount"] = .number(Double(all.count - done))
                    members["completedTaskCount"] = .number(Double(done))
                    json = .object(members)
                }
                return json
            }
        }
    }

    func tasks(titled titles: [String]?, status: String?, priority: String? = nil) async throws -> [TaskItem] {
        try await database.read { db in
            try TaskItem.order(Column("created")).fetchAll(db)
                .filter { titles?.contains($0.title) ?? true }
                .filter { $0.has(status: status, priority: priority) }
        }
    }

    func notes(titled titles: [String]?) async throws -> [Note] {
        try await database.read { db in
            try Note.order(Column("title")).fetchAll(db).filter { titles?.contains($0.title) ?? true }
        }
    }

    // MARK: Writing

    func createList(_ title: String, tasks: [String], group: String?, reminder: String? = nil) async throws -> TaskList {
        try await database.journaledWrite { db in
            let list = TaskList(identifier: UUID().uuidString, title: title, groupName: group, created: Self.now())
            try list.insert(db)
            for title in tasks {
                var task = TaskItem.new(title, in: list)
                task.reminder = reminder
                try task.insert(db)
            }
            return list
        }
    }

    /// Adds tasks to the list titled `title`; returns them, or nil if there is no such list
    /// (with `creating`, the list is made first, in the same write).
    /// Adds `titles` to the list titled `title` (made first when `creating`), each once: a
    /// title the list has open already (any case) is not added again, and comes back in
    /// `alreadyThere`. Nil when there is no such list.
    func addTasks(
        _ titles: [String], toList title: String, creating: Bool = false, priority: String?, reminder: String?
    ) async throws -> AddedTasks? {
        try await database.journaledWrite { db in
            var found = try TaskList.filter(Column("title") == title).fetchOne(db)
            if found == nil, creating {
                let made = TaskList(identifier: UUID().uuidString, title: title, groupName: nil, created: Self.now())
                try made.insert(db)
                found = made
            }
            guard let list = found else { return nil }
            let openTasks = try TaskItem.filter(Column("list") == list.identifier && Column("status") != "completed").fetchAll(db)
            var open = Set(openTasks.map { $0.title.lowercased() })
            var added: [TaskItem] = [], alreadyThere: [String] = [], reminded: [String] = []
            for t in titles {
                guard open.insert(t.lowercased()).inserted else {
                    alreadyThere.append(t)
                    // "remind me to buy flowers tomorrow" with flowers on the list: its reminder is set.
                    if let reminder, var task = openTasks.first(where: { $0.title.lowercased() == t.lowercased() }) {
                        task.reminder = reminder
                        try task.update(db)
                        reminded.append(task.title)
                    }
                    continue
                }
                var task = TaskItem.new(t, in: list)
                task.priority = priority ?? "notFlagged"
                task.reminder = reminder
                try task.insert(db)
                added.append(task)
            }
            return AddedTasks(added: added, alreadyThere: alreadyThere, reminded: reminded)
        }
    }

    /// Changes the first task titled `title` (or whose identifier it is), one not yet in
    /// `status` first (marking "napkins" done takes the open one of two); returns it, or
    /// nil if there is none.
    func updateTask(
        _ title: String, byIdentifier: Bool = false, toStatus status: String? = nil, _ change: @escaping @Sendable (inout TaskItem) -> Void
    ) async throws -> TaskUpdate? {
        try await database.journaledWrite { db in
            let tasks = try TaskItem.filter(Column(byIdentifier ? "identifier" : "title") == title).order(Column("created")).fetchAll(db)
            guard let before = tasks.first(where: { $0.status != status }) ?? tasks.first else { return nil }
            var task = before
            change(&task)
            try task.update(db)
            return TaskUpdate(before: before, after: task)
        }
    }

    /// A task as it was and as a change left it.
    struct TaskUpdate: Codable, Sendable {
        let before: TaskItem
        let after: TaskItem
    }

    /// The open tasks titled `titles` (every open task when nil): those a snooze moves.
    private static func snoozed(_ titles: [String]?, _ db: Database) throws -> [TaskItem] {
        try TaskItem.filter(Column("status") == "notCompleted").fetchAll(db).filter { titles?.contains($0.title) ?? true }
    }

    /// The reminders of the tasks a snooze of `titles` would move.
    func reminders(of titles: [String]?) async throws -> [String] {
        try await database.read { db in try Self.snoozed(titles, db).compactMap(\.reminder) }
    }

    func snooze(_ titles: [String]?, until time: String) async throws -> [TaskItem] {
        try await database.journaledWrite { db in
            var changed: [TaskItem] = []
            for var task in try Self.snoozed(titles, db) {
                task.reminder = time
                try task.update(db)
                changed.append(task)
            }
            return changed
        }
    }

    /// Deletes tasks from the list titled `list` (all of them when `titles` is nil): each
    /// name takes the titles `TitleMatcher.named` finds, and `identifiers` the tasks of the
    /// list they name; returns those deleted.
    func deleteTasks(_ titles: [String]?, identifiers: Set<String> = [], fromList list: String) async throws -> [TaskItem]? {
        try await database.journaledWrite { db in
            guard let onList = try Self.tasks(onList: list, db) else { return nil }
            let named = titles.map { titles in Set(titles.flatMap { TitleMatcher.named($0, among: onList.map(\.title)) }) }
            let tasks = onList.filter { (named?.contains($0.title) ?? true) || identifiers.contains($0.identifier) }
            for task in tasks { try task.delete(db) }
            return tasks
        }
    }

    func createNote(_ title: String, content: String, group: String?) async throws -> Note {
        try await database.journaledWrite { db in
            let note = Note(identifier: UUID().uuidString, title: title, content: content, groupName: group, created: Self.now())
            try note.insert(db)
            return note
        }
    }

    func append(_ content: String, toNote title: String) async throws -> Note? {
        try await database.journaledWrite { db in
            guard var note = try Note.filter(Column("title") == title).fetchOne(db) else { return nil }
            note.content = note.content.isEmpty ? content : note.content + "\n" + content
            try note.update(db)
            return note
        }
    }
}

struct TaskList: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "taskList"
    var identifier: String
    var title: String
    var groupName: String?
    var created: String
}

/// What an add did: the tasks it added, and the titles the list had open already.
struct AddedTasks: Codable, Sendable {
    var added: [TaskItem]
    var alreadyThere: [String]
    /// Of those already there, the ones whose reminder was set (nil in a journal written before).
    var reminded: [String]?
}

struct TaskItem: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "task"
    var identifier: String
    var list: String
    var title: String
    var status: String
    var priority: String
    var reminder: String?
    var created: String

    static func new(_ title: String, in list: TaskList) -> TaskItem {
        TaskItem(identifier: UUID().uuidString, list: list.identifier, title: title, status: "notCompleted",
            priority: "notFlagged", reminder: nil, created: NotebookStore.now())
    }

    /// Whether the task is in `status` and of `priority`, each when given.
    func has(status: String?, priority: String?) -> Bool {
        (status == nil || self.status == status) && (priority == nil || self.priority == priority)
    }
}

struct Note: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "note"
    var identifier: String
    var title: String
    var content: String
    var groupName: String?
    var created: String
}
