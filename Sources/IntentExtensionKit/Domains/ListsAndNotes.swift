// Generated from Protocols/domains by TypedDomainsTests: do not edit by hand.
// Notes, task lists and tasks: create, append, add, mark done, search, snooze and delete. SiriKit's Lists and Notes domain.

// MARK: - CreateNote

/// Create a note with a title and content (INCreateNoteIntent).
public struct CreateNoteIntent: TypedIntent {
    /// The catalog name.
    public static let name = "CreateNote"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
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
    /// The codes, by SiriKit's names.
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
    /// Resolves `title`.
    func resolveTitle(for intent: CreateNoteIntent) async throws -> ResolutionResult
    /// Resolves `content`.
    func resolveContent(for intent: CreateNoteIntent) async throws -> ResolutionResult
    /// Resolves `groupName`.
    func resolveGroupName(for intent: CreateNoteIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: CreateNoteIntent) async throws -> CreateNoteResponse
    /// Does it, and describes the result.
    func handle(intent: CreateNoteIntent) async throws -> CreateNoteResponse
}

extension CreateNoteIntentHandling {
    /// By default, `title` as given; needsValue when missing.
    public func resolveTitle(for intent: CreateNoteIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "title", required: true)
    }

    /// By default, `content` as given.
    public func resolveContent(for intent: CreateNoteIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "content", required: false)
    }

    /// By default, `groupName` as given.
    public func resolveGroupName(for intent: CreateNoteIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "groupName", required: false)
    }

    /// By default, ready.
    public func confirm(intent: CreateNoteIntent) async throws -> CreateNoteResponse { CreateNoteResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "title": .single { try await resolveTitle(for: CreateNoteIntent($0)) },
            "content": .single { try await resolveContent(for: CreateNoteIntent($0)) },
            "groupName": .single { try await resolveGroupName(for: CreateNoteIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: CreateNoteIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: CreateNoteIntent(intent)).response }
}

// MARK: - AppendToNote

/// Add content to the end of an existing note (INAppendToNoteIntent).
public struct AppendToNoteIntent: TypedIntent {
    /// The catalog name.
    public static let name = "AppendToNote"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
    public init(_ intent: Intent) { self.intent = intent }

    /// Which note?
    public var targetNote: String? { intent.string("targetNote") }

    /// What should I add?
    public var content: String? { intent.string("content") }
}

/// AppendToNote's response codes, with SiriKit's numbers.
public enum AppendToNoteResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
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
    /// Resolves `targetNote`.
    func resolveTargetNote(for intent: AppendToNoteIntent) async throws -> ResolutionResult
    /// Resolves `content`.
    func resolveContent(for intent: AppendToNoteIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: AppendToNoteIntent) async throws -> AppendToNoteResponse
    /// Does it, and describes the result.
    func handle(intent: AppendToNoteIntent) async throws -> AppendToNoteResponse
}

extension AppendToNoteIntentHandling {
    /// By default, `targetNote` as given; needsValue when missing.
    public func resolveTargetNote(for intent: AppendToNoteIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "targetNote", required: true)
    }

    /// By default, `content` as given; needsValue when missing.
    public func resolveContent(for intent: AppendToNoteIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "content", required: true)
    }

    /// By default, ready.
    public func confirm(intent: AppendToNoteIntent) async throws -> AppendToNoteResponse { AppendToNoteResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "targetNote": .single { try await resolveTargetNote(for: AppendToNoteIntent($0)) },
            "content": .single { try await resolveContent(for: AppendToNoteIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: AppendToNoteIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: AppendToNoteIntent(intent)).response }
}

// MARK: - AddTasks

/// Add one or more tasks to a task list (INAddTasksIntent).
public struct AddTasksIntent: TypedIntent {
    /// The catalog name.
    public static let name = "AddTasks"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
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
        /// The catalog's values.
        case notFlagged, flagged
    }
}

