// Generated from Protocols/domains by TypedDomainsTests: do not edit by hand.
// Notes, task lists and tasks: create, append, add, mark done, search, snooze and delete. SiriKit's Lists and Notes domain.

// MARK: - CreateNote

/// Create a note with a title and content (INCreateNoteIntent).
public struct CreateNoteIntent: TypedIntent {
    public static let name = "CreateNote"
    public let intent: Intent

    public init(_ intent: Intent) { self.intent = intent }

    /// What should the note be called?
    public var title: String? { intent.string("title") }

    /// What should it say?
    public var content: String? { intent.string("content") }

    /// Which folder should it go in?
    public var groupName: String? { intent.string("groupName") }
}

/// CreateNote's response codes, with SiriKit's numbers.
public enum CreateNoteResponseCode: String, Sendable, CaseIterable {
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        }
    }
}

/// A typed response to CreateNote.
public typealias CreateNoteResponse = TypedResponse<CreateNoteResponseCode>

/// Handles CreateNote with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol CreateNoteIntentHandling: IntentHandler {
    func resolveTitle(for intent: CreateNoteIntent) async throws -> ResolutionResult
    func resolveContent(for intent: CreateNoteIntent) async throws -> ResolutionResult
    func resolveGroupName(for intent: CreateNoteIntent) async throws -> ResolutionResult
    func confirm(intent: CreateNoteIntent) async throws -> CreateNoteResponse
    func handle(intent: CreateNoteIntent) async throws -> CreateNoteResponse
}

extension CreateNoteIntentHandling {
    public func resolveTitle(for intent: CreateNoteIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "title", required: true)
    }

    public func resolveContent(for intent: CreateNoteIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "content", required: false)
    }

    public func resolveGroupName(for intent: CreateNoteIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "groupName", required: false)
    }

    public func confirm(intent: CreateNoteIntent) async throws -> CreateNoteResponse { CreateNoteResponse(.ready) }

    public var resolvers: [String: Resolver] {
        [
            "title": .single { try await resolveTitle(for: CreateNoteIntent($0)) },
            "content": .single { try await resolveContent(for: CreateNoteIntent($0)) },
            "groupName": .single { try await resolveGroupName(for: CreateNoteIntent($0)) },
        ]
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: CreateNoteIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: CreateNoteIntent(intent)).response }
}

// MARK: - AppendToNote

/// Add content to the end of an existing note (INAppendToNoteIntent).
public struct AppendToNoteIntent: TypedIntent {
    public static let name = "AppendToNote"
    public let intent: Intent

    public init(_ intent: Intent) { self.intent = intent }

    /// Which note?
    public var targetNote: String? { intent.string("targetNote") }

    /// What should I add?
    public var content: String? { intent.string("content") }
}

/// AppendToNote's response codes, with SiriKit's numbers.
public enum AppendToNoteResponseCode: String, Sendable, CaseIterable {
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch, failureCannotUpdatePasswordProtectedNote

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        case .failureCannotUpdatePasswordProtectedNote: 6
        }
    }
}

/// A typed response to AppendToNote.
public typealias AppendToNoteResponse = TypedResponse<AppendToNoteResponseCode>

/// Handles AppendToNote with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol AppendToNoteIntentHandling: IntentHandler {
    func resolveTargetNote(for intent: AppendToNoteIntent) async throws -> ResolutionResult
    func resolveContent(for intent: AppendToNoteIntent) async throws -> ResolutionResult
    func confirm(intent: AppendToNoteIntent) async throws -> AppendToNoteResponse
    func handle(intent: AppendToNoteIntent) async throws -> AppendToNoteResponse
}

extension AppendToNoteIntentHandling {
    public func resolveTargetNote(for intent: AppendToNoteIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "targetNote", required: true)
    }

    public func resolveContent(for intent: AppendToNoteIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "content", required: true)
    }

    public func confirm(intent: AppendToNoteIntent) async throws -> AppendToNoteResponse { AppendToNoteResponse(.ready) }

    public var resolvers: [String: Resolver] {
        [
            "targetNote": .single { try await resolveTargetNote(for: AppendToNoteIntent($0)) },
            "content": .single { try await resolveContent(for: AppendToNoteIntent($0)) },
        ]
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: AppendToNoteIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: AppendToNoteIntent(intent)).response }
}

