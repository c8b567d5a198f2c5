import Foundation
import IntentExtensionKit

/// CreateTaskList: a new list, with any tasks given, each with the reminder given.
struct CreateTaskListHandler: CreateTaskListIntentHandling {
    let store: NotebookStore
    let names: NotebookNames

    /// A title a list already has is unsupported: two lists of one name could not be told apart.
    func resolveTitle(for intent: CreateTaskListIntent) async throws -> ResolutionResult {
        resolveNewTitle(intent.title, among: try await store.listTitles())
    }

    func handle(intent: CreateTaskListIntent) async throws -> CreateTaskListResponse {
        guard let title = intent.title else { return CreateTaskListResponse(.failure) }
        let list = try await store.createList(
            title, tasks: taskTitles(intent.taskTitles), group: intent.groupName, reminder: intent.temporalEventTrigger)
        try? await names.publish()
        return CreateTaskListResponse(.success, ["createdTaskList": json(list)])
    }
}

/// AddTasks: finds the list by title (exact, close, or sounding alike) and adds every item.
struct AddTasksHandler: AddTasksIntentHandling {
    let store: NotebookStore
    let names: NotebookNames

    /// Lists the user has, named together ("add coffee to groceries and camping"), are no
    /// list to make: one add goes to one list (`severalLists`), and the user is asked which.
    /// With no list said, the only list there is is the one ("add parmesan", with a shopping
    /// list alone), as a reminders app's default list is; with several, which is asked. A
    /// note's title is no list to make (`isANote`).
    func resolveTargetTaskList(for intent: AddTasksIntent) async throws -> ResolutionResult {
        let lists = try await store.listTitles()
        if intent.targetTaskList == nil, lists.count == 1, let only = lists.first { return .success(.string(only)) }
        if namesSeveral(intent.targetTaskList, among: lists) { return .unsupported(reason: "severalLists") }
        // "add a charger to packing ideas", a note: no list to offer to make.
        if let said = intent.targetTaskList, TitleMatcher.match(said, in: lists) == .none, TitleMatcher.isNoteTitle(said, among: try await store.noteTitles()) {
            return .unsupported(reason: "isANote")
        }
        return resolveTitle(intent.targetTaskList, among: lists, creating: true)
    }

    /// Adds to the list, making it first when there is none of that title (the user said yes
    /// to making it, or a program named it).
    func handle(intent: AddTasksIntent) async throws -> AddTasksResponse {
        guard let list = intent.targetTaskList, !list.trimmingCharacters(in: .whitespaces).isEmpty else { return AddTasksResponse(.failure) }
        let titles = taskTitles(intent.taskTitles)
        guard !titles.isEmpty, let result = try await store.addTasks(
            titles, toList: list, creating: true, priority: intent.priority?.rawValue, reminder: intent.temporalEventTrigger)
        else { return AddTasksResponse(.failure) }
        // Only a list made here changes the titles; most adds go to a list the assistant knows.
        if !names.knows(list) { try? await names.publish() }
        // What was added, and what the list had already (not added twice), for the words.
        return AddTasksResponse(.success, [
            "targetTaskList": .string(list), "addedTasks": json(result.added),
            "taskTitles": .array(result.added.map { .string($0.title) }), "alreadyOnList": .array(result.alreadyThere.map(JSONValue.string)),
            "remindedTasks": .array((result.reminded ?? []).map(JSONValue.string)),
        ])
    }
}

/// SetTaskAttribute: marks a task done or not done (undo), flags it, renames it, or sets its reminder.
struct SetTaskAttributeHandler: SetTaskAttributeIntentHandling {
    let store: NotebookStore