/// AddTasks's response codes, with SiriKit's numbers.
public enum AddTasksResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
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
    /// Resolves `targetTaskList`.
    func resolveTargetTaskList(for intent: AddTasksIntent) async throws -> ResolutionResult
    /// Resolves `taskTitles`, one result per value.
    func resolveTaskTitles(for intent: AddTasksIntent) async throws -> [ResolutionResult]
    /// Resolves `spatialEventTrigger`.
    func resolveSpatialEventTrigger(for intent: AddTasksIntent) async throws -> ResolutionResult
    /// Resolves `temporalEventTrigger`.
    func resolveTemporalEventTrigger(for intent: AddTasksIntent) async throws -> ResolutionResult
    /// Resolves `priority`.
    func resolvePriority(for intent: AddTasksIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: AddTasksIntent) async throws -> AddTasksResponse
    /// Does it, and describes the result.
    func handle(intent: AddTasksIntent) async throws -> AddTasksResponse
}

extension AddTasksIntentHandling {
    /// By default, `targetTaskList` as given; needsValue when missing.
    public func resolveTargetTaskList(for intent: AddTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "targetTaskList", required: true)
    }

    /// By default, `taskTitles` as given; needsValue when missing.
    public func resolveTaskTitles(for intent: AddTasksIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "taskTitles", required: true)
    }

    /// By default, `spatialEventTrigger` as given.
    public func resolveSpatialEventTrigger(for intent: AddTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "spatialEventTrigger", required: false)
    }

    /// By default, `temporalEventTrigger` as given.
    public func resolveTemporalEventTrigger(for intent: AddTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "temporalEventTrigger", required: false)
    }

    /// By default, `priority` as given.
    public func resolvePriority(for intent: AddTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "priority", required: false)
    }

    /// By default, ready.
    public func confirm(intent: AddTasksIntent) async throws -> AddTasksResponse { AddTasksResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "targetTaskList": .single { try await resolveTargetTaskList(for: AddTasksIntent($0)) },
            "taskTitles": .list { try await resolveTaskTitles(for: AddTasksIntent($0)) },
            "spatialEventTrigger": .single { try await resolveSpatialEventTrigger(for: AddTasksIntent($0)) },
            "temporalEventTrigger": .single { try await resolveTemporalEventTrigger(for: AddTasksIntent($0)) },
            "priority": .single { try await resolvePriority(for: AddTasksIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: AddTasksIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: AddTasksIntent(intent)).response }
}

// MARK: - CreateTaskList

/// Create a task list, optionally with tasks and a reminder on each (INCreateTaskListIntent; the reminder is this catalog's addition).
public struct CreateTaskListIntent: TypedIntent {
    /// The catalog name.
    public static let name = "CreateTaskList"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
    public init(_ intent: Intent) { self.intent = intent }

    /// What should the list be called?
    public var title: String? { intent.string("title") }

    /// What should be on it?
    public var taskTitles: [String] { intent.strings("taskTitles") }

    /// Which group should it go in?
    public var groupName: String? { intent.string("groupName") }

    /// When should I remind you?
    public var temporalEventTrigger: String? { intent.string("temporalEventTrigger") }
}

/// CreateTaskList's response codes, with SiriKit's numbers.
public enum CreateTaskListResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
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
    /// Resolves `title`.
    func resolveTitle(for intent: CreateTaskListIntent) async throws -> ResolutionResult
    /// Resolves `taskTitles`, one result per value.
    func resolveTaskTitles(for intent: CreateTaskListIntent) async throws -> [ResolutionResult]
    /// Resolves `groupName`.
    func resolveGroupName(for intent: CreateTaskListIntent) async throws -> ResolutionResult
    /// Resolves `temporalEventTrigger`.
    func resolveTemporalEventTrigger(for intent: CreateTaskListIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: CreateTaskListIntent) async throws -> CreateTaskListResponse
    /// Does it, and describes the result.
    func handle(intent: CreateTaskListIntent) async throws -> CreateTaskListResponse
}