// MARK: - AddTasks

/// Add one or more tasks to a task list (INAddTasksIntent).
public struct AddTasksIntent: TypedIntent {
    public static let name = "AddTasks"
    public let intent: Intent

    public init(_ intent: Intent) { self.intent = intent }

    /// Which list?
    public var targetTaskList: String? { intent.string("targetTaskList") }

    /// What should I add?
    public var taskTitles: [String] { intent.strings("taskTitles") }

    /// Where should I remind you?
    public var spatialEventTrigger: Place? { intent.place("spatialEventTrigger") }

    /// When should I remind you?
    public var temporalEventTrigger: String? { intent.string("temporalEventTrigger") }

    /// Should it be flagged?
    public var priority: Priority? { intent.string("priority").flatMap(Priority.init(rawValue:)) }

    /// The values of `priority`.
    public enum Priority: String, Sendable, CaseIterable {
        case notFlagged, flagged
    }
}

/// AddTasks's response codes, with SiriKit's numbers.
public enum AddTasksResponseCode: String, Sendable, CaseIterable {
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        }
    }
}

/// A typed response to AddTasks.
public typealias AddTasksResponse = TypedResponse<AddTasksResponseCode>

/// Handles AddTasks with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol AddTasksIntentHandling: IntentHandler {
    func resolveTargetTaskList(for intent: AddTasksIntent) async throws -> ResolutionResult
    func resolveTaskTitles(for intent: AddTasksIntent) async throws -> [ResolutionResult]
    func resolveSpatialEventTrigger(for intent: AddTasksIntent) async throws -> ResolutionResult
    func resolveTemporalEventTrigger(for intent: AddTasksIntent) async throws -> ResolutionResult
    func resolvePriority(for intent: AddTasksIntent) async throws -> ResolutionResult
    func confirm(intent: AddTasksIntent) async throws -> AddTasksResponse
    func handle(intent: AddTasksIntent) async throws -> AddTasksResponse
}

extension AddTasksIntentHandling {
    public func resolveTargetTaskList(for intent: AddTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "targetTaskList", required: true)
    }

    public func resolveTaskTitles(for intent: AddTasksIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "taskTitles", required: true)
    }

    public func resolveSpatialEventTrigger(for intent: AddTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "spatialEventTrigger", required: false)
    }

    public func resolveTemporalEventTrigger(for intent: AddTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "temporalEventTrigger", required: false)
    }

    public func resolvePriority(for intent: AddTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "priority", required: false)
    }

    public func confirm(intent: AddTasksIntent) async throws -> AddTasksResponse { AddTasksResponse(.ready) }

    public var resolvers: [String: Resolver] {
        [
            "targetTaskList": .single { try await resolveTargetTaskList(for: AddTasksIntent($0)) },
            "taskTitles": .list { try await resolveTaskTitles(for: AddTasksIntent($0)) },
            "spatialEventTrigger": .single { try await resolveSpatialEventTrigger(for: AddTasksIntent($0)) },
            "temporalEventTrigger": .single { try await resolveTemporalEventTrigger(for: AddTasksIntent($0)) },
            "priority": .single { try await resolvePriority(for: AddTasksIntent($0)) },
        ]
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: AddTasksIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: AddTasksIntent(intent)).response }
}

// MARK: - CreateTaskList

/// Create a task list, optionally with tasks (INCreateTaskListIntent).
public struct CreateTaskListIntent: TypedIntent {
    public static let name = "CreateTaskList"
    public let intent: Intent

    public init(_ intent: Intent) { self.intent = intent }

    /// What should the list be called?
    public var title: String? { intent.string("title") }

    /// What should be on it?
    public var taskTitles: [String] { intent.strings("taskTitles") }

    /// Which group should it go in?
    public var groupName: String? { intent.string("groupName") }
}

/// CreateTaskList's response codes, with SiriKit's numbers.
public enum CreateTaskListResponseCode: String, Sendable, CaseIterable {
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        }
    }
}

/// A typed response to CreateTaskList.
public typealias CreateTaskListResponse = TypedResponse<CreateTaskListResponseCode>