    /// A task of one title on several lists (of those the change would change) is chosen
    /// by list: "Which one: 1. wine on groceries or 2. wine on friday shopping?". A list
    /// said ("mark rice on the hardware list as done") chooses among the lists with the
    /// task.
    func resolveTargetTask(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        if Self.taskIdentifier(intent) != nil, let chosen = intent.intent.parameters["targetTask"] { return .success(chosen) }
        let titles = try await store.taskTitles()
        // "mark plates and chips done": one change is of one task (`severalTasks`).
        if namesSeveral(intent.targetTask, among: titles) { return .unsupported(reason: "severalTasks") }
        let resolved = resolveTitle(intent.targetTask, among: titles)
        if case .unsupported = resolved, intent.taskList == nil, let said = intent.targetTask,
            let onLists = try await taskOnList(said).flatMap({ Self.candidates(among: $0, onLists: Set($0.map(\.list)), intent) }),
            let first = onLists.first
        {
            // On one list: that task; on several ("tent on camp": Camp Food and Camp Gear), which.
            guard Set(onLists.map(\.list)).count > 1 else {
                return .success(.object(["title": .string(first.task.title), "identifier": .string(first.task.identifier)]))
            }
            return Self.choice(among: onLists)
        }
        // "rename the camping list": no task, but a list, which this changes nothing of (`isAList`).
        if case .unsupported = resolved, let said = intent.targetTask, try await Self.isListTitle(said, among: store.listTitles()) {
            return .unsupported(reason: "isAList")
        }
        guard case .success(let value) = resolved, let title = value.stringValue else { return resolved }
        let tasks = try await store.tasksWithLists(titled: title)
        // A list said that has no such task is asked about as the list (resolveTaskList).
        let candidates = Self.candidates(among: tasks, onLists: try await listsSaid(intent), intent)
            ?? Self.candidates(among: tasks, onLists: nil, intent) ?? []
        guard Set(candidates.map(\.list)).count > 1 else { return resolved }
        return Self.choice(among: candidates)
    }

    /// Whether `said` is a list's title, alone or with one word after it ("camping list").
    private static func isListTitle(_ said: String, among titles: [String]) -> Bool {
        [said, said.split(separator: " ").dropLast().joined(separator: " ")].contains { TitleMatcher.isTitle($0, among: titles) }
    }

    /// Which of `candidates` is meant: "Which one: 1. wine on groceries or 2. wine on …?".
    private static func choice(among candidates: [(task: TaskItem, list: String)]) -> ResolutionResult {
        .disambiguation(candidates.prefix(ResolutionResult.maximumOptions).map { candidate in
            .object(["title": .string("\(candidate.task.title) on \(candidate.list)"), "identifier": .string(candidate.task.identifier)])
        })
    }

    /// The list said ("mark rice on the hardware list as done") is a list of the store's
    /// (`notFound`) with a task of the task's title (`noSuchTask`), when the task was named.
    func resolveTaskList(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        guard let list = intent.taskList else { return .notRequired }
        let named = try await lists(named: list)
        guard !named.isEmpty else { return .unsupported(reason: "notFound") }
        guard Self.taskIdentifier(intent) == nil, let title = intent.targetTask else { return .success(.string(list)) }
        let tasks = try await store.tasksWithLists(titled: title)
        return Self.candidates(among: tasks, onLists: named, intent) == nil ? .unsupported(reason: "noSuchTask") : .success(.string(list))
    }

    /// "mark tent on camping done", a task on a list said without the word "list", comes
    /// as one title no task has: the tasks of the words before an "on", "in" or "from"
    /// (the last first) on the lists the words after it name; nil when no split names both.
    private func taskOnList(_ said: String) async throws -> [(task: TaskItem, list: String)]? {
        let words = said.split(separator: " ").map(String.init)
        // A task and a list are said in a few words; a title of many is tried whole only.
        guard words.count <= Self.longestSplit else { return nil }
        let titles = try await store.listTitles()
        for index in words.indices.reversed() where index > 0 && ["on", "in", "from"].contains(words[index].lowercased()) {
            let list = words[(index + 1)...].drop { ["the", "my", "our"].contains($0.lowercased()) }.joined(separator: " ")
            let lists = list.isEmpty ? [] : Self.lists(named: list, among: titles)
            guard !lists.isEmpty else { continue }
            let tasks = try await store.tasksWithLists(titled: words[..<index].joined(separator: " ")).filter { lists.contains($0.list) }
            if !tasks.isEmpty { return tasks }
        }
        return nil
    }

    /// The most words a title is split at "on" in.
    static let longestSplit = 16

