import Foundation
import IntentProtocol
import Testing

/// List-o-Mat, launched by intentd, over real sockets, with its lists in SQLite.
@Suite("List-o-Mat", .serialized)
struct ListOMatTests {
    /// A host that launched List-o-Mat, with the seed's two lists.
    func hostWithStores() throws -> TestHost {
        let host = try TestHost(["--extensions", "lists"])
        try host.waitFor(["List-o-Mat"])
        for title in ["Grocery Store", "Hardware Store"] {
            #expect(try send(host, "CreateTaskList", "title=\(title)")["outcome"] == "success")
        }
        return host
    }

    /// Runs `intentctl send List-o-Mat INTENT ... --json` and returns the outcome.
    @discardableResult
    func send(_ host: TestHost, _ intent: String, _ parameters: String...) throws -> JSONValue {
        let result = try host.ctl(["send", "List-o-Mat", intent] + parameters + ["--json"])
        return result.json ?? ["stderr": .string(result.stderr)]
    }

    func resolution(_ outcome: JSONValue, _ parameter: String) -> JSONValue? {
        outcome["resolutions"]?.arrayValue?.first { $0["parameter"]?.stringValue == parameter }?["results"]?.arrayValue?.first
    }

    @Test("Titles of any length are matched in bounded work: a 100,000-letter list name does not take the extension down")
    func hugeTitlesAreMatchedInBoundedWork() throws {
        let host = try hostWithStores()
        defer { host.stop(); host.removeState() }
        func pid() throws -> Int? { try host.client().status().launches?.first { $0.name == "lists" }?.processIdentifier }
        let before = try #require(try pid())
        #expect(try send(host, "CreateTaskList", "title=" + String(repeating: "b", count: 100_000))["outcome"] == "success")
        let matched = try send(host, "AddTasks", "targetTaskList=" + String(repeating: "c", count: 99_999), "taskTitles=rice")
        #expect(matched["code"] != nil && matched["code"] != "extensionUnavailable" && matched["code"] != "outcomeUnknown", "\(matched)")
        #expect(try pid() == before, "List-o-Mat kept running")
        #expect(try send(host, "AddTasks", "targetTaskList=grocery store", "taskTitles=rice")["outcome"] == "success")
    }

