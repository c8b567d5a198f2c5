import IntentExtensionKit

/// CreateTaskList: a new list, with any tasks given, each with the reminder given.
struct CreateTaskListHandler: IntentHandler {
    let store: NotebookStore

    func handle(_ intent: Intent) async throws -> IntentResponse {
        guard let title = intent.string("title") else { return IntentResponse(code: "failure") }
        let list = try await store.createList(
            title, tasks: splitItems(intent.strings("taskTitles")), group: intent.string("groupName"),
            reminder: intent.string("temporalEventTrigger"))
        return IntentResponse(code: "success", response: ["createdTaskList": json(list)])
    }
}

/// AddTasks: finds the list by title (exact, close, or sounding alike) and adds every item.
struct AddTasksHandler: IntentHandler {
    let store: NotebookStore

    var resolvers: [String: Resolver] { ["targetTaskList": .single(resolveList)] }

    func resolveList(_ intent: Intent) async throws -> ResolutionResult {
        resolveTitle(intent.string("targetTaskList"), among: try await store.listTitles())
    }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        guard let list = intent.string("targetTaskList") else { return IntentResponse(code: "failure") }
        let titles = splitItems(intent.strings("taskTitles"))
        guard !titles.isEmpty, let added = try await store.addTasks(
            titles, toList: list, priority: intent.string("priority"), reminder: intent.string("temporalEventTrigger"))
        else { return IntentResponse(code: "failure") }
        return IntentResponse(code: "success", response: ["targetTaskList": .string(list), "addedTasks": json(added)])
    }
}

/// SetTaskAttribute: marks a task done or not done (undo), flags it, renames it, or sets its reminder.
struct SetTaskAttributeHandler: IntentHandler {
    let store: NotebookStore

    var resolvers: [String: Resolver] { ["targetTask": .single(resolveTask)] }

    func resolveTask(_ intent: Intent) async throws -> ResolutionResult {
        resolveTitle(intent.string("targetTask"), among: try await store.taskTitles())
    }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        guard let target = intent.string("targetTask") else { return IntentResponse(code: "failure") }
        let status = intent.string("status"), priority = intent.string("priority")
        let title = intent.string("taskTitle"), reminder = intent.string("temporalEventTrigger")
        let changed = try await store.updateTask(target) { task in
            if let status { task.status = status }
            if let priority { task.priority = priority }
            if let title { task.title = title }
            if let reminder { task.reminder = reminder }
        }
        guard let changed else { return IntentResponse(code: "failure") }
        return IntentResponse(code: "success", response: ["modifiedTask": json(changed)])
    }
}

/// SearchForNotebookItems: lists (with their tasks), tasks by status, and notes; "all"
/// searches every list.
struct SearchForNotebookItemsHandler: IntentHandler {
    let store: NotebookStore

    var resolvers: [String: Resolver] { ["title": .single(resolveSearchTitle)] }

    func resolveSearchTitle(_ intent: Intent) async throws -> ResolutionResult {
        guard let title = intent.string("title") else { return .notRequired }
        if TitleMatcher.normalize(title) == "all" { return .success("all") }
        let titles = intent.string("itemType") == "note" ? try await store.noteTitles()
            : intent.string("itemType") == "task" ? try await store.taskTitles()
            : try await store.listTitles() + (try await store.noteTitles())
        return resolveTitle(title, among: titles)
    }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        let title = intent.string("title")
        let only: [String]? = title == nil || title == "all" ? nil : [title ?? ""]
        var response: [String: JSONValue] = [:]
        let type = intent.string("itemType")
        if type == nil || type == "taskList" {
            let lists = try await store.lists(titled: only)
            if type != nil || !lists.isEmpty { response["taskLists"] = .array(lists) }
        }
        if type == "task" { response["tasks"] = json(try await store.tasks(titled: only, status: intent.string("status"))) }
        if type == nil || type == "note" {
            let notes = try await store.notes(titled: only, containing: intent.string("content"))
            if type != nil || !notes.isEmpty { response["notes"] = json(notes) }
        }
        return IntentResponse(code: "success", response: response)
    }
}

/// SnoozeTasks: moves the reminders of the named tasks (or all open tasks) to a later time.
struct SnoozeTasksHandler: IntentHandler {
    let store: NotebookStore

    var resolvers: [String: Resolver] { ["tasks": .list(resolveTasks)] }

    func resolveTasks(_ intent: Intent) async throws -> [ResolutionResult] {
        let said = intent.strings("tasks")
        if said.isEmpty { return [intent["all"]?.boolValue == true ? .notRequired : .needsValue] }
        let titles = try await store.taskTitles()
        return said.map { resolveTitle($0, among: titles) }
    }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        guard let time = intent.string("nextTriggerTime") else { return IntentResponse(code: "failure") }
        let titles = intent.strings("tasks")
        let snoozed = try await store.snooze(titles.isEmpty ? nil : titles, until: time)
        return IntentResponse(code: snoozed.isEmpty ? "failure" : "success", response: ["snoozedTasks": json(snoozed)])
    }
}

/// DeleteTasks: removes the named tasks (or all of them) from a list.
struct DeleteTasksHandler: IntentHandler {
    let store: NotebookStore

    var resolvers: [String: Resolver] { ["taskList": .single(resolveList)] }

    func resolveList(_ intent: Intent) async throws -> ResolutionResult {
        resolveTitle(intent.string("taskList"), among: try await store.listTitles())
    }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        guard let list = intent.string("taskList") else { return IntentResponse(code: "failure") }
        let titles = splitItems(intent.strings("tasks"))
        let all = intent["all"]?.boolValue == true || titles.isEmpty
        guard let deleted = try await store.deleteTasks(all ? nil : titles, fromList: list) else {
            return IntentResponse(code: "failure")
        }
        return IntentResponse(code: "success", response: ["deletedTasks": json(deleted)])
    }
}

/// CreateNote: a new note.
struct CreateNoteHandler: IntentHandler {
    let store: NotebookStore

    func handle(_ intent: Intent) async throws -> IntentResponse {
        guard let title = intent.string("title") else { return IntentResponse(code: "failure") }
        let note = try await store.createNote(title, content: intent.string("content") ?? "", group: intent.string("groupName"))
        return IntentResponse(code: "success", response: ["createdNote": json(note)])
    }
}

/// AppendToNote: adds a line to a note found by title.
struct AppendToNoteHandler: IntentHandler {
    let store: NotebookStore

    var resolvers: [String: Resolver] { ["targetNote": .single(resolveNote)] }

    func resolveNote(_ intent: Intent) async throws -> ResolutionResult {
        resolveTitle(intent.string("targetNote"), among: try await store.noteTitles())
    }

    func handle(_ intent: Intent) async throws -> IntentResponse {
        guard let title = intent.string("targetNote"), let content = intent.string("content"),
            let note = try await store.append(content, toNote: title)
        else { return IntentResponse(code: "failure") }
        return IntentResponse(code: "success", response: ["note": json(note)])
    }
}