    /// The titles of the store's lists `said` names: the one it is (but for case and
    /// punctuation), else those it is like ("hardware" for Hardware Store).
    private func lists(named said: String) async throws -> Set<String> {
        Self.lists(named: said, among: try await store.listTitles())
    }

    private static func lists(named said: String, among titles: [String]) -> Set<String> {
        switch TitleMatcher.match(said, in: titles) {
        case .exact(let title), .one(let title): [title]
        case .several(let titles): Set(titles)
        case .none: []
        }
    }

    /// The titles of the lists the list said names; nil when none was said.
    private func listsSaid(_ intent: SetTaskAttributeIntent) async throws -> Set<String>? {
        guard let list = intent.taskList else { return nil }
        return try await lists(named: list)
    }

    /// Of `tasks` (those of the task's title, with their lists), the ones the change would
    /// change: those not in the status asked for; on `lists` when given ("mark rice on the
    /// hardware list as done"), where all of them on those are in that status already; nil
    /// when `lists` have none of them.
    private static func candidates(
        among tasks: [(task: TaskItem, list: String)], onLists lists: Set<String>?, _ intent: SetTaskAttributeIntent
    ) -> [(task: TaskItem, list: String)]? {
        var tasks = tasks
        if let lists {
            tasks = tasks.filter { lists.contains($0.list) }
            if tasks.isEmpty { return nil }
        }
        // Nothing to mark ("rename chips to tortilla chips"): a task still to do first.
        let changing = intent.status.map { status in tasks.filter { $0.task.status != status.rawValue } }
            ?? tasks.filter { $0.task.status != "completed" } + tasks.filter { $0.task.status == "completed" }
        return lists != nil && changing.isEmpty ? tasks : changing
    }

    /// The task chosen from several of one title, by its identifier.
    static func taskIdentifier(_ intent: SetTaskAttributeIntent) -> String? {
        intent.intent.parameters["targetTask"]?.objectValue?["identifier"]?.stringValue
    }

    /// Nothing to change ("weekend chores", then a task): asks whether it is done, the
    /// change asked for most, rather than "updating" a task to what it was.
    func resolveStatus(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        if !Self.changesSomething(intent) { return .needsValue }
        return intent.intent.defaultResult(of: "status", required: false)
    }

    /// A new title another task still to do on the task's list has (but for case and
    /// punctuation) is unsupported (`alreadyExists`), as adding it would be refused: two
    /// tasks of one name could not be told apart.
    func resolveTaskTitle(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        guard let title = intent.taskTitle else { return intent.intent.defaultResult(of: "taskTitle", required: false) }
        guard let target = try await taskChanged(intent), try await isTaken(title, besides: target) else { return .success(.string(title)) }
        return .unsupported(reason: "alreadyExists")
    }

    /// Whether a task still to do on the list of the task `target`, other than it, has
    /// `title` (but for case and punctuation).
    private func isTaken(_ title: String, besides target: String) async throws -> Bool {
        let others = try await store.tasks(besides: target).filter { $0.status != "completed" }
        return !TitleMatcher.named(title, among: others.map(\.title)).isEmpty
    }

    /// The identifier of the task the change would change (on the list said, if one was):
    /// the one chosen, else the first of its title not yet as asked; nil when there is none
    /// (or the list said has none of that title).
    private func taskChanged(_ intent: SetTaskAttributeIntent) async throws -> String? {
        if let chosen = Self.taskIdentifier(intent) { return chosen }
        guard let title = intent.targetTask else { return nil }
        let tasks = try await store.tasksWithLists(titled: title)
        return Self.candidates(among: tasks, onLists: try await listsSaid(intent), intent)?.first?.task.identifier
    }