    @Test("The seed's scenario: \"store\" asks which, \"grocery store\" matches at once, three items are added")
    func seedScenario() throws {
        let host = try hostWithStores()
        defer { host.stop(); host.removeState() }
        let ambiguous = try send(host, "AddTasks", "targetTaskList=store", "taskTitles=rice")
        #expect(ambiguous["code"] == "disambiguation")
        #expect(resolution(ambiguous, "targetTaskList")?["options"] == ["Grocery Store", "Hardware Store"])

        // Each title given is one task: "mac and cheese" stays whole.
        let added = try send(host, "AddTasks", "targetTaskList=grocery store", "taskTitles=rice", "taskTitles=mac and cheese")
        #expect(added["outcome"] == "success")
        #expect(resolution(added, "targetTaskList")?["kind"] == "success")
        let titles = added["response"]?["response"]?["addedTasks"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
        #expect(titles == ["rice", "mac and cheese"])
    }

    @Test("A reminder that comes due is pushed once, as an update")
    func remindersArePushed() throws {
        let host = try hostWithStores()
        defer { host.stop(); host.removeState() }
        let output = host.state.appendingPathComponent("reminders.jsonl")
        // By the config name of its launch, as send takes it.
        let watcher = try TestHost.launch(
            Products.url("intentctl"), ["watch", "lists", "--json", "--for", "12", "--state-dir", host.state.path],
            output: output, environment: [:])
        usleep(500_000)
        let soon = Date().addingTimeInterval(2).formatted(.iso8601)
        try send(host, "AddTasks", "targetTaskList=Grocery Store", "taskTitles=milk", "temporalEventTrigger=\(soon)")
        watcher.waitUntilExit()
        let updates = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map { try JSON.decode(Update.self, from: Array($0.utf8)) }
        #expect(updates.map(\.topic) == ["reminder"], "\(updates)")
        #expect(updates.first?.payload["summary"] == "milk (Grocery Store) is due")
    }

    @Test("A misspelled or sound-alike list name still finds the list, to be confirmed; a name nothing is like is offered to be made")
    func fuzzyTitles() throws {
        let host = try hostWithStores()
        defer { host.stop(); host.removeState() }
        for (said, meant) in [("grosery", "Grocery Store"), ("hardwear store", "Hardware Store"), ("grocery", "Grocery Store")] {
            let outcome = try send(host, "AddTasks", "targetTaskList=\(said)", "taskTitles=milk")
            #expect(outcome["code"] == "confirmationRequired", "\(said)")
            #expect(resolution(outcome, "targetTaskList")?["value"] == .string(meant), "\(said)")
        }
        let zoo = resolution(try send(host, "AddTasks", "targetTaskList=zoo", "taskTitles=milk"), "targetTaskList")
        #expect(zoo?["kind"] == "confirmationRequired" && zoo?["reason"] == "listShouldBeCreated" && zoo?["value"] == "zoo")
    }

    @Test("On a first start, \"add milk and eggs to my groceries list\" offers to make the list, makes it on yes, and adds both")
    func firstListIsOfferedToBeMade() throws {
        let host = try TestHost(["--extensions", "lists"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["List-o-Mat"])
        // `wait` knows the app by the names send does (it waited out its time for ListOMat),
        // and by the config name of its launch ("lists").
        let waited = try host.ctl("wait", "ListOMat", "com.listomat.intents", "lists", "--for", "5")
        #expect(waited.status == 0 && waited.stdout.contains("ready"), "\(waited.stderr)")
        // A name the host launches nothing by is said once the host has settled, with the one meant.
        let typo = try host.ctl("wait", "ListOMatt", "--for", "6")
        #expect(typo.status != 0 && typo.stderr.contains("intentd launches no app named ListOMatt (did you mean ListOMat?)"), "\(typo.stderr)")
        #expect(typo.stderr.contains("not registered yet: ListOMatt (no launch of that name; did you mean ListOMat?)"), "\(typo.stderr)")
        let asked = try host.ctl("ask", "add milk and eggs to my groceries list", "--answer", "yes", "--answer", "yes")
        #expect(asked.stdout.contains("There's no list called groceries. Should I make it?"), "\(asked.stdout)")
        #expect(asked.stdout.contains("I added milk and eggs to groceries."), "\(asked.stdout)")
        let found = try send(host, "SearchForNotebookItems", "itemType=taskList", "title=groceries")
        let tasks = found["response"]?["response"]?["taskLists"]?.arrayValue?.first?["tasks"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
        #expect(tasks == ["milk", "eggs"], "\(found)")
        // No: nothing is made, and the list is asked for again.
        let declined = try host.ctl("ask", "add bread to my bakery list", "--answer", "no")
        #expect(declined.stdout.contains("Which list"), "\(declined.stdout)")
        #expect(resolution(try send(host, "AddTasks", "targetTaskList=bakery", "taskTitles=bread"), "targetTaskList")?["reason"] == "listShouldBeCreated")
    }

    @Test("Tasks are marked done and undone, snoozed and deleted, and search shows them")
    func tasksLifecycle() throws {
        let host = try hostWithStores()
        defer { host.stop(); host.removeState() }
        try send(host, "AddTasks", "targetTaskList=Grocery Store", "taskTitles=rice", "taskTitles=onions", "taskTitles=olives")

        // Nothing to change is no update: the user is asked what, and a program is refused.
        let asked = try host.ctl("ask", "update rice on my list", "--answer", "yes", "--answer", "rice")
        #expect(asked.stdout.contains("Done or not done?") && !asked.stdout.contains("updated"), "\(asked.stdout)")
        // An answer no question came for is named, so that a script sees it went another way.
        let extra = try host.ctl("ask", "what lists do I have", "--answer", "yes")
        #expect(extra.stdout.contains("Grocery Store") && extra.stderr.contains("this answer was used: “yes”"), "\(extra.stderr)")
        let unchanged = try send(host, "SetTaskAttribute", "targetTask=rice")
        #expect(unchanged["code"] == "needsValue" && resolution(unchanged, "status")?["kind"] == "needsValue", "\(unchanged)")
        #expect(try send(host, "SetTaskAttribute", "targetTask=rice", "status=completed")["outcome"] == "success")
        var done = try send(host, "SearchForNotebookItems", "itemType=task", "status=completed")
        #expect(done["response"]?["response"]?["tasks"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["rice"])
        #expect(try send(host, "SetTaskAttribute", "targetTask=rice", "status=notCompleted")["outcome"] == "success")
        done = try send(host, "SearchForNotebookItems", "itemType=task", "status=completed")
        #expect(done["response"]?["response"]?["tasks"]?.arrayValue?.isEmpty == true)

        let snoozed = try send(host, "SnoozeTasks", "tasks=onions", "nextTriggerTime=2026-12-01T09:00:00Z")
        #expect(snoozed["response"]?["response"]?["snoozedTasks"]?.arrayValue?.first?["reminder"] == "2026-12-01T09:00:00Z")

        // A task named that the list does not have is not deleted, and no success says it was.
        let missing = try send(host, "DeleteTasks", "taskList=Grocery Store", "tasks=bananas", "--confirm")
        #expect(missing["code"] == "unsupported" && resolution(missing, "tasks")?["reason"] == "notOnList", "\(missing)")
        // A name takes the titles it names most exactly: "eggs" is "Eggs", not "eggs!" as well;
        // "?" names no emoji-only task.
        try send(host, "AddTasks", "targetTaskList=Grocery Store", "taskTitles=Eggs", "taskTitles=eggs!", "taskTitles=🎈")
        #expect(try send(host, "DeleteTasks", "taskList=Grocery Store", "tasks=?", "--confirm")["code"] == "unsupported")
        let eggs = try send(host, "DeleteTasks", "taskList=Grocery Store", "tasks=eggs", "--confirm")
        #expect(eggs["response"]?["response"]?["tasks"] == ["Eggs"], "\(eggs)")
        #expect(try send(host, "DeleteTasks", "taskList=Grocery Store", "tasks=eggs!", "tasks=🎈", "--confirm")["outcome"] == "success")
        // The list's own spelling is what the answer names, whatever the case asked for.
        let deleted = try send(host, "DeleteTasks", "taskList=Grocery Store", "tasks=OLIVES", "--confirm")
        #expect(deleted["outcome"] == "success")
        #expect(deleted["response"]?["response"]?["tasks"] == ["olives"], "\(deleted)")
        // Tasks named but none readable is no request to delete them all.
        #expect(try send(host, "DeleteTasks", "taskList=Grocery Store", "tasks=,", "--confirm")["code"] == "unsupported")
        #expect(try send(host, "DeleteTasks", "taskList=Grocery Store", "tasks= ", "--confirm")["outcome"] == "failure")
        // Tasks named and all: the named ones go, as the confirmation said.
        let named = try send(host, "DeleteTasks", "taskList=Grocery Store", "tasks=onions", "all=true", "--confirm")
        #expect(named["response"]?["response"]?["tasks"] == ["onions"], "\(named)")
        try send(host, "AddTasks", "targetTaskList=Grocery Store", "taskTitles=onions")
        // No task named, and not all: which ones is asked, never taken for all of them.
        let unnamed = try send(host, "DeleteTasks", "taskList=Grocery Store", "--confirm")
        #expect(unnamed["code"] == "needsValue" && resolution(unnamed, "tasks")?["kind"] == "needsValue", "\(unnamed)")
        let which = try host.ctl("ask", "remove an item from the grocery store list", "--answer", "yes", "--answer", "rice", "--answer", "yes")
        #expect(which.stdout.contains("Which tasks?") && which.stdout.contains("I deleted rice from Grocery Store."), "\(which.stdout)")
        #expect(!which.stdout.contains("everything"), "\(which.stdout)")
        try send(host, "AddTasks", "targetTaskList=Grocery Store", "taskTitles=rice")
        let lists = try send(host, "SearchForNotebookItems", "title=Grocery Store", "itemType=taskList")
        let left = lists["response"]?["response"]?["taskLists"]?.arrayValue?.first?["tasks"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
        #expect(left?.sorted() == ["onions", "rice"])
    }

    @Test("A list is not made twice: a title another list has, but for case, is refused and asked for again")
    func listTitlesAreUnique() throws {
        let host = try hostWithStores()
        defer { host.stop(); host.removeState() }
        let again = try send(host, "CreateTaskList", "title=grocery store")
        #expect(again["code"] == "unsupported" && resolution(again, "title")?["reason"] == "alreadyExists", "\(again)")
        let asked = try host.ctl("ask", "make a list called grocery store in ListOMat", "--answer", "yes", "--answer", "never mind")
        #expect(asked.stdout.contains("Sorry, grocery store won't work: there's already one called that."), "\(asked.stdout)")
        let lists = try send(host, "SearchForNotebookItems", "itemType=taskList", "title=all")["response"]?["response"]?["taskLists"]?.arrayValue
        #expect(lists?.count == 2, "\(String(describing: lists))")
    }

    @Test("A new list's reminder is set on each of its tasks")
    func newListReminder() throws {
        let host = try hostWithStores()
        defer { host.stop(); host.removeState() }
        let created = try send(host, "CreateTaskList", "title=Thanksgiving", "taskTitles=turkey", "taskTitles=pie", "temporalEventTrigger=2026-11-24T18:00:00-08:00")
        #expect(created["outcome"] == "success")
        let tasks = try send(host, "SearchForNotebookItems", "itemType=task")["response"]?["response"]?["tasks"]?.arrayValue ?? []
        #expect(tasks.compactMap { $0["title"]?.stringValue }.sorted() == ["pie", "turkey"])
        #expect(tasks.allSatisfy { $0["reminder"] == "2026-11-24T18:00:00-08:00" })
    }

    @Test("A search for a day finds the tasks whose reminder falls on it, in the time zone the day was said in, and one for a range those in it")
    func searchByDay() throws {
        let host = try hostWithStores()
        defer { host.stop(); host.removeState() }
        try send(host, "CreateTaskList", "title=Errands")
        try send(host, "CreateTaskList", "title=Party")
        // 23:30 in the user's zone, 07:30 the next day in UTC: the 1st for the user.
        try send(host, "AddTasks", "targetTaskList=Errands", "taskTitles=late", "temporalEventTrigger=2026-12-01T23:30:00-08:00")
        try send(host, "AddTasks", "targetTaskList=Errands", "taskTitles=utc", "temporalEventTrigger=2026-12-01T20:00:00Z")
        try send(host, "AddTasks", "targetTaskList=Errands", "taskTitles=next day", "temporalEventTrigger=2026-12-02T00:30:00-08:00")
        try send(host, "AddTasks", "targetTaskList=Errands", "taskTitles=no reminder")
        try send(host, "AddTasks", "targetTaskList=Party", "taskTitles=cake", "temporalEventTrigger=2026-12-01T10:00:00-08:00")
        func due(_ arguments: String...) throws -> [String]? {
            let found = try host.ctl(["send", "List-o-Mat", "SearchForNotebookItems", "dateTime=2026-12-01T09:00:00-08:00"] + arguments + ["--json"]).json
            return found?["response"]?["response"]?["tasks"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
        }
        let all = try send(host, "SearchForNotebookItems", "itemType=task")
        // Soonest first: cake at 10:00, utc at 12:00, late at 23:30.
        #expect(try due("itemType=task") == ["cake", "utc", "late"], "\(all)")
        // A list named: its tasks; a task named: that task.
        #expect(try due("itemType=taskList", "title=Errands") == ["utc", "late"])
        #expect(try due("itemType=task", "title=cake") == ["cake"])
        #expect(try send(host, "SetTaskAttribute", "targetTask=late", "status=completed")["outcome"] == "success")
        #expect(try due("itemType=task", "status=notCompleted") == ["cake", "utc"])
        // A range ("this week"): every task due in it, its end not included.
        let range = try host.ctl(["send", "List-o-Mat", "SearchForNotebookItems", "itemType=task",
            "dateTime=2026-11-30T00:00:00-08:00/2026-12-02T00:00:00-08:00", "--json"]).json
        #expect(range?["response"]?["response"]?["tasks"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["cake", "utc", "late"], "\(String(describing: range))")
        let week = try host.ctl(["send", "List-o-Mat", "SearchForNotebookItems", "itemType=task",
            "dateTime=2026-11-29T00:00:00-08:00/2026-12-06T00:00:00-08:00", "--json"]).json
        #expect(week?["response"]?["response"]?["tasks"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["cake", "utc", "late", "next day"])
        // A day that is no date finds nothing, not every day's tasks.
        let someday = try send(host, "SearchForNotebookItems", "itemType=task", "dateTime=someday")
        #expect(someday["outcome"] != "success" && someday["response"]?["response"]?["tasks"] == nil, "\(someday)")
    }

    @Test("Notes are created, appended to by a close title, and found by their content")
    func notes() throws {
        let host = try hostWithStores()
        defer { host.stop(); host.removeState() }
        #expect(try send(host, "CreateNote", "title=Packing List", "content=socks")["outcome"] == "success")
        let appended = try send(host, "AppendToNote", "targetNote=Packing List", "content=bananas")
        #expect(appended["response"]?["response"]?["note"]?["content"] == "socks\nbananas")
        let found = try send(host, "SearchForNotebookItems", "itemType=note", "content=bananas")
        #expect(found["response"]?["response"]?["notes"]?.arrayValue?.count == 1)
        #expect(try send(host, "AppendToNote", "targetNote=packing", "content=x")["code"] == "confirmationRequired")
    }

    @Test("\"all\" searches every list")
    func allSearchesEveryList() throws {
        let host = try hostWithStores()
        defer { host.stop(); host.removeState() }
        let all = try send(host, "SearchForNotebookItems", "title=all")
        #expect(Set(all["response"]?["response"]?["taskLists"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []) == ["Grocery Store", "Hardware Store"])
    }

    @Test("Lists survive the extension being killed; DeleteTasks waits for an unlock")
    func durableAndRestricted() throws {
        let host = try hostWithStores()
        defer { host.stop(); host.removeState() }
        try send(host, "AddTasks", "targetTaskList=Hardware Store", "taskTitles=nails")
        let pid = try #require(try host.client().status().extensions.first?.processIdentifiers.first)
        try host.killAndWaitForRestart("List-o-Mat", pid: pid)
        let lists = try send(host, "SearchForNotebookItems", "title=hardware store", "itemType=taskList")
        #expect(lists["response"]?["response"]?["taskLists"]?.arrayValue?.first?["tasks"]?.arrayValue?.first?["title"] == "nails")

        #expect(try host.ctl("lock").status == 0)
        let refused = try send(host, "DeleteTasks", "taskList=Hardware Store", "all=true", "--confirm")
        #expect(refused["code"] == "requiresUnlock")
        #expect(try send(host, "SearchForNotebookItems", "title=all")["outcome"] == "success", "reading is allowed while locked")
        #expect(try host.ctl("unlock").status == 0)
        #expect(try send(host, "DeleteTasks", "taskList=Hardware Store", "all=true", "--confirm")["outcome"] == "success")
    }
}
