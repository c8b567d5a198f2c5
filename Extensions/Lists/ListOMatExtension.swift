import ExtensionStorage
import Foundation
import IntentExtensionKit
import Synchronization

/// List-o-Mat's Intents extension: task lists, tasks and notes.
@main
struct ListOMatExtension: IntentExtension {
    static var manifestURL: URL? { Bundle.module.url(forResource: "Info", withExtension: "plist", subdirectory: "Manifest") }

    let store: NotebookStore
    let names: NotebookNames

    init(context: ExtensionContext) async throws {
        store = try NotebookStore(directory: context.sandboxDirectory)
        // As its usage description says: the assistant learns the lists' and notes' titles.
        names = NotebookNames(store: store, vocabulary: context.vocabulary)
        try await names.publish()
        // A reminder tells the user when it comes due, as an update (chat shows it).
        let store = self.store, updates = context.updates
        Task { await Self.announceReminders(store, updates) }
    }

    /// Publishes `reminder` once for each task to do whose reminder comes due while the
    /// extension runs, checking every second: each check announces those due since the
    /// last one. One due before the extension started is not announced (a restart never
    /// repeats them); one moved (snoozed) is announced again at its new time.
    static func announceReminders(_ store: NotebookStore, _ updates: UpdatePublisher) async {
        var since = Date()
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            let now = Date()
            for (task, list) in (try? await store.reminders(dueAfter: since, through: now)) ?? [] {
                updates.publish("reminder", [
                    "summary": .string("\(task.title) (\(list)) is due"), "title": .string(task.title), "list": .string(list),
                    "identifier": .string(task.identifier), "reminder": .string(task.reminder ?? ""),
                ])
            }
            since = now
        }
    }

    /// Handles done, by idempotency key, in the app's own database.
    var journal: (any HandleJournal)? { store.journal }

    func stop() async { store.close() }

    func handler(for intent: Intent) -> (any IntentHandler)? {
        switch intent.name {
        case "CreateTaskList": CreateTaskListHandler(store: store, names: names)
        case "AddTasks": AddTasksHandler(store: store, names: names)
        case "SetTaskAttribute": SetTaskAttributeHandler(store: store)
        case "SearchForNotebookItems": SearchForNotebookItemsHandler(store: store)
        case "CreateNote": CreateNoteHandler(store: store, names: names)
        case "AppendToNote": AppendToNoteHandler(store: store)
        case "SnoozeTasks": SnoozeTasksHandler(store: store)
        case "DeleteTasks": DeleteTasksHandler(store: store)
        default: nil
        }
    }
}

/// Tells the assistant the titles of the lists and notes (user vocabulary
/// `notebookItemTitle`), at start and whenever they changed.
final class NotebookNames: Sendable {
    let store: NotebookStore
    let vocabulary: VocabularyPublisher
    /// Reads started, and the titles of the latest read sent: a read that started later saw
    /// at least as much, so an earlier one that ends last sends nothing.
    private let state = Mutex((started: 0, sent: 0, titles: [String]?.none))

    /// Longer titles are left out: nobody says them, and they would crowd the vocabulary.
    static let longestTitle = 200

    init(store: NotebookStore, vocabulary: VocabularyPublisher) {
        self.store = store
        self.vocabulary = vocabulary
    }

    /// Whether `title` was among the titles last sent: adding to that list changes none.
    func knows(_ title: String) -> Bool {
        state.withLock { $0.titles?.contains(title) == true }
    }

    func publish() async throws {
        let read = state.withLock { state in
            state.started += 1
            return state.started
        }
        let titles = Array((try await store.listTitles() + store.noteTitles()).filter { $0.count <= Self.longestTitle }
            .prefix(UserVocabulary.maximumTerms))
        state.withLock { state in
            guard read > state.sent else { return }
            state.sent = read
            if state.titles != titles { vocabulary.set(titles, for: "notebookItemTitle") }
            state.titles = titles
        }
    }
}

/// Resolves the title of something new: one of `titles` already (but for case and
/// punctuation) is unsupported (`alreadyExists`).
func resolveNewTitle(_ said: String?, among titles: [String]) -> ResolutionResult {
    guard let said, !said.trimmingCharacters(in: .whitespaces).isEmpty else { return .needsValue }
    return TitleMatcher.named(said, among: titles).isEmpty ? .success(.string(said)) : .unsupported(reason: "alreadyExists")
}

/// Resolves a spoken title against the titles the store knows.
func resolveTitle(_ said: String?, among titles: [String], required: Bool = true, creating: Bool = false) -> ResolutionResult {
    guard let said, !said.trimmingCharacters(in: .whitespaces).isEmpty else { return required ? .needsValue : .notRequired }
    switch TitleMatcher.match(said, in: titles) {
    case .exact(let title): return .success(title)
    case .one(let title): return .confirmationRequired(.string(title))
    case .several(let titles): return .disambiguation(titles.map { .string($0) })
    // A list nothing is like: offered to be made, as SiriKit's listShouldBeCreated.
    case .none where creating:
        return .confirmationRequired(.string(said.trimmingCharacters(in: .whitespaces)), reason: "listShouldBeCreated")
    case .none: return .unsupported(reason: "notFound")
    }
}

/// Whether `said` is no title of `titles` but several of them named together ("groceries
/// and camping", "the camping and party lists"), which one request cannot take.
func namesSeveral(_ said: String?, among titles: [String]) -> Bool {
    guard let said, TitleMatcher.match(said, in: titles) == .none else { return false }
    var words = said.split(separator: " ")
    if let last = words.last, last.lowercased() == "lists" { words.removeLast() }
    let parts = splitItems([words.joined(separator: " ")])
    return parts.count > 1 && parts.allSatisfy { TitleMatcher.isTitle($0, among: titles) }
}

/// The tasks to make or find: each title given is one, as said ("mac and cheese" is one task; the
/// assistant splits "rice, onions and olives" into three before it asks), blank ones left out.
func taskTitles(_ titles: [String]) -> [String] {
    titles.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

/// "groceries, camping and party" is three names: of lists named together, which one
/// request cannot take.
func splitItems(_ titles: [String]) -> [String] {
    titles.flatMap { title in
        title.replacingOccurrences(of: " and ", with: ",").replacingOccurrences(of: " & ", with: ",")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// Encodes a record for a response.
func json(_ value: some Encodable) -> JSONValue { (try? JSONValue(encoding: value)) ?? .null }