    func handle(intent: SetTaskAttributeIntent) async throws -> SetTaskAttributeResponse {
        // The task the change would change is changed by its identifier: its title may be
        // another's but for case ("Rice" done, "rice" to do). A list said without it: none.
        let chosen = try await taskChanged(intent)
        if chosen == nil, intent.taskList != nil { return SetTaskAttributeResponse(.failure) }
        guard let target = chosen ?? intent.targetTask, Self.changesSomething(intent) else { return SetTaskAttributeResponse(.failure) }
        if let title = intent.taskTitle, let chosen, try await isTaken(title, besides: chosen) { return SetTaskAttributeResponse(.failure) }
        let status = intent.status?.rawValue, priority = intent.priority?.rawValue
        let title = intent.taskTitle, reminder = intent.temporalEventTrigger
        let updated = try await store.updateTask(target, byIdentifier: chosen != nil, toStatus: status) { task in
            if let status { task.status = status }
            if let priority { task.priority = priority }
            if let title { task.title = title }
            if let reminder { task.reminder = reminder }
        }
        guard let before = updated?.before, let changed = updated?.after else { return SetTaskAttributeResponse(.failure) }
        // The words name the task changed as the list spells it ("camp chairs" where "Camp
        // Chairs" was said and is another task); a rename names it as said, and one chosen by
        // its list as chosen ("rice on Hardware Store").
        var response = ["modifiedTask": json(changed)]
        if title == nil, Self.taskIdentifier(intent) == nil { response["targetTask"] = .string(changed.title) }
        // Checked off again: the words say it was so already, not that it was just done.
        if (before.status, before.priority, before.title, before.reminder) == (changed.status, changed.priority, changed.title, changed.reminder) {
            response["alreadySo"] = .string(changed.title)
        }
        return SetTaskAttributeResponse(.success, response)
    }

    private static func changesSomething(_ intent: SetTaskAttributeIntent) -> Bool {
        intent.status != nil || intent.priority != nil || intent.taskTitle != nil || intent.temporalEventTrigger != nil
    }
}

/// SearchForNotebookItems: lists (with their tasks), tasks by status and by flag, and
/// notes; "all" searches every list.
struct SearchForNotebookItemsHandler: SearchForNotebookItemsIntentHandling {
    let store: NotebookStore

    func resolveTitle(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        guard let title = intent.title else { return .notRequired }
        if TitleMatcher.normalize(title) == "all" { return .success("all") }
        let titles = intent.itemType == .note ? try await store.noteTitles()
            : intent.itemType == .task ? try await store.taskTitles()
            : try await store.listTitles() + (try await store.noteTitles())
        let resolved = ListOMat.resolveTitle(title, among: titles)
        // "my notes about socks": words no title is like are looked for in what notes say;
        // when notes are asked for, finding none is an answer too ("I found nothing").
        guard case .unsupported = resolved else { return resolved }
        if intent.itemType == .note { return .success(.string(title)) }
        return try await notesSaying(title, intent).isEmpty ? resolved : .success(.string(title))
    }

    /// The notes that say `words` (`says`), when notes are searched and no content was given.
    private func notesSaying(_ words: String, _ intent: SearchForNotebookItemsIntent) async throws -> [Note] {
        guard intent.itemType == nil || intent.itemType == .note, intent.content == nil else { return [] }
        return try await store.notes(titled: nil).filter { Self.says(words, $0) }
    }

    /// Whether `note`'s title or text has each of `words` as a word or the start of one, or
    /// one as its start ("sock" finds "socks", "umbrellas" finds "umbrella"; "art" is not in
    /// "start"); no words are said by no note.
    private static func says(_ words: String, _ note: Note) -> Bool {
        let wanted = Self.words(of: words)
        let said = Self.words(of: note.title + " " + note.content)
        return !wanted.isEmpty && wanted.allSatisfy { word in said.contains { $0.hasPrefix(word) || (word.count > 3 && word.hasPrefix($0) && $0.count >= 3) } }
    }

    private static func words(of text: String) -> Set<String> {
        Set(TitleMatcher.normalize(text).split(separator: " ").map(String.init))
    }

