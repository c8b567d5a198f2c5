import IntentProtocol
import Testing
import Understanding

/// Requests phrased the way people phrase them, each kind in sentences of its own that
/// no corpus holds: the reading of a kind must not depend on one wording of it.
@Suite("Reading requests phrased the everyday way")
struct EverydayPhrasingTests {
    /// A request and what it should be read as.
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let intent: String
        let parameters: [String: JSONValue]
        var testDescription: String { text }

        init(_ text: String, _ intent: String, _ parameters: [String: JSONValue]) {
            self.text = text
            self.intent = intent
            self.parameters = parameters
        }
    }

    let reader: RequestReader
    let apps: [AppProfile]

    init() throws {
        reader = try Fixture.reader()
        apps = try Fixture.apps()
    }

    /// Reads `c.text` (with `apps`, else the fixture's) and expects its intent and
    /// parameters (compared as the corpora compare them).
    func expectRead(_ c: Case, apps: [AppProfile]? = nil) {
        guard case .request(let r) = reader.read(c.text, apps: apps ?? self.apps) else {
            Issue.record("not understood as a request: \(c.text)")
            return
        }
        #expect(r.intent == c.intent)
        #expect(CorpusTests.same(r.parameters, c.parameters), "read \(CorpusTests.show(r.parameters))")
    }

    @Test("A message's words after \"that\" are its content, also when the verb is polite or in -ing form", arguments: [
        Case("send Coco a quick text that the movie starts at eight", "SendMessage", ["recipients": ["Coco"], "content": "the movie starts at eight"]),
        Case("would you mind texting Kiki that I'm running late", "SendMessage", ["recipients": ["Kiki"], "content": "I'm running late"]),
        Case("could you possibly send Bobo a MonkeyChat that dinner is ready", "SendMessage", ["recipients": ["Bobo"], "content": "dinner is ready"]),
    ])
    func contentAfterThat(c: Case) { expectRead(c) }

    @Test("A message's words are kept as typed: dashes, colons, quotes inside it and its last stop", arguments: [
        Case("text coco ok - see you soon", "SendMessage", ["recipients": ["Coco"], "content": "ok - see you soon"]),
        Case("text coco meet at the \"big tree\"", "SendMessage", ["recipients": ["Coco"], "content": "meet at the \"big tree\""]),
        Case("text kiki thanks... see you there.", "SendMessage", ["recipients": ["Kiki"], "content": "thanks... see you there."]),
        Case("text kiki \"on my way\"", "SendMessage", ["recipients": ["Kiki"], "content": "on my way"]),
        Case("make a note called dinner plan: nopa - 7:30 - 4 people", "CreateNote", ["title": "dinner plan", "content": "nopa - 7:30 - 4 people"]),
        Case("text coco: - hi", "SendMessage", ["recipients": ["Coco"], "content": "hi"]),
        Case("text coco hi:", "SendMessage", ["recipients": ["Coco"], "content": "hi"]),
        Case("text coco it's -5 out", "SendMessage", ["recipients": ["Coco"], "content": "it's -5 out"]),
        Case("text kiki i'm late - 10 min", "SendMessage", ["recipients": ["Kiki"], "content": "i'm late - 10 min"]),
    ])
    func messageAsTyped(c: Case) {
        expectRead(c)
        // Exactly: the corpora's comparison leaves punctuation out.
        guard case .request(let r) = reader.read(c.text, apps: apps) else { return }
        #expect(r.parameters["content"] == c.parameters["content"])
    }

    @Test("A title loses the stop and quotes typed around it, as names do")
    func titleWithoutStop() {
        for text in ["make a new list called camping.", "make a list called 'camping'."] {
            guard let r = Fixture.request(text, reader, apps) else { continue }
            #expect(r.parameters["title"] == "camping", "\(text)")
        }
    }

    @Test("A day inside a title the app taught is part of the title, not a date", arguments: [
        Case("read me the saturday menu note", "SearchForNotebookItems", ["itemType": "note", "title": "saturday menu"]),
        Case("show my friday chores list", "SearchForNotebookItems", ["itemType": "taskList", "title": "friday chores"]),
        Case("show my notes from saturday", "SearchForNotebookItems", ["itemType": "note", "dateTime": "2026-11-28T09:00:00-08:00"]),
        // A day alone after an article names the list; after "on", or before a time, it is a date.
        Case("add wine to the friday shopping list", "AddTasks", ["taskTitles": ["wine"], "targetTaskList": "friday shopping"]),
        Case("remind me on friday about the party", "SetTaskAttribute", ["targetTask": "party", "temporalEventTrigger": "2026-11-27T09:00:00-08:00"]),
        Case("remind me this friday about the party", "SetTaskAttribute", ["targetTask": "party", "temporalEventTrigger": "2026-11-27T09:00:00-08:00"]),
        // A day right after "called" or "named" is the name's.
        Case("make a list called friday dinner", "CreateTaskList", ["title": "friday dinner"]),
        Case("make a list called friday dinner for friday", "CreateTaskList", ["title": "friday dinner", "temporalEventTrigger": "2026-11-27T09:00:00-08:00"]),
        Case("create a note named saturday plans", "CreateNote", ["title": "saturday plans"]),
        Case("make a list called groceries for friday", "CreateTaskList", ["title": "groceries", "temporalEventTrigger": "2026-11-27T09:00:00-08:00"]),
    ])
    func dayInATitle(c: Case) { expectRead(c, apps: listOMat(teaching: ["Saturday Menu", "Friday chores"])) }

    /// The apps, with List-o-Mat having taught `titles` as its lists' and notes' titles.
    func listOMat(teaching titles: [String]) -> [AppProfile] {
        apps.map { app in
            var app = app
            if app.name == "List-o-Mat" { app.userVocabulary["notebookItemTitle"] = titles }
            return app
        }
    }

    @Test("A day said alone at the end that is the whole name of a list the app taught is that list, not a reminder nobody asked for", arguments: [
        Case("add streamers to saturday", "AddTasks", ["taskTitles": ["streamers"], "targetTaskList": "saturday"]),
        Case("add streamers to saturday please", "AddTasks", ["taskTitles": ["streamers"], "targetTaskList": "saturday"]),
        Case("put balloons on my saturday list", "AddTasks", ["taskTitles": ["balloons"], "targetTaskList": "saturday"]),
        // Said as a date, it is one.
        Case("add streamers to party on saturday", "AddTasks", ["taskTitles": ["streamers"], "targetTaskList": "party", "temporalEventTrigger": "2026-11-28T09:00:00-08:00"]),
        Case("remind me saturday to buy streamers", "AddTasks", ["taskTitles": ["buy streamers"], "temporalEventTrigger": "2026-11-28T09:00:00-08:00"]),
    ])
    func dayNamingAList(c: Case) { expectRead(c, apps: listOMat(teaching: ["Saturday", "Party"])) }

    @Test("Names said in full are the recipients, not a short form that leaves a word to the message", arguments: [
        Case("tell bobo jr and little bobo the party is cancelled", "SendMessage", ["recipients": ["Bobo Jr.", "Little Bobo"], "content": "the party is cancelled"]),
        Case("text bobo jr and little bobo see you at 8", "SendMessage", ["recipients": ["Bobo Jr.", "Little Bobo"], "content": "see you at 8"]),
        // A courtesy after the names is no message.
        Case("text kiki please", "SendMessage", ["recipients": ["Kiki"]]),
        Case("text kiki and coco please", "SendMessage", ["recipients": ["Kiki", "Coco"]]),
        Case("text bobo the great right now", "SendMessage", ["recipients": ["Bobo the Great"]]),
    ])
    func namesInFull(c: Case) { expectRead(c) }

    @Test("\"Tell him to …\" after the recipient sends what follows \"to\", as \"tell Kiki to …\" does", arguments: [
        Case("mesage bobo jr tell him to bring chips", "SendMessage", ["recipients": ["Bobo Jr."], "content": "bring chips"]),
        Case("text kiki and tell her to bring chips", "SendMessage", ["recipients": ["Kiki"], "content": "bring chips"]),
        Case("MonkeyChat Kiki and tell her to bring chips", "SendMessage", ["recipients": ["Kiki"], "content": "bring chips"]),
        Case("ask coco to pick up the cake on saturday?", "SendMessage", ["recipients": ["Coco"], "content": "pick up the cake on saturday?"]),
    ])
    func tellHimTo(c: Case) { expectRead(c) }

    @Test("\"at\" inside a place is part of it: \"the cafe at the ferry building\" is where the ride goes", arguments: [
        Case("zippy to the cafe at the ferry building", "RequestRide", ["dropOffLocation": "cafe at the ferry building"]),
        Case("get me a zippy to the cafe at the ferry building", "RequestRide", ["dropOffLocation": "cafe at the ferry building"]),
        Case("book a ride to the bar at the corner of 3rd", "RequestRide", ["dropOffLocation": "bar at the corner of 3rd"]),
    ])
    func atInsidePlaces(c: Case) { expectRead(c) }

    @Test("\"too\" or \"as well\" at the end of an addition is no part of what is added", arguments: [
        Case("add eggs too", "AddTasks", ["taskTitles": ["eggs"]]),
        Case("add wine to the shopping list too", "AddTasks", ["taskTitles": ["wine"], "targetTaskList": "shopping"]),
        Case("put napkins on my party list as well", "AddTasks", ["taskTitles": ["napkins"], "targetTaskList": "party"]),
        Case("add Me Too to the movies list", "AddTasks", ["taskTitles": ["Me Too"], "targetTaskList": "movies"]),
    ])
    func tooAfterAnAddition(c: Case) { expectRead(c) }

    @Test("\"Put it on my list\" after a reminder names the list, not a task", arguments: [
        Case("remind me to take out the trash, put it on my todo list", "AddTasks", ["taskTitles": ["take out the trash"], "targetTaskList": "todo"]),
        Case("remind me to call mom, and add it to my errands list", "AddTasks", ["taskTitles": ["call mom"], "targetTaskList": "errands"]),
        Case("i need to fix the sink, add that to the house list", "AddTasks", ["taskTitles": ["fix the sink"], "targetTaskList": "house"]),
        Case("remind me to call mom and put it on my list", "AddTasks", ["taskTitles": ["call mom"]]),
    ])
    func putItOnAList(c: Case) { expectRead(c) }

    @Test("What a new list is for is no part of its name, and its items are kept", arguments: [
        Case("also make a grocery list for the trip", "CreateTaskList", ["title": "grocery"]),
        Case("make a packing list for the camping trip with tent and stove", "CreateTaskList", ["title": "packing", "taskTitles": ["tent", "stove"]]),
        Case("make a grocery list for friday", "CreateTaskList", ["title": "grocery", "temporalEventTrigger": "2026-11-27T09:00:00-08:00"]),
    ])
    func whatANewListIsFor(c: Case) { expectRead(c) }

    @Test("The list a task is said to be on is read with it", arguments: [
        Case("mark rice on the hardware list as done", "SetTaskAttribute", ["targetTask": "rice", "taskList": "hardware", "status": "completed"]),
        Case("check rice off the hardware store list", "SetTaskAttribute", ["targetTask": "rice", "taskList": "hardware store", "status": "completed"]),
        Case("mark rice as done", "SetTaskAttribute", ["targetTask": "rice", "status": "completed"]),
        Case("update rice on my list", "SetTaskAttribute", ["targetTask": "rice"]),
        Case("check milk off my list", "SetTaskAttribute", ["targetTask": "milk", "status": "completed"]),
        Case("mark milk on my list as done", "SetTaskAttribute", ["targetTask": "milk", "status": "completed"]),
        Case("rename cups to paper cups on my party list", "SetTaskAttribute", ["targetTask": "cups", "taskList": "party", "taskTitle": "paper cups"]),
    ])
    func taskOnAList(c: Case) { expectRead(c) }

    @Test("What is left or still on a list asks for its open tasks, with or without \"list\"", arguments: [
        Case("whats left on shopping", "SearchForNotebookItems", ["itemType": "taskList", "status": "notCompleted", "title": "shopping"]),
        Case("what's still on my shopping list?", "SearchForNotebookItems", ["itemType": "taskList", "status": "notCompleted", "title": "shopping"]),
    ])
    func whatIsLeftOnAList(c: Case) { expectRead(c) }

    @Test("A possessive date word dates the search: \"today's messages\"", arguments: [
        Case("read me today's messages from Coco", "SearchForMessages", ["senders": ["Coco"], "dateTime": "2026-11-23T09:00:00-08:00"]),
        Case("show yesterday's texts", "SearchForMessages", ["dateTime": "2026-11-22T09:00:00-08:00"]),
    ])
    func possessiveDates(c: Case) { expectRead(c) }

    @Test("A kind of ride the app does not name is still asked for, for the app to say which it has", arguments: [
        Case("get me a limo to the airport", "RequestRide", ["dropOffLocation": "airport", "rideOptionName": "limo"]),
        Case("order an SUV to union square", "RequestRide", ["dropOffLocation": "union square", "rideOptionName": "SUV"]),
        Case("get me a black car to the ferry building", "RequestRide", ["dropOffLocation": "ferry building", "rideOptionName": "black car"]),
    ])
    func otherKindsOfRide(c: Case) { expectRead(c) }

    @Test("\"I need\" asks for a ride only with a ride or a place to go: \"I need to buy milk\" is no ride to \"buy milk\"")
    func needIsNoRideByItself() {
        if case .request(let r) = reader.read("i need to buy milk", apps: apps) { #expect(r.intent != "RequestRide") }
        expectRead(Case("i need a ride to the airport", "RequestRide", ["dropOffLocation": "airport"]))
        expectRead(Case("i need a car to the zoo for 4 people", "RequestRide", ["dropOffLocation": "zoo", "partySize": 4]))
        // Said in a message, it is the message's.
        expectRead(Case("tell kiki we need a car to the zoo for 4 people", "SendMessage", ["recipients": ["Kiki"], "content": "we need a car to the zoo for 4 people"]))
        expectRead(Case("text kiki we want a cab to the zoo", "SendMessage", ["recipients": ["Kiki"], "content": "we want a cab to the zoo"]))
        expectRead(Case("i need to get to the airport", "RequestRide", ["dropOffLocation": "airport"]))
    }

    @Test("Asking who wrote searches the messages received, on the day said", arguments: [
        Case("who messaged me yesterday", "SearchForMessages", ["dateTime": "2026-11-22T09:00:00-08:00"]),
        Case("who texted me", "SearchForMessages", [:]),
        Case("who wrote to me today", "SearchForMessages", ["dateTime": "2026-11-23T09:00:00-08:00"]),
        Case("who has been messaging me on MonkeyChat", "SearchForMessages", [:]),
    ])
    func whoWrote(c: Case) { expectRead(c) }

    @Test("What the user did with messages, said after them, is their attribute", arguments: [
        Case("show the texts I haven't read yet", "SearchForMessages", ["attributes": ["unread"]]),
        Case("find messages from Kiki that I flagged", "SearchForMessages", ["senders": ["Kiki"], "attributes": ["flagged"]]),
    ])
    func attributesAfterMessages(c: Case) { expectRead(c) }

    @Test("Messages named by their number are the ones marked", arguments: [
        Case("star message 42", "SetMessageAttribute", ["identifiers": ["42"], "attribute": "flagged"]),
        Case("mark texts 7 and 9 as read", "SetMessageAttribute", ["identifiers": ["7", "9"], "attribute": "read"]),
        Case("mark the message from Bobo as read", "SetMessageAttribute", ["attribute": "read"]),
    ])
    func messagesByNumber(c: Case) { expectRead(c) }

    @Test("A task's priority said after it flags it: \"as an important item\", \"with high priority\"", arguments: [
        Case("add renew passport to my errands list as an important item", "AddTasks", ["taskTitles": ["renew passport"], "targetTaskList": "errands", "priority": "flagged"]),
        Case("put call the dentist on the health list with high priority", "AddTasks", ["taskTitles": ["call the dentist"], "targetTaskList": "health", "priority": "flagged"]),
    ])
    func priorityAfterTask(c: Case) { expectRead(c) }

    @Test("A note given as a form, \"title …, content …\"", arguments: [
        Case("create a note titled Packing, content socks and chargers", "CreateNote", ["title": "Packing", "content": "socks and chargers"]),
        Case("new note: title Ideas, text a bot that waters plants", "CreateNote", ["title": "Ideas", "content": "a bot that waters plants"]),
    ])
    func noteAsForm(c: Case) { expectRead(c) }

    @Test("The word \"task\" after a task's name is no part of it", arguments: [
        Case("I just finished the vacuuming chore", "SetTaskAttribute", ["targetTask": "vacuuming", "status": "completed"]),
        Case("the dishes task is done", "SetTaskAttribute", ["targetTask": "dishes", "status": "completed"]),
    ])
    func taskNounAfterName(c: Case) { expectRead(c) }

    @Test("Moving a task's reminder takes the task and the new time", arguments: [
        Case("move the reminder for water the plants to Saturday morning", "SetTaskAttribute", ["targetTask": "water the plants", "temporalEventTrigger": "2026-11-28T09:00:00-08:00"]),
        Case("update the reminder on pick up dry cleaning to 5pm", "SetTaskAttribute", ["targetTask": "pick up dry cleaning", "temporalEventTrigger": "2026-11-23T17:00:00-08:00"]),
    ])
    func movedReminders(c: Case) { expectRead(c) }

    @Test("What is still to do, asked as a question", arguments: [
        Case("which tasks did I not complete yet", "SearchForNotebookItems", ["itemType": "task", "status": "notCompleted"]),
        Case("what items are still open on my groceries list", "SearchForNotebookItems", ["itemType": "task", "status": "notCompleted", "title": "groceries"]),
        Case("what do I need to do this week", "SearchForNotebookItems", ["itemType": "task", "status": "notCompleted", "dateTime": "2026-11-22T00:00:00-08:00/2026-11-29T00:00:00-08:00"]),
    ])
    func stillToDo(c: Case) { expectRead(c) }

    @Test("\"Remind me\" opening a request stays its verb when the date follows it", arguments: [
        Case("remind me tomorrow at 8 to take out the trash", "AddTasks", ["taskTitles": ["take out the trash"], "temporalEventTrigger": "2026-11-24T08:00:00-08:00"]),
        Case("please remind me next monday to renew my license", "AddTasks", ["taskTitles": ["renew my license"], "temporalEventTrigger": "2026-11-30T09:00:00-08:00"]),
        Case("add milk to groceries and remind me tomorrow", "AddTasks", ["taskTitles": ["milk"], "targetTaskList": "groceries", "temporalEventTrigger": "2026-11-24T09:00:00-08:00"]),
    ])
    func remindMeOnDate(c: Case) { expectRead(c) }

    @Test("\"Set a reminder for\" a time, then what to do: the verb keeps all but its \"for\"", arguments: [
        Case("set a reminder for 3pm to call bob", "AddTasks", ["taskTitles": ["call bob"], "temporalEventTrigger": "2026-11-23T15:00:00-08:00"]),
        Case("set a reminder for tomorrow to water the plants", "AddTasks", ["taskTitles": ["water the plants"], "temporalEventTrigger": "2026-11-24T09:00:00-08:00"]),
        Case("new reminder: dentist tomorrow at 9", "AddTasks", ["taskTitles": ["dentist"], "temporalEventTrigger": "2026-11-24T09:00:00-08:00"]),
    ])
    func setAReminderForATime(c: Case) { expectRead(c) }

    @Test("A to-do list said by name is the list called to-do", arguments: [
        Case("show my to-do lists", "SearchForNotebookItems", ["itemType": "taskList", "title": "to-do"]),
    ])
    func toDoListByName(c: Case) { expectRead(c) }

    @Test("A party said as people counts them: \"me and three coworkers\" are four, \"five of us\" five", arguments: [
        Case("book a ride to the airport for me and three coworkers", "RequestRide", ["dropOffLocation": "airport", "partySize": 4]),
        Case("get a car to Pier 39, there are five of us", "RequestRide", ["dropOffLocation": "Pier 39", "partySize": 5]),
        Case("zippy me and a friend to the mission", "RequestRide", ["dropOffLocation": "mission", "partySize": 2]),
    ])
    func partySizeAsCounted(c: Case) { expectRead(c) }

    @Test("Asking what the ride app has or charges is asking for its options", arguments: [
        Case("see what Zippy offers to the zoo", "ListRideOptions", ["dropOffLocation": "zoo"]),
        Case("what would it charge us to go to Oakland", "ListRideOptions", ["dropOffLocation": "Oakland"]),
        Case("show me zippy rides to the stadium", "ListRideOptions", ["dropOffLocation": "stadium"]),
    ])
    func whatTheRideAppHas(c: Case) { expectRead(c) }

    @Test("A pickup and a drop-off said as \"pick me up at … and drop me off at …\"", arguments: [
        Case("have a zippy pick me up at the library and drop me off at the gym", "RequestRide", ["pickupLocation": "library", "dropOffLocation": "gym"]),
    ])
    func pickUpAndDropOff(c: Case) { expectRead(c) }

    @Test("A tip \"on\" the last ride", arguments: [
        Case("tip 5 dollars on the last ride", "SendRideFeedback", ["tip": 5]),
    ])
    func tipOnTheRide(c: Case) { expectRead(c) }

    @Test("A possessive names the sender or the one replied to: \"Coco's texts\"", arguments: [
        Case("show me Coco's texts", "SearchForMessages", ["senders": ["Coco"]]),
        Case("read Bobo's latest messages about the party", "SearchForMessages", ["senders": ["Bobo"], "searchTerms": ["party"]]),
        Case("reply to Kiki's message saying see you there", "SendMessage", ["recipients": ["Kiki"], "content": "see you there"]),
    ])
    func possessiveSenders(c: Case) { expectRead(c) }

    @Test("A remark after a comma is no item of a list: \"…, I already bought them\"", arguments: [
        Case("delete milk and eggs from groceries, I already bought them", "DeleteTasks", ["tasks": ["milk", "eggs"], "taskList": "groceries"]),
        Case("snooze water the plants till tonight, it's raining", "SnoozeTasks", ["tasks": ["water the plants"], "nextTriggerTime": "2026-11-23T20:00:00-08:00"]),
        Case("add eggs, milk, bread to groceries", "AddTasks", ["taskTitles": ["eggs", "milk", "bread"], "targetTaskList": "groceries"]),
    ])
    func remarksAfterLists(c: Case) { expectRead(c) }

    @Test("A word that points to another intent, which no pattern took, decides the intent: \"scrap my Zippy\"", arguments: [
        Case("scrap my Zippy to the office", "CancelRide", [:]),
        Case("scrap the ride", "CancelRide", [:]),
        Case("scrap that", "CancelRide", [:]),
        Case("snooze", "SnoozeTasks", [:]),
        Case("rate it", "SendRideFeedback", [:]),
        Case("Zippy, two stars and a 3 dollar tip for the driver", "SendRideFeedback", ["rating": 2, "tip": 3]),
        Case("give the zippy driver 6 bucks", "SendRideFeedback", ["tip": 6]),
        Case("could you look at where my Zippy driver is", "GetRideStatus", [:]),
        Case("zippy rating: 4 stars", "SendRideFeedback", ["rating": 4]),
    ])
    func cuesDecide(c: Case) { expectRead(c) }

    @Test("Cue words beside other words are no request: a list's name says neither which task nor what to change; \"cancel lunch\" is no ride", arguments: [
        "weekend chores", "cancel lunch with coco", "cancel the dentist",
    ])
    func cueWordAloneIsNoRequest(text: String) throws {
        var apps = apps
        for index in apps.indices where apps[index].name == "List-o-Mat" {
            apps[index].userVocabulary = ["notebookItemTitle": ["weekend chores", "groceries"]]
        }
        guard case .request(let r) = reader.read(text, apps: apps) else { return }
        Issue.record("\(text) read as \(r.intent) \(CorpusTests.show(r.parameters))")
    }

    @Test("Words of a message's content never decide the intent", arguments: [
        Case("text Coco my zippy got cancelled", "SendMessage", ["recipients": ["Coco"], "content": "my zippy got cancelled"]),
    ])
    func contentIsNoCue(c: Case) { expectRead(c) }

    @Test("Search terms go without an article, and senders may be joined by \"or\"", arguments: [
        Case("find MonkeyChat messages about the concert", "SearchForMessages", ["searchTerms": ["concert"]]),
        Case("did bobo or coco text me on monkeychat", "SearchForMessages", ["senders": ["Bobo", "Coco"]]),
    ])
    func searchTermsAndSenders(c: Case) { expectRead(c) }

    @Test("A number said in a comment is read by what its phrase says it is: \"…, tip 3 dollars\"", arguments: [
        Case("zippy: four stars for the driver, tip 3 dollars", "SendRideFeedback", ["rating": 4, "tip": 3]),
        Case("Zippy ETA", "GetRideStatus", [:]),
    ])
    func numbersInComments(c: Case) { expectRead(c) }

    @Test("Paying said as \"paying cash\" or \"charge my Amex\"", arguments: [
        Case("zippy to the museum, paying cash", "RequestRide", ["dropOffLocation": "museum", "paymentMethod": "cash"]),
        Case("get a Zippy to the pier, charge my Amex", "RequestRide", ["dropOffLocation": "pier", "paymentMethod": "Amex"]),
    ])
    func payingSaidPlainly(c: Case) { expectRead(c) }

    @Test("A name no app taught starts and ends with a capital where it is a word the language uses", arguments: [
        Case("text Mark on MonkeyChat that I'm late", "SendMessage", ["recipients": ["Mark"], "content": "I'm late"]),
        Case("message Alice on MonkeyChat: running late", "SendMessage", ["recipients": ["Alice"], "content": "running late"]),
    ])
    func untaughtNames(c: Case) { expectRead(c) }

    @Test("A word the language uses, typed in lower case, is no name of its own: \"monkeychat: anything unread\"")
    func languageWordsAreNoNames() {
        for text in ["message anything on MonkeyChat: hi", "monkeychat text it to her: on my way"] {
            if case .request(let r) = reader.read(text, apps: apps) {
                let names = (r.parameters["recipients"]?.arrayValue ?? []).compactMap(\.stringValue)
                #expect(!names.contains { ["anything", "it", "her"].contains($0) }, "\(text) read \(names)")
            }
        }
    }

    @Test("A contact said by a short form or with a typo in one word: \"lil bobo\", \"Mr. Mojo\", \"Misster Mojo\"", arguments: [
        Case("message lil bobo on monkeychat: dinner is ready", "SendMessage", ["recipients": ["Little Bobo"], "content": "dinner is ready"]),
        Case("text Mr. Mojo on MonkeyChat saying the deck is done", "SendMessage", ["recipients": ["Mister Mojo"], "content": "the deck is done"]),
        Case("ping Misster Mojo on monkeychat: call me", "SendMessage", ["recipients": ["Mister Mojo"], "content": "call me"]),
        Case("write to Coco over MonkeyChat: on my way", "SendMessage", ["recipients": ["Coco"], "content": "on my way"]),
    ])
    func contactsSaidLoosely(c: Case) { expectRead(c) }

    @Test("Search terms joined by \"or\" are searched each", arguments: [
        Case("find monkeychat messages about pizza or pasta", "SearchForMessages", ["searchTerms": ["pizza", "pasta"]]),
    ])
    func termsJoinedByOr(c: Case) { expectRead(c) }

    @Test("A phrase of an app's vocabulary points to the app without naming it")
    func vocabularyPhrasePointsToItsApp() {
        guard case .request(let r) = reader.read("a Zippy Van to the stadium for a group of six", apps: apps) else {
            Issue.record("not understood")
            return
        }
        #expect(r.intent == "RequestRide")
        #expect(r.namedApp == nil)
        #expect(r.apps == ["Zippy"])
        #expect(CorpusTests.same(r.parameters, ["rideOptionName": "Zippy Van", "dropOffLocation": "stadium", "partySize": 6]))
    }

    @Test("With the app named and nothing else to go by, its intent whose phrases read the most is taken", arguments: [
        Case("Zippy, over to the pier, the two of us", "RequestRide", ["dropOffLocation": "pier", "partySize": 2]),
    ])
    func slotsDecideForTheNamedApp(c: Case) { expectRead(c) }

    @Test("A lead into a message is no part of it: \"letting her know …\", \"just say …\"", arguments: [
        Case("send Kiki a MonkeyChat letting her know the keys are under the mat", "SendMessage", ["recipients": ["Kiki"], "content": "the keys are under the mat"]),
        Case("message Bobo on MonkeyChat, just say congrats", "SendMessage", ["recipients": ["Bobo"], "content": "congrats"]),
    ])
    func leadsIntoMessages(c: Case) { expectRead(c) }

    @Test("Asking what one sent someone searches the messages to them", arguments: [
        Case("what did I text Little Bobo on MonkeyChat", "SearchForMessages", ["recipients": ["Little Bobo"]]),
    ])
    func whatISent(c: Case) { expectRead(c) }

    @Test("A group or folder said after a title takes only its own name: \"Plans for the trip in the Travel folder\"", arguments: [
        Case("make a note called Plans for the trip in the Travel folder in List-o-Mat", "CreateNote", ["title": "Plans for the trip", "groupName": "Travel"]),
    ])
    func folderAfterTitle(c: Case) { expectRead(c) }

    @Test("A sentence's end ends the value before it: \"… using MonkeyChat. Message: …\"", arguments: [
        Case("Send a message to Kiki using MonkeyChat. Message: call me back", "SendMessage", ["recipients": ["Kiki"], "content": "call me back"]),
        Case("Message Bobo Jr., Kiki and Coco on MonkeyChat: practice moved", "SendMessage", ["recipients": ["Bobo Jr.", "Kiki", "Coco"], "content": "practice moved"]),
        Case("in MonkeyChat send Bobo the following: the game starts at noon", "SendMessage", ["recipients": ["Bobo"], "content": "the game starts at noon"]),
    ])
    func sentenceEnds(c: Case) { expectRead(c) }

    @Test("A comment started by \"so\" is no part of a value, without a comma too", arguments: [
        Case("flag message 77 on MonkeyChat so I see it later", "SetMessageAttribute", ["identifiers": ["77"], "attribute": "flagged"]),
    ])
    func commentsWithoutComma(c: Case) { expectRead(c) }

    @Test("Everyday ways to ask after a ride, search, count a party and flag a task", arguments: [
        Case("what's going on with my zippy car", "GetRideStatus", [:]),
        Case("monkeychat search: taxes", "SearchForMessages", ["searchTerms": ["taxes"]]),
        Case("zippy us to the zoo, there's 4 of us", "RequestRide", ["dropOffLocation": "zoo", "partySize": 4]),
        Case("add renew passport to my errands list in List-o-Mat and mark it as high priority", "AddTasks",
             ["taskTitles": ["renew passport"], "targetTaskList": "errands", "priority": "flagged"]),
    ])
    func everydayWays(c: Case) { expectRead(c) }

    @Test("A ride said as a form or as \"A to B\" after the app's name", arguments: [
        Case("Zippy: pickup the library, dropoff the pier, 3 people", "RequestRide", ["pickupLocation": "library", "dropOffLocation": "pier", "partySize": 3]),
        Case("Zippy: the library to the pier", "RequestRide", ["pickupLocation": "library", "dropOffLocation": "pier"]),
    ])
    func ridesAsForms(c: Case) { expectRead(c) }

    @Test("More everyday ways: a flag removed from a message, a ride's progress, a rating it \"gets\", a message's \"Content:\"", arguments: [
        Case("monkeychat remove the flag from message 88", "SetMessageAttribute", ["attribute": "unflagged", "identifiers": ["88"]]),
        Case("has my zippy driver left yet", "GetRideStatus", [:]),
        Case("how many minutes away is my zippy car", "GetRideStatus", [:]),
        Case("my zippy driver gets four stars", "SendRideFeedback", ["rating": 4]),
        Case("Send a MonkeyChat to Kiki. Content: back by noon", "SendMessage", ["recipients": ["Kiki"], "content": "back by noon"]),
    ])
    func moreEverydayWays(c: Case) { expectRead(c) }

    @Test("\"Send it to …\" names whom to send to, not what to say: \"it\" is no message, and a trailing \"instead\" no part of a name", arguments: [
        Case("send it to Bobo Jr.", "SendMessage", ["recipients": ["Bobo Jr."]]),
        Case("send it to Bobo Jr instead", "SendMessage", ["recipients": ["Bobo Jr."]]),
        Case("send it to Coco", "SendMessage", ["recipients": ["Coco"]]),
        Case("forward that to Kiki instead", "SendMessage", ["recipients": ["Kiki"]]),
        Case("send hi to Bobo Jr.", "SendMessage", ["recipients": ["Bobo Jr."], "content": "hi"]),
    ])
    func sendItTo(c: Case) { expectRead(c) }

    @Test("\"and\" after a person joins another person, also one no app knows; no message starts with it", arguments: [
        Case("tell coco and zorro lunch is cancelled", "SendMessage", ["recipients": ["coco", "zorro"], "content": "lunch is cancelled"]),
        Case("tell Coco and Kiki lunch is cancelled", "SendMessage", ["recipients": ["Coco", "Kiki"], "content": "lunch is cancelled"]),
        Case("text coco and zorro see you at noon", "SendMessage", ["recipients": ["coco", "zorro"], "content": "see you at noon"]),
    ])
    func andJoinsPeople(c: Case) { expectRead(c) }

    @Test("\"and\" before a pronoun or a little word after a person starts the message", arguments: [
        Case("tell Coco and then call me", "SendMessage", ["recipients": ["Coco"], "content": "and then call me"]),
        Case("tell Coco and I will call later", "SendMessage", ["recipients": ["Coco"], "content": "and I will call later"]),
    ])
    func andBeforeLittleWords(c: Case) { expectRead(c) }

    @Test("Questions people asked the chat that no pattern took", arguments: [
        Case("did coco write about dinner", "SearchForMessages", ["senders": ["coco"], "searchTerms": ["dinner"]]),
        Case("did coco say anything about the tree", "SearchForMessages", ["senders": ["coco"], "searchTerms": ["tree"]]),
        Case("whats on groceries", "SearchForNotebookItems", ["title": "groceries", "itemType": "taskList"]),
        Case("new note packing: umbrella", "CreateNote", ["title": "packing", "content": "umbrella"]),
        Case("any new messages?", "SearchForMessages", ["attributes": ["unread"]]),
        Case("append to campsite info", "AppendToNote", ["targetNote": "campsite info"]),
        Case("append something to campsite info", "AppendToNote", ["targetNote": "campsite info"]),
    ])
    func questionsPeopleAsked(c: Case) { expectRead(c) }

    @Test("A task deleted with no list named is a task, and a colon ends a list's or note's name", arguments: [
        Case("delete buns", "DeleteTasks", ["tasks": ["buns"]]),
        Case("remove the old tent", "DeleteTasks", ["tasks": ["old tent"]]),
        Case("delete the grocery list", "DeleteTasks", ["taskList": "grocery", "all": true]),
        Case("add a note to camping: leave by 8", "AppendToNote", ["targetNote": "camping", "content": "leave by 8"]),
        Case("add buns to the camping list: we need two", "AddTasks", ["targetTaskList": "camping", "taskTitles": ["buns"]]),
        Case("add 3 things to my shopping list: bread, cheese and wine", "AddTasks", ["targetTaskList": "shopping", "taskTitles": ["bread", "cheese", "wine"]]),
        Case("add the following to my grocery list: milk, eggs", "AddTasks", ["targetTaskList": "grocery", "taskTitles": ["milk", "eggs"]]),
        Case("add a reminder to the camping list: buy gas", "AddTasks", ["targetTaskList": "camping", "taskTitles": ["buy gas"]]),
        Case("add these three to my grocery list: milk, eggs, bread", "AddTasks", ["targetTaskList": "grocery", "taskTitles": ["milk", "eggs", "bread"]]),
        Case("add these to groceries: apples, pears, oat milk", "AddTasks", ["targetTaskList": "groceries", "taskTitles": ["apples", "pears", "oat milk"]]),
        Case("add the following to my packing list: socks, charger", "AddTasks", ["targetTaskList": "packing", "taskTitles": ["socks", "charger"]]),
        Case("put a reminder on my errands list: call bob", "AddTasks", ["targetTaskList": "errands", "taskTitles": ["call bob"]]),
        Case("remind me to email bob: re budget", "AddTasks", ["taskTitles": ["email bob: re budget"]]),
        Case("add read up on it", "AddTasks", ["taskTitles": ["read up on it"]]),
        Case("add to the trip plan note: leave friday at 4, and we need firewood", "AppendToNote", ["targetNote": "trip plan", "content": "leave friday at 4, and we need firewood"]),
    ])
    func tasksWithoutAListAndColons(c: Case) { expectRead(c) }

    @Test("A yes-or-no question passed on is asked directly; one of no clear form, or no question, is kept as said", arguments: [
        Case("ask kiki if she can bring plates", "SendMessage", ["recipients": ["Kiki"], "content": "Can you bring plates?"]),
        Case("ask coco whether he's coming tonight", "SendMessage", ["recipients": ["Coco"], "content": "Are you coming tonight?"]),
        Case("ask kiki if she wants pizza", "SendMessage", ["recipients": ["Kiki"], "content": "Do you want pizza?"]),
        Case("ask coco and kiki if they're free on saturday", "SendMessage", ["recipients": ["Coco", "Kiki"], "content": "Are you free on saturday?"]),
        Case("ask kiki if she has the keys", "SendMessage", ["recipients": ["Kiki"], "content": "Do you have the keys?"]),
        Case("ask kiki if she's done with the car", "SendMessage", ["recipients": ["Kiki"], "content": "Are you done with the car?"]),
        Case("ask kiki if she's seen my keys", "SendMessage", ["recipients": ["Kiki"], "content": "Have you seen my keys?"]),
        Case("ask bobo if he has the keys", "SendMessage", ["recipients": ["Bobo"], "content": "Do you have the keys?"]),
        Case("ask kiki if she can give her a ride", "SendMessage", ["recipients": ["Kiki"], "content": "if she can give her a ride"]),
        Case("ask coco if she got the tickets", "SendMessage", ["recipients": ["Coco"], "content": "if she got the tickets"]),
        Case("tell coco if she's late to start without me", "SendMessage", ["recipients": ["Coco"], "content": "if she's late to start without me"]),
        Case("ask kiki what time she's free tomorrow", "SendMessage", ["recipients": ["Kiki"], "content": "What time are you free tomorrow?"]),
        Case("ask coco where she wants to eat", "SendMessage", ["recipients": ["Coco"], "content": "Where do you want to eat?"]),
        Case("ask kiki how long she'll be", "SendMessage", ["recipients": ["Kiki"], "content": "How long will you be?"]),
        Case("ask kiki who is coming", "SendMessage", ["recipients": ["Kiki"], "content": "Who is coming?"]),
        Case("ask bobo what time the movie starts", "SendMessage", ["recipients": ["Bobo"], "content": "what time the movie starts"]),
        Case("ask coco what she said", "SendMessage", ["recipients": ["Coco"], "content": "what she said"]),
        Case("ask kiki if she can bring her car", "SendMessage", ["recipients": ["Kiki"], "content": "if she can bring her car"]),
        Case("ask kiki if she can call him", "SendMessage", ["recipients": ["Kiki"], "content": "if she can call him"]),
        Case("ask kiki if she can call me when she lands", "SendMessage", ["recipients": ["Kiki"], "content": "if she can call me when she lands"]),
        Case("ask kiki if she did the dishes", "SendMessage", ["recipients": ["Kiki"], "content": "if she did the dishes"]),
        Case("ask kiki if she always wants pizza", "SendMessage", ["recipients": ["Kiki"], "content": "if she always wants pizza"]),
        Case("ask kiki if she has seen my keys", "SendMessage", ["recipients": ["Kiki"], "content": "if she has seen my keys"]),
        Case("ask kiki if they're coming", "SendMessage", ["recipients": ["Kiki"], "content": "if they're coming"]),
        Case("ask kiki if she's free tonight. I have tickets", "SendMessage", ["recipients": ["Kiki"], "content": "if she's free tonight. I have tickets"]),
        Case("ask kiki if she's free and can drive", "SendMessage", ["recipients": ["Kiki"], "content": "if she's free and can drive"]),
    ])
    func questionPassedOn(c: Case) { expectRead(c) }

    @Test("Something asked for is asked directly (\"ask Coco for the wifi password\": \"Can I have the wifi password?\"); one that may be about someone else is kept as said", arguments: [
        Case("ask coco for the wifi password", "SendMessage", ["recipients": ["Coco"], "content": "Can I have the wifi password?"]),
        Case("ask Coco for a ride to the airport", "SendMessage", ["recipients": ["Coco"], "content": "Can I have a ride to the airport?"]),
        Case("ask coco for her number", "SendMessage", ["recipients": ["Coco"], "content": "for her number"]),
        Case("ask kiki for a favor and then call me", "SendMessage", ["recipients": ["Kiki"], "content": "for a favor and then call me"]),
    ])
    func somethingAskedFor(c: Case) { expectRead(c) }

    @Test("Something asked for in the reader's words is sent only after a yes: \"Can I have dinner on friday?\" may not be what was meant")
    func favourIsConfirmed() {
        guard case .request(let r) = reader.read("ask coco for dinner on friday", apps: apps) else {
            Issue.record("not understood")
            return
        }
        #expect(r.parameters["content"] == "Can I have dinner on friday?")
        #expect(r.questionKeptAsSaid == "content")
        guard case .request(let direct) = reader.read("ask kiki if she can bring plates", apps: apps) else { return }
        #expect(direct.questionKeptAsSaid == nil, "a question asked directly in the user's words is not")
    }

    @Test("A place on a street keeps its street, and an article alone is no place", arguments: [
        Case("get me a zippy to the REI on 9th street", "RequestRide", ["dropOffLocation": "REI on 9th street"]),
        Case("book a zippy to REI on 9th street", "RequestRide", ["dropOffLocation": "REI on 9th street"]),
        Case("book a ride to the cafe on Valencia St for 2", "RequestRide", ["dropOffLocation": "cafe on Valencia St", "partySize": 2]),
    ])
    func placesOnStreets(c: Case) { expectRead(c) }

    @Test("\"Add that to my list\" names the list and leaves what to add to be asked", arguments: [
        Case("add that to my grocery list", "AddTasks", ["targetTaskList": "grocery"]),
        Case("put this on the packing list", "AddTasks", ["targetTaskList": "packing"]),
    ])
    func addThatToAList(c: Case) { expectRead(c) }

    @Test("\"Back\" after whom a text goes to is no part of the message", arguments: [
        Case("text her back saying see you there", "SendMessage", ["content": "see you there"]),
        Case("text kiki back saying yes", "SendMessage", ["recipients": ["Kiki"], "content": "yes"]),
    ])
    func textBack(c: Case) { expectRead(c) }

    @Test("A message to a person may ask for a ride: skipping whom it goes to reads no ride request", arguments: [
        Case("text Coco I need a ride to the ferry building", "SendMessage", ["recipients": ["Coco"], "content": "I need a ride to the ferry building"]),
        Case("tell Little Bobo I need a cab to the airport for 3 people", "SendMessage", ["recipients": ["Little Bobo"], "content": "I need a cab to the airport for 3 people"]),
    ])
    func messageAskingForARide(c: Case) { expectRead(c) }

    @Test("A reminder set with its time first keeps \"set a reminder\" as the verb, whatever leads into the time", arguments: [
        Case("set a reminder at 3pm to call bob", "AddTasks", ["taskTitles": ["call bob"], "temporalEventTrigger": "2026-11-23T15:00:00-08:00"]),
        Case("set a reminder for 3pm to call bob", "AddTasks", ["taskTitles": ["call bob"], "temporalEventTrigger": "2026-11-23T15:00:00-08:00"]),
        Case("set a reminder tomorrow to call bob", "AddTasks", ["taskTitles": ["call bob"], "temporalEventTrigger": "2026-11-24T09:00:00-08:00"]),
        Case("set reminder at 3pm to call bob", "AddTasks", ["taskTitles": ["call bob"], "temporalEventTrigger": "2026-11-23T15:00:00-08:00"]),
        Case("create a reminder for tomorrow at 9 to water the plants", "AddTasks", ["taskTitles": ["water the plants"], "temporalEventTrigger": "2026-11-24T09:00:00-08:00"]),
        Case("I need a reminder to call mom", "AddTasks", ["taskTitles": ["call mom"]]),
    ])
    func reminderWithItsTimeFirst(c: Case) { expectRead(c) }

    @Test("A kind of ride the language knows is no typo of a pattern's word: \"a lyft\" is an option, not \"a lift\"", arguments: [
        Case("get me a lyft home", "RequestRide", ["rideOptionName": "lyft", "dropOffLocation": "Home"]),
        Case("get me a lyft to the airport", "RequestRide", ["rideOptionName": "lyft", "dropOffLocation": "airport"]),
    ])
    func lyftIsNoTypo(c: Case) { expectRead(c) }

    @Test("\"Pick up\" names a place only with \"at\" or whom: the kids picked up are no pickup place")
    func pickingUpTheKids() {
        guard case .request(let r) = reader.read("I need to pick up the kids from school", apps: apps), r.intent == "RequestRide" else { return }
        #expect(r.parameters["pickupLocation"] != .string("kids"))
        expectRead(Case("pick me up at the library", "RequestRide", ["pickupLocation": "library"]))
    }

    @Test("A ride got for someone else is a ride: the rider's name is read past, and \"for two\" is still a party size", arguments: [
        Case("get Coco a ride home", "RequestRide", ["dropOffLocation": "Home"]),
        Case("get Coco a ride to the airport", "RequestRide", ["dropOffLocation": "airport"]),
        Case("book a ride for Coco to the ferry building", "RequestRide", ["dropOffLocation": "ferry building"]),
        Case("book a ride for two to the airport", "RequestRide", ["dropOffLocation": "airport", "partySize": 2]),
    ])
    func rideForSomeoneElse(c: Case) { expectRead(c) }

    @Test("Messages from someone, said with a period or alone, keep whom they are from", arguments: [
        Case("any messages from coco this week", "SearchForMessages", ["senders": ["Coco"], "dateTime": "2026-11-22T00:00:00-08:00/2026-11-29T00:00:00-08:00"]),
        Case("show me messages from coco from this week", "SearchForMessages", ["senders": ["Coco"], "dateTime": "2026-11-22T00:00:00-08:00/2026-11-29T00:00:00-08:00"]),
        Case("messages from coco", "SearchForMessages", ["senders": ["Coco"]]),
    ])
    func messagesFromSomeone(c: Case) { expectRead(c) }

    @Test("\"I need to remember to …\" is a task", arguments: [
        Case("I need to remember to call mom", "AddTasks", ["taskTitles": ["call mom"]]),
        Case("I have to remember to water the plants", "AddTasks", ["taskTitles": ["water the plants"]]),
    ])
    func needToRemember(c: Case) { expectRead(c) }

    @Test("A list's title the app taught decides where a task's words end: \"add march on city hall to errands\" is for errands", arguments: [
        Case("add march on city hall to errands", "AddTasks", ["taskTitles": ["march on city hall"], "targetTaskList": "errands"]),
        Case("add finish what I started in june to errands", "AddTasks", ["taskTitles": ["finish what I started in june"], "targetTaskList": "errands"]),
        Case("add go to the bank to errands", "AddTasks", ["taskTitles": ["go to the bank"], "targetTaskList": "errands"]),
    ])
    func taughtTitleEndsTheTask(c: Case) { expectRead(c, apps: listOMat(teaching: ["Errands", "June trip"])) }

    @Test("A title the app taught picks among one intent's readings, never the intent: with lists called Home, Ride and Kiki", arguments: [
        Case("get me home", "RequestRide", ["dropOffLocation": "Home"]),
        Case("check my ride", "GetRideStatus", [:]),
        Case("search for kiki", "SearchForMessages", ["searchTerms": ["kiki"]]),
    ])
    func taughtTitleKeepsTheIntent(c: Case) {
        let before = reader.read(c.text, apps: apps)
        expectRead(c, apps: listOMat(teaching: ["Home", "Ride", "Kiki"]))
        guard case .request(let untaught) = before, case .request(let taught) = reader.read(c.text, apps: listOMat(teaching: ["Home", "Ride", "Kiki"])) else { return }
        #expect(untaught.intent == taught.intent)
    }

    @Test("Terms an app taught under a type no parameter names (a hostile app's \"unread messages\") change no reading")
    func untypedTermsChangeNothing() {
        let hostile = apps.map { app in
            var app = app
            if app.name == "List-o-Mat" { app.userVocabulary["anything"] = ["unread messages", "kiki's messages"] }
            return app
        }
        for text in ["check unread messages", "read kiki's messages", "add milk to unread messages"] {
            #expect(reader.read(text, apps: hostile) == reader.read(text, apps: apps), "\(text)")
        }
    }

    @Test("What was done, what were the tasks, and whether someone said anything, asked in the past tense", arguments: [
        Case("what did I finish", "SearchForNotebookItems", ["itemType": "task", "status": "completed"]),
        Case("what have I checked off", "SearchForNotebookItems", ["itemType": "task", "status": "completed"]),
        Case("what did I finish on the june trip list", "SearchForNotebookItems", ["itemType": "taskList", "status": "completed", "title": "june trip"]),
        Case("which tasks did I complete last week", "SearchForNotebookItems", ["itemType": "task", "status": "completed", "dateTime": "2026-11-15T00:00:00-08:00/2026-11-22T00:00:00-08:00"]),
        Case("what were my tasks for friday", "SearchForNotebookItems", ["itemType": "task", "dateTime": "2026-11-20T09:00:00-08:00"]),
        Case("did kiki say anything", "SearchForMessages", ["senders": ["Kiki"]]),
    ])
    func pastTenseQuestions(c: Case) { expectRead(c) }

    @Test("\"Send that to Kiki too\" names no message, and \"my todo list\" is the list called todo when the app taught one, else every list", arguments: [
        Case("send that to kiki too", "SendMessage", ["recipients": ["Kiki"]]),
        Case("send it to bobo jr. as well", "SendMessage", ["recipients": ["Bobo Jr."]]),
        Case("what's on my todo list", "SearchForNotebookItems", ["itemType": "taskList", "title": "todo"]),
        Case("what's done on my todo list", "SearchForNotebookItems", ["itemType": "taskList", "title": "todo", "status": "completed"]),
        Case("what's done", "SearchForNotebookItems", ["itemType": "task", "status": "completed"]),
        Case("what's done on all my lists", "SearchForNotebookItems", ["itemType": "taskList", "title": "all", "status": "completed"]),
        Case("send kiki a message too", "SendMessage", ["recipients": ["Kiki"]]),
        Case("what did I send today", "SearchForMessages", ["senders": ["Me"], "dateTime": "2026-11-23T09:00:00-08:00"]),
    ])
    func thatTooAndTheTodoList(c: Case) { expectRead(c, apps: listOMat(teaching: ["todo", "work"])) }

    @Test("\"My todo list\" with no list called todo is every list")
    func todoListUntaught() { expectRead(Case("what's on my todo list", "SearchForNotebookItems", ["itemType": "taskList", "title": "all"])) }

    @Test("A note made without \"that\" says what follows", arguments: [
        Case("make a note the garage code is 1234", "CreateNote", ["content": "the garage code is 1234"]),
        Case("what notes do I have about the garage", "SearchForNotebookItems", ["itemType": "note", "content": "garage"]),
    ])
    func noteWithoutThat(c: Case) { expectRead(c) }
}