extension CreateTaskListIntentHandling {
    /// By default, `title` as given; needsValue when missing.
    public func resolveTitle(for intent: CreateTaskListIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "title", required: true)
    }

    /// By default, `taskTitles` as given.
    public func resolveTaskTitles(for intent: CreateTaskListIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "taskTitles", required: false)
    }

    /// By default, `groupName` as given.
    public func resolveGroupName(for intent: CreateTaskListIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "groupName", required: false)
    }

    /// By default, `temporalEventTrigger` as given.
    public func resolveTemporalEventTrigger(for intent: CreateTaskListIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "temporalEventTrigger", required: false)
    }

    /// By default, ready.
    public func confirm(intent: CreateTaskListIntent) async throws -> CreateTaskListResponse { CreateTaskListResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "title": .single { try await resolveTitle(for: CreateTaskListIntent($0)) },
            "taskTitles": .list { try await resolveTaskTitles(for: CreateTaskListIntent($0)) },
            "groupName": .single { try await resolveGroupName(for: CreateTaskListIntent($0)) },
            "temporalEventTrigger": .single { try await resolveTemporalEventTrigger(for: CreateTaskListIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: CreateTaskListIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: CreateTaskListIntent(intent)).response }
}

// MARK: - SetTaskAttribute

/// Mark a task done or not done, flag it, or set its reminder (INSetTaskAttributeIntent; taskList, the list a task of that title is on, is this catalog's own).
public struct SetTaskAttributeIntent: TypedIntent {
    /// The catalog name.
    public static let name = "SetTaskAttribute"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
    public init(_ intent: Intent) { self.intent = intent }

    /// Which task?
    public var targetTask: String? { intent.string("targetTask") }

    /// On which list?
    public var taskList: String? { intent.string("taskList") }

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
        /// The catalog's values.
        case notCompleted, completed
    }

    /// The values of `priority`.
    public enum Priority: String, Sendable, CaseIterable {
        /// The catalog's values.
        case notFlagged, flagged
    }
}

/// SetTaskAttribute's response codes, with SiriKit's numbers.
public enum SetTaskAttributeResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
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
    /// Resolves `targetTask`.
    func resolveTargetTask(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult
    /// Resolves `taskList`.
    func resolveTaskList(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult
    /// Resolves `taskTitle`.
    func resolveTaskTitle(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult
    /// Resolves `status`.
    func resolveStatus(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult
    /// Resolves `priority`.
    func resolvePriority(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult
    /// Resolves `temporalEventTrigger`.
    func resolveTemporalEventTrigger(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: SetTaskAttributeIntent) async throws -> SetTaskAttributeResponse
    /// Does it, and describes the result.
    func handle(intent: SetTaskAttributeIntent) async throws -> SetTaskAttributeResponse
}

extension SetTaskAttributeIntentHandling {
    /// By default, `targetTask` as given; needsValue when missing.
    public func resolveTargetTask(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "targetTask", required: true)
    }

    /// By default, `taskList` as given.
    public func resolveTaskList(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "taskList", required: false)
    }

    /// By default, `taskTitle` as given.
    public func resolveTaskTitle(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "taskTitle", required: false)
    }

    /// By default, `status` as given.
    public func resolveStatus(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "status", required: false)
    }

    /// By default, `priority` as given.
    public func resolvePriority(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "priority", required: false)
    }

    /// By default, `temporalEventTrigger` as given.
    public func resolveTemporalEventTrigger(for intent: SetTaskAttributeIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "temporalEventTrigger", required: false)
    }

    /// By default, ready.
    public func confirm(intent: SetTaskAttributeIntent) async throws -> SetTaskAttributeResponse { SetTaskAttributeResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "targetTask": .single { try await resolveTargetTask(for: SetTaskAttributeIntent($0)) },
            "taskList": .single { try await resolveTaskList(for: SetTaskAttributeIntent($0)) },
            "taskTitle": .single { try await resolveTaskTitle(for: SetTaskAttributeIntent($0)) },
            "status": .single { try await resolveStatus(for: SetTaskAttributeIntent($0)) },
            "priority": .single { try await resolvePriority(for: SetTaskAttributeIntent($0)) },
            "temporalEventTrigger": .single { try await resolveTemporalEventTrigger(for: SetTaskAttributeIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: SetTaskAttributeIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: SetTaskAttributeIntent(intent)).response }
}

// MARK: - SearchForNotebookItems