    func handle(intent: SearchForNotebookItemsIntent) async throws -> SearchForNotebookItemsResponse {
        let title = intent.title
        let only: [String]? = title == nil || title == "all" ? nil : [title ?? ""]
        let type = intent.itemType
        let status = intent.status?.rawValue, priority = intent.taskPriority?.rawValue
        var response: [String: JSONValue] = [:]
        /// A task asked about: on the lists named (by its own title when tasks are searched),
        /// with the status and flag said.
        func wanted(_ task: TaskItem, on list: String) -> Bool {
            (only?.contains(type == .task ? task.title : list) ?? true) && task.has(status: status, priority: priority)
        }
        // "what do I have to do tomorrow", "what's due this week": the tasks with a reminder
        // then, days counted in the time zone the request was said in.
        if let dateTime = intent.dateTime {
            guard let asked = IntentDateRange(dateTime) else { return SearchForNotebookItemsResponse(.failure) }
            // Soonest first.
            let due = try await store.allTasksWithLists().compactMap { task, list -> (task: TaskItem, at: Date)? in
                guard wanted(task, on: list), let reminder = task.reminder.flatMap(IntentMoment.init), asked.contains(reminder.date)
                else { return nil }
                return (task, reminder.date)
            }
            return SearchForNotebookItemsResponse(.success, ["tasks": json(due.sorted { $0.at < $1.at }.map(\.task))])
        }
        // "what's flagged on the garage list": the tasks flagged (or not).
        if priority != nil, type != .note {
            let flagged = try await store.allTasksWithLists().filter { wanted($0.task, on: $0.list) }
            return SearchForNotebookItemsResponse(.success, ["tasks": json(flagged.map(\.task))])
        }
        // "what's left on the picnic list": a status said keeps only the lists' tasks that have it.
        let lists = type == nil || type == .taskList ? try await store.lists(titled: only, status: status) : nil
        if let lists, type != nil || !lists.isEmpty { response["taskLists"] = .array(lists) }
        // "what lists do I have?": their names, for the words (none: "You don't have any lists
        // yet."); what is on each is asked list by list.
        if type == .taskList, title == nil, status == nil, priority == nil, let lists {
            response["listTitles"] = .array(lists.compactMap { $0["title"] })
        }
        if type == .task { response["tasks"] = json(try await store.tasks(titled: only, status: status, priority: priority)) }
        if type == nil || type == .note {
            // "find notes mentioning wifi": those whose title or text says it.
            var notes = try await store.notes(titled: only).filter { note in intent.content.map { Self.says($0, note) } ?? true }
            // Words no list or note is titled: looked for in what notes say.
            if notes.isEmpty, let title = only?.first {
                let titledLists = if let lists { lists } else { try await store.lists(titled: only) }
                if titledLists.isEmpty { notes = try await notesSaying(title, intent) }
            }
            if type != nil || !notes.isEmpty { response["notes"] = json(notes) }
        }
        // "what's on my list?" with no list (nor note) at all.
        if only == nil, lists?.isEmpty == true, response["notes"]?.arrayValue?.isEmpty ?? true { response["listTitles"] = [] }
        return SearchForNotebookItemsResponse(.success, response)
    }
}

/// SnoozeTasks: moves the reminders of the named tasks (or all open tasks) to a later time.
struct SnoozeTasksHandler: SnoozeTasksIntentHandling {
    let store: NotebookStore

    func resolveTasks(for intent: SnoozeTasksIntent) async throws -> [ResolutionResult] {
        let said = intent.tasks
        if said.isEmpty { return [intent.all == true ? .notRequired : .needsValue] }
        let titles = try await store.taskTitles()
        return said.map { resolveTitle($0, among: titles) }
    }

    /// A snooze puts reminders off: a time before a named task's reminder would bring it
    /// forward ("by an hour", read from now, where the reminder is tomorrow) and is refused
    /// (`beforeReminder`), so that the user says until when.
    func resolveNextTriggerTime(for intent: SnoozeTasksIntent) async throws -> ResolutionResult {
        let result = intent.intent.defaultResult(of: "nextTriggerTime", required: true)
        guard let time = intent.nextTriggerTime.flatMap({ IntentMoment($0)?.date }) else { return result }
        // No task named: every open task is snoozed ("snooze all my reminders for an hour").
        let reminders = try await store.reminders(of: intent.tasks.isEmpty ? nil : intent.tasks).compactMap { IntentMoment($0)?.date }
        return reminders.contains(where: { $0 > time }) ? .unsupported(reason: "beforeReminder") : result
    }