/// Handles CreateTaskList with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol CreateTaskListIntentHandling: IntentHandler {
    func resolveTitle(for intent: CreateTaskListIntent) async throws -> ResolutionResult
    func resolveTaskTitles(for intent: CreateTaskListIntent) async throws -> [ResolutionResult]
    func resolveGroupName(for intent: CreateTaskListIntent) async throws -> ResolutionResult
    func confirm(intent: CreateTaskListIntent) async throws -> CreateTaskListResponse
    func handle(intent: CreateTaskListIntent) async throws -> CreateTaskListResponse
}

extension CreateTaskListIntentHandling {
    public func resolveTitle(for intent: CreateTaskListIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "title", required: true)
    }

    public func resolveTaskTitles(for intent: CreateTaskListIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "taskTitles", required: false)
    }

    public func resolveGroupName(for intent: CreateTaskListIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "groupName", required: false)
    }

    public func confirm(intent: CreateTaskListIntent) async throws -> CreateTaskListResponse { CreateTaskListResponse(.ready) }

    public var resolvers: [String: Resolver] {
        [
            "title": .single { try await resolveTitle(for: CreateTaskListIntent($0)) },
            "taskTitles": .list { try await resolveTaskTitles(for: CreateTaskListIntent($0)) },
            "groupName": .single { try await resolveGroupName(for: CreateTaskListIntent($0)) },
        ]
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: CreateTaskListIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: CreateTaskListIntent(intent)).response }
}

// MARK: - SetTaskAttribute

/// Mark a task done or not done, flag it, or set its reminder (INSetTaskAttributeIntent).
public struct SetTaskAttributeIntent: TypedIntent {
    public static let name = "SetTaskAttribute"
    public let intent: Intent

    public init(_ intent: Intent) { self.intent = intent }

    /// Which task?
    public var targetTask: String? { intent.string("targetTask") }

    /// What should the task be called?
    public var taskTitle: String? { intent.string("taskTitle") }

    /// Done or not done?
    public var status: Status? { intent.string("status").flatMap(Status.init(rawValue:)) }

    /// Should it be flagged?
    public var priority: Priority? { intent.string("priority").flatMap(Priority.init(rawValue:)) }

    /// When should I remind you?
    public var temporalEventTrigger: String? { intent.string("temporalEventTrigger") }

    /// The values of `status`.
    public enum Status: String, Sendable, CaseIterable {
        case notCompleted, completed
    }

    /// The values of `priority`.
    public enum Priority: String, Sendable, CaseIterable {
        case notFlagged, flagged
    }
}

/// SetTaskAttribute's response codes, with SiriKit's numbers.
public enum SetTaskAttributeResponseCode: String, Sendable, CaseIterable {
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        }
    }
}

/// A typed response to SetTaskAttribute.
public typealias SetTaskAttributeResponse = TypedResponse<SetTaskAttributeResponseCode>

/// Handles SetTaskAttribute with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol SetTaskAttributeIntentHandling: IntentHandler {
    func resolveTargetTask(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult
    func resolveTaskTitle(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult
    func resolveStatus(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult
    func resolvePriority(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult
    func resolveTemporalEventTrigger(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult
    func confirm(intent: SetTaskAttributeIntent) async throws -> SetTaskAttributeResponse
    func handle(intent: SetTaskAttributeIntent) async throws -> SetTaskAttributeResponse
}

extension SetTaskAttributeIntentHandling {
    public func resolveTargetTask(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "targetTask", required: true)
    }

    public func resolveTaskTitle(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "taskTitle", required: false)
    }

    public func resolveStatus(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "status", required: false)
    }

    public func resolvePriority(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "priority", required: false)
    }

    public func resolveTemporalEventTrigger(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "temporalEventTrigger", required: false)
    }

    public func confirm(intent: SetTaskAttributeIntent) async throws -> SetTaskAttributeResponse { SetTaskAttributeResponse(.ready) }

    public var resolvers: [String: Resolver] {
        [
            "targetTask": .single { try await resolveTargetTask(for: SetTaskAttributeIntent($0)) },
            "taskTitle": .single { try await resolveTaskTitle(for: SetTaskAttributeIntent($0)) },
            "status": .single { try await resolveStatus(for: SetTaskAttributeIntent($0)) },
            "priority": .single { try await resolvePriority(for: SetTaskAttributeIntent($0)) },
            "temporalEventTrigger": .single { try await resolveTemporalEventTrigger(for: SetTaskAttributeIntent($0)) },
        ]
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: SetTaskAttributeIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: SetTaskAttributeIntent(intent)).response }
}