/// Find task lists, tasks and notes (INSearchForNotebookItemsIntent).
public struct SearchForNotebookItemsIntent: TypedIntent {
    /// The catalog name.
    public static let name = "SearchForNotebookItems"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
    public init(_ intent: Intent) { self.intent = intent }

    /// What is it called?
    public var title: String? { intent.string("title") }

    /// What does it say?
    public var content: String? { intent.string("content") }

    /// A task, a list or a note?
    public var itemType: ItemType? { intent.string("itemType").flatMap(ItemType.init(rawValue:)) }

    /// Done or not done?
    public var status: Status? { intent.string("status").flatMap(Status.init(rawValue:)) }

    /// Flagged or not?
    public var taskPriority: TaskPriority? { intent.string("taskPriority").flatMap(TaskPriority.init(rawValue:)) }

    /// Where?
    public var location: Place? { intent.place("location") }

    /// From when?
    public var dateTime: String? { intent.string("dateTime") }

    /// The values of `itemType`.
    public enum ItemType: String, Sendable, CaseIterable {
        /// The catalog's values.
        case task, taskList, note
    }

    /// The values of `status`.
    public enum Status: String, Sendable, CaseIterable {
        /// The catalog's values.
        case notCompleted, completed
    }

    /// The values of `taskPriority`.
    public enum TaskPriority: String, Sendable, CaseIterable {
        /// The catalog's values.
        case notFlagged, flagged
    }
}

/// SearchForNotebookItems's response codes, with SiriKit's numbers.
public enum SearchForNotebookItemsResponseCode: String, Sendable, CaseIterable {
    /// The codes, by SiriKit's names.
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
    /// Resolves `title`.
    func resolveTitle(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    /// Resolves `content`.
    func resolveContent(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    /// Resolves `itemType`.
    func resolveItemType(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    /// Resolves `status`.
    func resolveStatus(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    /// Resolves `taskPriority`.
    func resolveTaskPriority(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    /// Resolves `location`.
    func resolveLocation(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    /// Resolves `dateTime`.
    func resolveDateTime(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: SearchForNotebookItemsIntent) async throws -> SearchForNotebookItemsResponse
    /// Does it, and describes the result.
    func handle(intent: SearchForNotebookItemsIntent) async throws -> SearchForNotebookItemsResponse
}

extension SearchForNotebookItemsIntentHandling {
    /// By default, `title` as given.
    public func resolveTitle(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "title", required: false)
    }

    /// By default, `content` as given.
    public func resolveContent(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "content", required: false)
    }

    /// By default, `itemType` as given.
    public func resolveItemType(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "itemType", required: false)
    }

    /// By default, `status` as given.
    public func resolveStatus(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "status", required: false)
    }

    /// By default, `taskPriority` as given.
    public func resolveTaskPriority(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "taskPriority", required: false)
    }

    /// By default, `location` as given.
    public func resolveLocation(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "location", required: false)
    }

    /// By default, `dateTime` as given.
    public func resolveDateTime(for intent: SearchForNotebookItemsIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "dateTime", required: false)
    }

    /// By default, ready.
    public func confirm(intent: SearchForNotebookItemsIntent) async throws -> SearchForNotebookItemsResponse { SearchForNotebookItemsResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "title": .single { try await resolveTitle(for: SearchForNotebookItemsIntent($0)) },
            "content": .single { try await resolveContent(for: SearchForNotebookItemsIntent($0)) },
            "itemType": .single { try await resolveItemType(for: SearchForNotebookItemsIntent($0)) },
            "status": .single { try await resolveStatus(for: SearchForNotebookItemsIntent($0)) },
            "taskPriority": .single { try await resolveTaskPriority(for: SearchForNotebookItemsIntent($0)) },
            "location": .single { try await resolveLocation(for: SearchForNotebookItemsIntent($0)) },
            "dateTime": .single { try await resolveDateTime(for: SearchForNotebookItemsIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: SearchForNotebookItemsIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: SearchForNotebookItemsIntent(intent)).response }
}

// MARK: - SnoozeTasks