    func handle(intent: SnoozeTasksIntent) async throws -> SnoozeTasksResponse {
        guard let time = intent.nextTriggerTime else { return SnoozeTasksResponse(.failure) }
        let titles = intent.tasks
        let snoozed = try await store.snooze(titles.isEmpty ? nil : titles, until: time)
        return SnoozeTasksResponse(snoozed.isEmpty ? .failure : .success, ["snoozedTasks": json(snoozed)])
    }
}

/// DeleteTasks: removes the named tasks (or all of them) from a list.
struct DeleteTasksHandler: DeleteTasksIntentHandling {
    let store: NotebookStore

    /// No list said ("delete buns"): the list with every task named on it, or which of the
    /// lists that have them is asked ("From which list: 1. groceries or 2. party?").
    func resolveTaskList(for intent: DeleteTasksIntent) async throws -> ResolutionResult {
        let lists = try await store.listTitles()
        let names = taskTitles(intent.tasks)
        guard intent.taskList == nil, !names.isEmpty else { return resolveTitle(intent.taskList, among: lists) }
        let titles = Dictionary(grouping: try await store.allTasksWithLists(), by: \.list).mapValues { $0.map(\.task.title) }
        let having = lists.filter { list in names.allSatisfy { !TitleMatcher.named($0, among: titles[list] ?? []).isEmpty } }
        switch having.count {
        // "delete the wifi note": no list to ask for; handle says notes are kept.
        case 0: return try await Self.namesNotes(names, store) ? .notRequired : .needsValue
        case 1: return .success(.string(having[0]))
        default: return .disambiguation(having.prefix(ResolutionResult.maximumOptions).map { .string($0) })
        }
    }

    /// No task named and not all of them ("remove an item from the garage list"): which
    /// ones is asked, never taken for all. A task named that the list does not have is
    /// unsupported (`notOnList`): the user hears it before being asked to confirm, and
    /// nothing is said deleted that was not. A task is confirmed as the list spells it
    /// ("EGGS" is "Eggs"), and named once: a name of tasks named before is not required.
    /// A name the list has on a task to do and on one done ("napkins" bought, then added
    /// again) is asked about: "Which one: 1. napkins (to do) or 2. napkins (done)?".
    func resolveTasks(for intent: DeleteTasksIntent) async throws -> [ResolutionResult] {
        let said = Self.tasks(intent)
        if said.isEmpty { return [intent.all == true ? .notRequired : .needsValue] }
        guard let title = intent.taskList, let onList = try await store.tasks(onList: title) else {
            return intent.intent.defaultResolution(of: "tasks", required: false)
        }
        let open = onList.map(\.title)
        var named = Set<String>()
        return said.map { value in
            // One chosen from those of one name: the tasks it names, if still on the list.
            if let chosen = Self.chosen(value) {
                return onList.contains { chosen.contains($0.identifier) } ? .success(value) : .unsupported(reason: "notOnList")
            }
            guard let value = value.stringValue else { return .unsupported(reason: "notOnList") }
            let found = taskTitles([value]).map { TitleMatcher.named($0, among: open) }
            // No name at all (blank): kept as said, so that handle refuses it rather than
            // the list being emptied.
            if found.isEmpty { return .success(.string(value)) }
            guard found.allSatisfy({ !$0.isEmpty }) else { return .unsupported(reason: "notOnList") }
            let new = found.joined().filter { named.insert($0).inserted }
            if new.isEmpty { return .notRequired }
            // One name, of tasks to do and of tasks done (but for case): which ones is asked.
            if found.count == 1, let name = new.first {
                let titled = onList.filter { found[0].contains($0.title) }
                let done = titled.filter { $0.status == "completed" }, toDo = titled.filter { $0.status != "completed" }
                if !done.isEmpty, !toDo.isEmpty {
                    return .disambiguation([(toDo, "to do"), (done, "done")].map { tasks, state in
                        .object(["title": .string("\(name) (\(state))"), "identifiers": .array(tasks.map { .string($0.identifier) })])
                    })
                }
            }
            return found.count == 1 && new.count == 1 ? .success(.string(new[0])) : .success(.string(value))
        }
    }