// MARK: - SearchForNotebookItems

/// Find task lists, tasks and notes (INSearchForNotebookItemsIntent).
public struct SearchForNotebookItemsIntent: TypedIntent {
    public static let name = "SearchForNotebookItems"
    public let intent: Intent

    public init(_ intent: Intent) { self.intent = intent }

    /// What is it called?
    public var title: String? { intent.string("title") }

    /// What does it say?
    public var content: String? { intent.string("content") }

    /// A task, a list or a note?
    public var itemType: ItemType? { intent.string("itemType").flatMap(ItemType.init(rawValue:)) }

    /// Done or not done?
    public var status: Status? { intent.string("status").flatMap(Status.init(rawValue:)) }

    /// Where?
    public var location: Place? { intent.place("location") }

    /// From when?
    public var dateTime: String? { intent.string("dateTime") }

    /// The values of `itemType`.
    public enum ItemType: String, Sendable, CaseIterable {
        case task, taskList, note
    }

    /// The values of `status`.
    public enum Status: String, Sendable, CaseIterable {
        case notCompleted, completed
    }
}

/// SearchForNotebookItems's response codes, with SiriKit's numbers.
public enum SearchForNotebookItemsResponseCode: String, Sendable, CaseIterable {
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        }
    }
}

/// A typed response to SearchForNotebookItems.
public typealias SearchForNotebookItemsResponse = TypedResponse<SearchForNotebookItemsResponseCode>

/// Handles SearchForNotebookItems with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol SearchForNotebookItemsIntentHandling: IntentHandler {
    func resolveTitle(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    func resolveContent(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    func resolveItemType(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    func resolveStatus(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    func resolveLocation(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    func resolveDateTime(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    func confirm(intent: SearchForNotebookItemsIntent) async throws -> SearchForNotebookItemsResponse
    func handle(intent: SearchForNotebookItemsIntent) async throws -> SearchForNotebookItemsResponse
}

extension SearchForNotebookItemsIntentHandling {
    public func resolveTitle(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "title", required: false)
    }

    public func resolveContent(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "content", required: false)
    }

    public func resolveItemType(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "itemType", required: false)
    }

    public func resolveStatus(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "status", required: false)
    }

    public func resolveLocation(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "location", required: false)
    }

    public func resolveDateTime(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "dateTime", required: false)
    }

    public func confirm(intent: SearchForNotebookItemsIntent) async throws -> SearchForNotebookItemsResponse { SearchForNotebookItemsResponse(.ready) }

    public var resolvers: [String: Resolver] {
        [
            "title": .single { try await resolveTitle(for: SearchForNotebookItemsIntent($0)) },
            "content": .single { try await resolveContent(for: SearchForNotebookItemsIntent($0)) },
            "itemType": .single { try await resolveItemType(for: SearchForNotebookItemsIntent($0)) },
            "status": .single { try await resolveStatus(for: SearchForNotebookItemsIntent($0)) },
            "location": .single { try await resolveLocation(for: SearchForNotebookItemsIntent($0)) },
            "dateTime": .single { try await resolveDateTime(for: SearchForNotebookItemsIntent($0)) },
        ]
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: SearchForNotebookItemsIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: SearchForNotebookItemsIntent(intent)).response }
}

// MARK: - SnoozeTasks

/// Postpone the reminders of tasks (INSnoozeTasksIntent).
public struct SnoozeTasksIntent: TypedIntent {
    public static let name = "SnoozeTasks"
    public let intent: Intent

    public init(_ intent: Intent) { self.intent = intent }

    /// Which tasks?
    public var tasks: [String] { intent.strings("tasks") }

    /// Until when?
    public var nextTriggerTime: String? { intent.string("nextTriggerTime") }

    /// All of them?
    public var all: Bool? { intent.bool("all") }
}

/// SnoozeTasks's response codes, with SiriKit's numbers.
public enum SnoozeTasksResponseCode: String, Sendable, CaseIterable {
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        }
    }
}

/// A typed response to SnoozeTasks.
public typealias SnoozeTasksResponse = TypedResponse<SnoozeTasksResponseCode>