/// Postpone the reminders of tasks (INSnoozeTasksIntent).
public struct SnoozeTasksIntent: TypedIntent {
    /// The catalog name.
    public static let name = "SnoozeTasks"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
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
    /// The codes, by SiriKit's names.
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
    /// Resolves `tasks`, one result per value.
    func resolveTasks(for intent: SnoozeTasksIntent) async throws -> [ResolutionResult]
    /// Resolves `nextTriggerTime`.
    func resolveNextTriggerTime(for intent: SnoozeTasksIntent) async throws -> ResolutionResult
    /// Resolves `all`.
    func resolveAll(for intent: SnoozeTasksIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: SnoozeTasksIntent) async throws -> SnoozeTasksResponse
    /// Does it, and describes the result.
    func handle(intent: SnoozeTasksIntent) async throws -> SnoozeTasksResponse
}

extension SnoozeTasksIntentHandling {
    /// By default, `tasks` as given.
    public func resolveTasks(for intent: SnoozeTasksIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "tasks", required: false)
    }

    /// By default, `nextTriggerTime` as given; needsValue when missing.
    public func resolveNextTriggerTime(for intent: SnoozeTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "nextTriggerTime", required: true)
    }

    /// By default, `all` as given.
    public func resolveAll(for intent: SnoozeTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "all", required: false)
    }

    /// By default, ready.
    public func confirm(intent: SnoozeTasksIntent) async throws -> SnoozeTasksResponse { SnoozeTasksResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "tasks": .list { try await resolveTasks(for: SnoozeTasksIntent($0)) },
            "nextTriggerTime": .single { try await resolveNextTriggerTime(for: SnoozeTasksIntent($0)) },
            "all": .single { try await resolveAll(for: SnoozeTasksIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: SnoozeTasksIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: SnoozeTasksIntent(intent)).response }
}

// MARK: - DeleteTasks

/// Delete tasks from a task list (INDeleteTasksIntent). The user confirms before it is handled.
public struct DeleteTasksIntent: TypedIntent {
    /// The catalog name.
    public static let name = "DeleteTasks"
    /// The intent as received, for anything not typed here.
    public let intent: Intent

    /// Wraps a received intent.
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
    /// The codes, by SiriKit's names.
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
    /// Resolves `taskList`.
    func resolveTaskList(for intent: DeleteTasksIntent) async throws -> ResolutionResult
    /// Resolves `tasks`, one result per value.
    func resolveTasks(for intent: DeleteTasksIntent) async throws -> [ResolutionResult]
    /// Resolves `all`.
    func resolveAll(for intent: DeleteTasksIntent) async throws -> ResolutionResult
    /// Says whether the intent can be done and what will happen.
    func confirm(intent: DeleteTasksIntent) async throws -> DeleteTasksResponse
    /// Does it, and describes the result.
    func handle(intent: DeleteTasksIntent) async throws -> DeleteTasksResponse
}

extension DeleteTasksIntentHandling {
    /// By default, `taskList` as given; needsValue when missing.
    public func resolveTaskList(for intent: DeleteTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "taskList", required: true)
    }

    /// By default, `tasks` as given.
    public func resolveTasks(for intent: DeleteTasksIntent) async throws -> [ResolutionResult] {
        intent.intent.defaultResolution(of: "tasks", required: false)
    }

    /// By default, `all` as given.
    public func resolveAll(for intent: DeleteTasksIntent) async throws -> ResolutionResult {
        intent.intent.defaultResult(of: "all", required: false)
    }

    /// By default, ready.
    public func confirm(intent: DeleteTasksIntent) async throws -> DeleteTasksResponse { DeleteTasksResponse(.ready) }

    /// The resolve methods, by parameter name.
    public var resolvers: [String: Resolver] {
        [
            "taskList": .single { try await resolveTaskList(for: DeleteTasksIntent($0)) },
            "tasks": .list { try await resolveTasks(for: DeleteTasksIntent($0)) },
            "all": .single { try await resolveAll(for: DeleteTasksIntent($0)) },
        ]
    }

    /// Confirms through the typed method.
    public func confirm(_ intent: Intent) async throws -> IntentResponse { try await confirm(intent: DeleteTasksIntent(intent)).response }

    /// Handles through the typed method.
    public func handle(_ intent: Intent) async throws -> IntentResponse { try await handle(intent: DeleteTasksIntent(intent)).response }
}