    /// Whether every one of `names` is a note's title, said with or without "note".
    private static func namesNotes(_ names: [String], _ store: NotebookStore) async throws -> Bool {
        let notes = try await store.noteTitles()
        return !names.isEmpty && names.allSatisfy { TitleMatcher.isNoteTitle($0, among: notes) }
    }

    /// The tasks named, as sent: names, and choices among those of one name.
    private static func tasks(_ intent: DeleteTasksIntent) -> [JSONValue] {
        intent.intent.parameters["tasks"].map { $0.arrayValue ?? [$0] } ?? []
    }

    /// The identifiers of the tasks a choice among those of one name stands for.
    private static func chosen(_ value: JSONValue) -> Set<String>? {
        value.objectValue?["identifiers"]?.arrayValue.map { Set($0.compactMap(\.stringValue)) }
    }

    /// Notes named where tasks are to be deleted ("delete the wifi note") are refused
    /// before the user is asked to confirm anything.
    func confirm(intent: DeleteTasksIntent) async throws -> DeleteTasksResponse {
        if intent.taskList == nil, try await Self.namesNotes(taskTitles(intent.tasks), store) {
            return DeleteTasksResponse(.failure, ["reason": "notes are kept; only tasks can be deleted"])
        }
        return DeleteTasksResponse(.ready)
    }

    func handle(intent: DeleteTasksIntent) async throws -> DeleteTasksResponse {
        guard let list = intent.taskList else { return DeleteTasksResponse(.failure) }
        let said = Self.tasks(intent)
        let titles = taskTitles(intent.tasks)
        let chosen = said.compactMap(Self.chosen).reduce(into: Set<String>()) { $0.formUnion($1) }
        // Tasks named are the ones deleted, whatever else was said ("remove eggs, all of
        // them" deletes eggs: the question named only eggs). No task named (only blank
        // ones), and not all of them: nothing to delete.
        if said.isEmpty ? intent.all != true : titles.isEmpty && chosen.isEmpty { return DeleteTasksResponse(.failure) }
        let all = said.isEmpty
        guard let deleted = try await store.deleteTasks(all ? nil : titles, identifiers: chosen, fromList: list) else {
            return DeleteTasksResponse(.failure)
        }
        // None of the named tasks is on the list: nothing was deleted, so no success.
        if !all, deleted.isEmpty { return DeleteTasksResponse(.failure) }
        // The words say what was deleted, as the list spells it ("Eggs" deletes "eggs"), or
        // that the list was cleared.
        if all { return DeleteTasksResponse(.success, ["deletedTasks": json(deleted)]) }
        return DeleteTasksResponse(.success, ["deletedTasks": json(deleted), "tasks": .array(deleted.map { .string($0.title) })])
    }
}

/// CreateNote: a new note.
struct CreateNoteHandler: CreateNoteIntentHandling {
    let store: NotebookStore
    let names: NotebookNames

    /// A title a note already has is unsupported: two notes of one name could not be told apart.
    func resolveTitle(for intent: CreateNoteIntent) async throws -> ResolutionResult {
        resolveNewTitle(intent.title, among: try await store.noteTitles())
    }

    func handle(intent: CreateNoteIntent) async throws -> CreateNoteResponse {
        guard let title = intent.title else { return CreateNoteResponse(.failure) }
        let note = try await store.createNote(title, content: intent.content ?? "", group: intent.groupName)
        try? await names.publish()
        return CreateNoteResponse(.success, ["createdNote": json(note)])
    }
}

/// AppendToNote: adds a line to a note found by title.
struct AppendToNoteHandler: AppendToNoteIntentHandling {
    let store: NotebookStore

    func resolveTargetNote(for intent: AppendToNoteIntent) async throws -> ResolutionResult {
        resolveTitle(intent.targetNote, among: try await store.noteTitles())
    }

    func handle(intent: AppendToNoteIntent) async throws -> AppendToNoteResponse {
        guard let title = intent.targetNote, let content = intent.content,
            let note = try await store.append(content, toNote: title)
        else { return AppendToNoteResponse(.failure) }
        return AppendToNoteResponse(.success, ["note": json(note)])
    }
}