/// Handles SnoozeTasks with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol SnoozeTasksIntentHandling: IntentHandler {
    func resolveTasks(for intent: SnoozeTasksIntent) async throws -> [ResolutionResult]
    func resolveNextTriggerTime(for intent: SnoozeTasksIntent) async throws -> ResolutionResult
    func resolveAll(for intent: SnoozeTasksIntent) async throws -> ResolutionResult
    func confirm(intent: SnoozeTasksIntent) async throws -> SnoozeTasksResponse
    func handle(intent: SnoozeTasksIntent) async throws -> SnoozeTasksResponse
}

extension SnoozeTasksIntentHandling {
    public func resolveTasks(for intent: SnoozeTasksIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "tasks", required: false)
    }

    public func resolveNextTriggerTime(for intent: SnoozeTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "nextTriggerTime", required: true)
    }

    public func resolveAll(for intent: SnoozeTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "all", required: false)
    }

    public func confirm(intent: SnoozeTasksIntent) async throws -> SnoozeTasksResponse { SnoozeTasksResponse(.ready) }

    public var resolvers: [String: Resolver] {
        [
            "tasks": .list { try await resolveTasks(for: SnoozeTasksIntent($0)) },
            "nextTriggerTime": .single { try await resolveNextTriggerTime(for: SnoozeTasksIntent($0)) },
            "all": .single { try await resolveAll(for: SnoozeTasksIntent($0)) },
        ]
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: SnoozeTasksIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: SnoozeTasksIntent(intent)).response }
}

// MARK: - DeleteTasks

/// Delete tasks from a task list (INDeleteTasksIntent).
public struct DeleteTasksIntent: TypedIntent {
    public static let name = "DeleteTasks"
    public let intent: Intent

    public init(_ intent: Intent) { self.intent = intent }

    /// From which list?
    public var taskList: String? { intent.string("taskList") }

    /// Which tasks?
    public var tasks: [String] { intent.strings("tasks") }

    /// All of them?
    public var all: Bool? { intent.bool("all") }
}

/// DeleteTasks's response codes, with SiriKit's numbers.
public enum DeleteTasksResponseCode: String, Sendable, CaseIterable {
    case unspecified, ready, inProgress, success, failure, failureRequiringAppLaunch

    /// SiriKit's number for the code.
    public var value: Int {
        switch self {
        case .unspecified: 0
        case .ready: 1
        case .inProgress: 2
        case .success: 3
        case .failure: 4
        case .failureRequiringAppLaunch: 5
        }
    }
}

/// A typed response to DeleteTasks.
public typealias DeleteTasksResponse = TypedResponse<DeleteTasksResponseCode>

/// Handles DeleteTasks with typed intents: one resolve method per parameter (each defaults to
/// the value as given), then confirm (defaults to ready), then handle.
public protocol DeleteTasksIntentHandling: IntentHandler {
    func resolveTaskList(for intent: DeleteTasksIntent) async throws -> ResolutionResult
    func resolveTasks(for intent: DeleteTasksIntent) async throws -> [ResolutionResult]
    func resolveAll(for intent: DeleteTasksIntent) async throws -> ResolutionResult
    func confirm(intent: DeleteTasksIntent) async throws -> DeleteTasksResponse
    func handle(intent: DeleteTasksIntent) async throws -> DeleteTasksResponse
}

extension DeleteTasksIntentHandling {
    public func resolveTaskList(for intent: DeleteTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "taskList", required: true)
    }

    public func resolveTasks(for intent: DeleteTasksIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "tasks", required: false)
    }

    public func resolveAll(for intent: DeleteTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "all", required: false)
    }

    public func confirm(intent: DeleteTasksIntent) async throws -> DeleteTasksResponse { DeleteTasksResponse(.ready) }

    public var resolvers: [String: Resolver] {
        [
            "taskList": .single { try await resolveTaskList(for: DeleteTasksIntent($0)) },
            "tasks": .list { try await resolveTasks(for: DeleteTasksIntent($0)) },
            "all": .single { try await resolveAll(for: DeleteTasksIntent($0)) },
        ]
    }

    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: DeleteTasksIntent(intent)).response }

    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: DeleteTasksIntent(intent)).response }
}
