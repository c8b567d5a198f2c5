import Foundation
import IntentProtocol
import Testing
import Understanding

@Suite("Reading answers")
struct AnswerReaderTests {
    let answers: AnswerReader
    let bobos = ["Bobo Jr.", "Bobo the Great", "Little Bobo"]

    init() throws {
        answers = AnswerReader(pack: try Fixture.reader().pack)
    }

    @Test("A name asked for may be said as a request says it, and politely: \"on the chores list please\" is chores")
    func phrasedAnswers() throws {
        let catalog = try Catalog(directory: Fixture.root.appendingPathComponent("Protocols/domains"))
        let list = try #require(catalog.intent("AddTasks")?.parameter("targetTaskList"))
        for said in ["on the chores list please", "chores please", "to the chores list, thanks", "to the chores list thanks", "chores"] {
            #expect(answers.value(said, for: list, intent: "AddTasks", apps: []) == "chores", "\(said)")
        }
        #expect(answers.isPhrasedValue("on the chores list please", for: list, intent: "AddTasks"))
        #expect(!answers.isPhrasedValue("chores", for: list, intent: "AddTasks"))
        // A value holds no word of the phrases: this asks what is on a list, it names none.
        #expect(!answers.isPhrasedValue("what's on my grocery list", for: list, intent: "AddTasks"))
        let content = try #require(catalog.intent("SendMessage")?.parameter("content"))
        #expect(answers.value("on my way please", for: content, intent: "SendMessage", apps: []) == "on my way please", "free text is kept")
    }

    @Test("A value asked for may be said as a request says it: \"just me\", \"the two of us\" where a party size was asked for")
    func answersInTheRequestsWords() throws {
        let catalog = try Catalog(directory: Fixture.root.appendingPathComponent("Protocols/domains"))
        let size = try #require(catalog.intent("RequestRide")?.parameter("partySize"))
        let cases: [(String, JSONValue)] = [("just me", 1), ("only me", 1), ("two of us", 2), ("the three of us", 3), ("me and my wife", 2), ("4", 4), ("for 5 people", 5)]
        for (said, expected) in cases {
            #expect(answers.value(said, for: size, intent: "RequestRide", apps: []) == expected, "\(said)")
        }
        let content = try #require(catalog.intent("SendMessage")?.parameter("content"))
        #expect(answers.value("just me", for: content, intent: "SendMessage", apps: []) == "just me", "free text is kept")
    }

    @Test("A suggestion that opens an answer gives what follows it; alone, or not first, it gives nothing")
    func suggestions() {
        #expect(answers.afterSuggestion("how about union square?") == "union square?")
        #expect(answers.afterSuggestion("What about  the Ferry Building") == "the Ferry Building")
        #expect(answers.afterSuggestion("how about") == nil)
        #expect(answers.afterSuggestion("union square, how about it") == nil)
    }

    @Test("Whole requests to say the last answer again are told apart from requests that say more")
    func sayAgain() {
        for said in ["read it to me", "Say that again!", "what did it say?", "repeat that"] { #expect(answers.asksToSayAgain(said), "\(said)") }
        for said in ["read it to me and text Coco", "say that again to Kiki", "what did Coco say?"] { #expect(!answers.asksToSayAgain(said), "\(said)") }
    }

    @Test("Whole requests to undo are told apart from requests that say more")
    func undo() {
        for said in ["undo that", "Undo!", "take that back", "undo the last thing"] { #expect(answers.asksToUndo(said), "\(said)") }
        for said in ["undo the flag on milk", "take that back to the store", "add undo to my list"] { #expect(!answers.asksToUndo(said), "\(said)") }
    }

    @Test("Free text that only points back is no message; one that says something is")
    func sameAsBefore() {
        #expect(answers.isSameAsBefore("the same"))
        #expect(answers.isSameAsBefore("Same thing"))
        #expect(answers.isSameAsBefore("that"))
        #expect(!answers.isSameAsBefore("that's it"))
        #expect(!answers.isSameAsBefore("the same time as yesterday"))
    }

    @Test("A choice is taken by number, ordinal, whole name or a telling word")
    func choices() {
        #expect(answers.choice("2", options: bobos) == 1)
        #expect(answers.choice("the third one", options: bobos) == 2)
        #expect(answers.choice("number 1", options: bobos) == 0)
        #expect(answers.choice("last", options: bobos) == 2)
        #expect(answers.choice("the middle one please", options: bobos) == 1)
        #expect(answers.choice("Bobo the Great", options: bobos) == 1)
        #expect(answers.choice("the great one", options: bobos) == 1)
        #expect(answers.choice("little", options: bobos) == 2)
    }

    @Test("An answer that fits no option, or several, picks nothing")
    func noChoice() {
        #expect(answers.choice("Bobo", options: bobos) == nil)
        #expect(answers.choice("7", options: bobos) == nil)
        #expect(answers.choice("0", options: bobos) == nil)
        // Two options have no middle one.
        #expect(answers.choice("the middle one", options: Array(bobos.prefix(2))) == nil)
        // Two picks are no one choice: asked again, not half taken.
        #expect(answers.choice("1 and 3", options: bobos) == nil)
        #expect(answers.choice("the first and the third", options: bobos) == nil)
        // The same number twice is one; numbers in a name are the name's.
        #expect(answers.choice("3, the third one", options: bobos) == 2)
        #expect(answers.choice("top 10 movies 2024", options: ["Top 10 Movies 2023", "Top 10 Movies 2024"]) == 1)
        #expect(answers.choice("-9223372036854775808", options: bobos) == nil, "the smallest Int, which once trapped")
        #expect(answers.choice("9223372036854775807", options: bobos) == nil)
        #expect(answers.choice("1", options: []) == nil)
        #expect(answers.choice("book a ride", options: bobos) == nil)
    }

    @Test("Yes, no and cancel are read from the language's words")
    func yesNoCancel() {
        #expect(answers.yesNo("Yes please") == true)
        #expect(answers.yesNo("yeah, do it") == true)
        #expect(answers.yesNo("nope") == false)
        #expect(answers.yesNo("ya") == true)
        #expect(answers.yesNo("y") == true)
        #expect(answers.yesNo("maybe later") == nil)
        #expect(answers.yesNo("ok, cancel it") == nil, "a cancel after a yes word")
        #expect(answers.yesNo("yes, never mind") == nil)
        #expect(answers.yesNo("ok, no, don't book it") == nil, "a no after a yes word")
        #expect(answers.yesNo("ok - never mind") == nil, "a dash standing alone between")
        #expect(answers.yesNo("sure, no problem") == true)
        #expect(answers.yesNo("yes, nothing else") == true)
        #expect(answers.isCancelAnswer("ok, cancel it"))
        #expect(answers.isCancelAnswer("cancel it"))
        #expect(answers.isCancelAnswer("no, never mind"))
        #expect(answers.isCancelAnswer("ugh ok never mind"))
        #expect(answers.isCancelAnswer("never mind then"))
        #expect(!answers.isCancelAnswer("cancel my ride"))
        #expect(!answers.isCancelAnswer("yes, nothing else"))
        #expect(answers.isCancel("never mind"))
        #expect(answers.isCancel("Cancel."))
        #expect(!answers.isCancel("cancel my ride"))
    }

    @Test("An answer in the words of the intent it confirms agrees: \"yes cancel it\" to \"Cancel your ride?\"", arguments: [
        ("yes cancel it", "Cancel your ride", true),
        ("yep go ahead and cancel", "Cancel your ride", true),
        ("cancel", "Cancel your ride", true),
        ("yes cancel my ride", "Cancel your ride", true),
        ("yes delete it", "Delete cake from Party", true),
        ("don't cancel it", "Cancel your ride", false),
        ("never mind", "Cancel your ride", false),
        ("delete everything?", "Delete everything on Party", false),
        ("maybe delete it", "Delete cake from Party", false),
        ("it can wait", "Request a Zippy Pool from Current Location to Ferry Building? It can pick you up in about 2 minutes", false),
        ("cake", "Delete cake from Party", false),
        ("yes", "Cancel your ride", false),
    ])
    func agreesInItsWords(text: String, summary: String, agrees: Bool) {
        #expect(answers.agreesInItsWords(text, confirming: summary) == agrees)
    }

    @Test("A yes or no phrase whose first word is also a filler is still a yes or no")
    func phrasesStartingWithFillers() {
        for yes in ["go ahead", "do it", "Go ahead!"] {
            #expect(answers.yesNo(yes) == true, "\(yes)")
            #expect(answers.isOnlyYesOrNo(yes), "\(yes)")
        }
        #expect(answers.isOnlyYesOrNo("no thanks"))
        #expect(!answers.isOnlyYesOrNo("no, send it to Coco"))
        #expect(!answers.isOnlyYesOrNo(""))
    }

    @Test("A no after fillers or a word that takes back is a no; a yes or no inside other words is neither")
    func noAfterFillers() {
        for no in ["wait, no, keep it", "um no", "actually no", "hmm nope"] {
            #expect(answers.yesNo(no) == false, "\(no)")
        }
        #expect(answers.yesNo("wait what") == nil)
        #expect(answers.yesNo("tell coco no") == nil)
    }

    @Test("A yes held back by a hesitation or a question is no yes yet; one going on with \"and\" still is")
    func yesHeldBack() {
        for held in ["okay wait", "ok hold on", "yes wait", "ok let me think", "ok, how far is it?", "sure, but how much is it?", "yes? how much", "yes but for 2", "ok hmm"] {
            #expect(answers.yesNo(held) == nil, "\(held)")
            #expect(answers.yesNoThen(held) == nil, "\(held)")
        }
        #expect(answers.yesNo("yes please") == true)
        #expect(answers.yesNo("sure, no problem") == true)
        #expect(answers.yesNoThen("go ahead, and where is my ride?")?.yes == true)
    }

    @Test("A yes or no said first gives the rest as typed, without the fillers between")
    func yesOrNoThenMore() {
        func parts(_ text: String) -> [String]? {
            answers.yesNoThen(text).map { [$0.yes ? "yes" : "no", $0.answer, $0.rest] }
        }
        #expect(parts("yes, and on MonkeyChat tell Coco I'm coming") == ["yes", "yes,", "on MonkeyChat tell Coco I'm coming"])
        #expect(parts("No. Then book a ride") == ["no", "No.", "book a ride"])
        #expect(parts("go ahead and book it") == ["yes", "go ahead", "book it"], "a phrase of several words")
        #expect(parts("ok and tell Coco") == ["yes", "ok", "tell Coco"])
        #expect(parts("yes please") == nil, "fillers only")
        #expect(parts("yes") == nil)
        #expect(parts("OK Siri, text Coco I'm late") == nil, "ok is also a filler")
        #expect(parts("sure no, tell Coco") == nil, "a no after it")
        #expect(parts("yes never mind, tell Coco") == nil, "a cancel after it")
        #expect(parts("book a ride, yes") == nil)
        #expect(parts("") == nil)
    }

    @Test("A no said first gives what follows it as typed: the correction")
    func whatFollowsANo() {
        #expect(answers.afterNo("wait no send it to Bobo Jr. instead") == "send it to Bobo Jr. instead")
        #expect(answers.afterNo("No, message Kiki") == "message Kiki")
        #expect(answers.afterNo("ok nah, just tell Coco") == "tell Coco")
        #expect(answers.afterNo("no thanks, book a ride") == "book a ride", "a phrase of several words")
        #expect(answers.afterNo("tell Coco no") == nil, "a no later on")
        #expect(answers.afterNo("no") == nil, "nothing after it")
        #expect(answers.afterNo("nobody told me") == nil)
        #expect(answers.afterNo("") == nil)
    }

    @Test("Free text that takes itself back partway is told apart from text that only uses the same words")
    func textThatTakesItselfBack() {
        #expect(answers.takesItselfBack("no wait, kiki : can you bring dessert?"))
        #expect(answers.takesItselfBack("actually to coco, saying sorry ignore that last one") == false, "the first clause, with no no")
        #expect(answers.takesItselfBack("the guitar is optional, actually never mind"))
        #expect(answers.takesItselfBack("see you at 7, I meant 8"))
        #expect(answers.takesItselfBack("bring chips, never mind"))
        #expect(!answers.takesItselfBack("wait for me at the door"))
        #expect(!answers.takesItselfBack("actually I can come after all"))
        #expect(!answers.takesItselfBack("no problem, see you then"))
        #expect(!answers.takesItselfBack("I never mind the rain"))
        #expect(!answers.takesItselfBack("tell him to stop"))
        #expect(!answers.takesItselfBack("I love you, I mean it"))
        #expect(!answers.takesItselfBack("I'm outside, wait for me by the door"))
        #expect(answers.takesItselfBack("I'm outside, wait no, at the back"))
        #expect(answers.takesItselfBack("nope, actually see you at 8"))
        // A no that opens a change of mind needs no comma before it.
        #expect(answers.takesItselfBack("we meet at 7 no wait make that 7:30"))
        #expect(!answers.takesItselfBack("there is no way I'm late"))
        #expect(!answers.takesItselfBack(""))
    }

    @Test("Words that point back at what was shown are told apart")
    func pointingBack() {
        #expect(answers.pointsBack("mark them as read"))
        #expect(answers.pointsBack("flag those"))
        #expect(!answers.pointsBack("mark my messages as read"))
        #expect(!answers.pointsBack("remind me to wash the car this afternoon"), "a date's this")
        #expect(!answers.pointsBack("what do I have due this week"), "a stretch of days' this")
        #expect(!answers.pointsBack("create a note called camp8 that says see you"), "a clause's that")
        #expect(answers.pointsBack("mark that read"))
        #expect(answers.pointsBack("add a hat to it this weekend"))
        // A value that only points ("them all") is no value: the words point back.
        #expect(answers.pointsBack("mark them all as done", besides: ["targetTask": "them all"]))
        #expect(!answers.pointsBack("mark call them as done", besides: ["targetTask": "call them"]))
    }

    @Test("A value of words that only point back names nothing: text, a person, a place or a list of them")
    func onlyPointing() {
        for value: JSONValue in ["it", "them all", "all of them", "both of them", ["displayName": "them"], ["name": "that one"], ["those", "them"]] {
            #expect(answers.onlyPoints(value), "\(value)")
        }
        for value: JSONValue in ["all", "everything", "call them", ["displayName": "Coco"], ["it", "milk"], [], 3] {
            #expect(!answers.onlyPoints(value), "\(value)")
        }
    }
}

@Suite("Saying things")
struct PhrasebookTests {
    let words: Phrasebook

    init() throws { words = Phrasebook(pack: try Fixture.reader().pack) }

    @Test("A template with a missing value gives way to the next one")
    func templatesFallBack() {
        let full: [String: JSONValue] = ["rideOption": "Zippy Pool", "pickupLocation": ["name": "Home"], "dropOffLocation": "Airport", "estimatedPickupSeconds": 150]
        #expect(words.summary(of: "RequestRide", full) == "Request a Zippy Pool from Home to Airport? It can pick you up in about 3 minutes.")
        #expect(words.summary(of: "RequestRide", ["dropOffLocation": "Airport"]) == "Request a ride to Airport?")
    }

    @Test("Cancelling a ride says its fee when there is one to pay, and only then")
    func cancellationFee() {
        #expect(words.summary(of: "CancelRide", ["rideIdentifier": "r1", "cancellationFee": 5]) == "Cancel your ride? Cancelling it costs 5.00.")
        #expect(words.summary(of: "CancelRide", ["rideIdentifier": "r1", "cancellationFee": 0]) == "Cancel your ride?")
        #expect(words.summary(of: "CancelRide", ["rideIdentifier": "r1"]) == "Cancel your ride?")
    }

    @Test("One of something is said in the singular: a minute, a message")
    func oneIsSingular() {
        let ride: [String: JSONValue] = ["rideOption": "Zippy Pool", "pickupLocation": ["name": "Home"], "dropOffLocation": "Airport"]
        var values = ride
        values["estimatedPickupSeconds"] = 50
        #expect(words.summary(of: "RequestRide", values) == "Request a Zippy Pool from Home to Airport? It can pick you up in about 1 minute.")
        values["estimatedPickupSeconds"] = 100
        #expect(words.summary(of: "RequestRide", values) == "Request a Zippy Pool from Home to Airport? It can pick you up in about 2 minutes.")
        let message: JSONValue = ["sender": ["displayName": "Coco"], "content": "hi"]
        #expect(words.result(of: "SearchForMessages", ["messages": [message]]) == "1 message: Coco: \u{201C}hi\u{201D}.")
        #expect(words.result(of: "SearchForMessages", ["messages": [message, message]]).hasPrefix("2 messages: "))
    }

    @Test("A language file whose template names a filter the phrasebook does not have is refused at load", arguments: [
        "{estimatedPickupSeconds|minute}", "{messages|count:2}", "{messages|count:1:1}", "{app", "{status|is:}", "{status|is:{x}}", "{status|is:a|b}",
    ])
    func unknownFiltersAreRefused(_ template: String) throws {
        let url = Fixture.root.appendingPathComponent("Protocols/languages/en.json")
        var file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var say = try #require(file["say"] as? [String: String])
        say["ended"] = template
        file["say"] = say
        let data = try JSONSerialization.data(withJSONObject: file)
        #expect(throws: LanguageError.self) { try LanguagePack(data: data) }
        say["ended"] = "ends {messages|count:1} {status|is:completed}"
        file["say"] = say
        _ = try LanguagePack(data: try JSONSerialization.data(withJSONObject: file))
    }

    @Test("A template with {value|is:text} is said only when the value is that: \"Nothing is done yet\" for a search of what is done, \"You sent no messages\" for one of the user's own")
    func templateForOneValue() throws {
        let words = Phrasebook(pack: try Fixture.pack(), clock: Fixture.clock)
        #expect(words.result(of: "SearchForNotebookItems", ["tasks": [], "status": "completed"]) == "Nothing is done yet.")
        #expect(words.result(of: "SearchForNotebookItems", ["tasks": [], "status": "notCompleted"]) == "I found no tasks.")
        #expect(words.result(of: "SearchForMessages", ["messages": [], "senders": [["displayName": "Me", "identifier": "me"]]]) == "You sent no messages.")
        #expect(words.result(of: "SearchForMessages", ["messages": [], "senders": ["Coco"]]) == "I found no messages from Coco.")
        #expect(words.result(of: "SearchForMessages", ["messages": [], "senders": ["Me"], "groupNames": ["Tree Crew"]]) == "You sent no messages in Tree Crew.")
    }

    @Test("A number an extension sends too large to say is left out, not a crash")
    func hugeNumbersAreNotSaid() {
        let values: [String: JSONValue] = ["rideOption": "Zippy Pool", "pickupLocation": ["name": "Home"], "dropOffLocation": "Airport"]
        for seconds in [1e300, -1e300, 1e21] {
            var huge = values
            huge["estimatedPickupSeconds"] = .number(seconds)
            #expect(words.summary(of: "RequestRide", huge) == "Request a ride to Airport?")
        }
    }

    @Test("A note found is said with what it says, its lines joined")
    func notesAreSaidWithTheirWords() {
        let notes: JSONValue = [["title": "Gift ideas", "content": "a red scarf\nbooks"], ["title": "Empty", "content": ""]]
        #expect(words.result(of: "SearchForNotebookItems", ["notes": notes]) == "Gift ideas: “a red scarf; books” and Empty.")
    }

    @Test("A search that found none of a kind says there are none; one that sent nothing of it says nothing was found")
    func emptySearches() {
        #expect(words.result(of: "SearchForNotebookItems", ["listTitles": [], "taskLists": []]) == "You don't have any lists yet.")
        #expect(words.result(of: "SearchForNotebookItems", ["notes": []]) == "I found no notes.")
        #expect(words.result(of: "SearchForNotebookItems", ["tasks": []]) == "I found no tasks.")
        #expect(words.result(of: "SearchForNotebookItems", [:]) == "I found nothing.")
        #expect(words.result(of: "SearchForNotebookItems", ["notes": [["title": "Gift ideas", "content": ""]]]) == "Gift ideas.")
    }

    @Test("A day said alone has no time")
    func dayAlone() throws {
        let words = Phrasebook(pack: try Fixture.pack(), clock: Fixture.clock)
        let tomorrow = Fixture.clock.now().addingTimeInterval(24 * 3600)
        let value = JSONValue.string(ISO8601DateFormatter().string(from: tomorrow))
        #expect(words.result(of: "SearchForNotebookItems", ["tasks": [], "dateTime": value]) == "Nothing is due tomorrow.")
        #expect(words.spokenDate(value)?.hasPrefix("tomorrow at ") == true)
    }

    @Test("A range of days is said as its first and last day, and read as an answer where the parameter takes one")
    func rangesOfDays() throws {
        let words = Phrasebook(pack: try Fixture.pack(), clock: Fixture.clock)
        // It is Monday, November 23: the week is from Sunday the 22nd through Saturday.
        let week = JSONValue.string("2026-11-22T00:00:00-08:00/2026-11-29T00:00:00-08:00")
        #expect(words.result(of: "SearchForNotebookItems", ["tasks": [], "dateTime": week]) == "Nothing is due between yesterday and Saturday.")
        let fractional = JSONValue.string("2026-11-22T00:00:00.000-08:00/2026-11-29T00:00:00.000-08:00")
        #expect(words.result(of: "SearchForNotebookItems", ["tasks": [], "dateTime": fractional]) == "Nothing is due between yesterday and Saturday.")
        let tomorrow = JSONValue.string("2026-11-24T00:00:00-08:00/2026-11-25T00:00:00-08:00")
        #expect(words.result(of: "SearchForNotebookItems", ["tasks": [], "dateTime": tomorrow]) == "Nothing is due tomorrow.")
        let catalog = try Catalog(directory: Fixture.root.appendingPathComponent("Protocols/domains"))
        let when = try #require(catalog.intent("SearchForNotebookItems")?.parameter("dateTime"))
        let answers = AnswerReader(pack: try Fixture.pack(), clock: Fixture.clock)
        #expect(answers.value("this week please", for: when, intent: "SearchForNotebookItems", apps: []) == week)
        #expect(answers.value("tomorrow", for: when, intent: "SearchForNotebookItems", apps: []) == "2026-11-24T09:00:00-08:00")
        // A parameter that takes no range reads no span.
        let reminder = try #require(catalog.intent("AddTasks")?.parameter("temporalEventTrigger"))
        #expect(answers.value("this week", for: reminder, intent: "AddTasks", apps: []) == nil)
    }

    @Test("Lists are joined with the language's words, people by their names")
    func listsAndPeople() {
        let recipients: JSONValue = [["displayName": "Coco"], ["displayName": "Kiki"], ["displayName": "Bobo"]]
        #expect(words.result(of: "SendMessage", ["recipients": recipients, "content": "hi"]) == "OK, I sent \u{201C}hi\u{201D} to Coco, Kiki and Bobo.")
        #expect(words.numbered(["A", "B"]) == "1. A or 2. B")
    }

    @Test("A name ending in a period closes the sentence without a second one")
    func noDoublePeriod() throws {
        let recipients: JSONValue = [["displayName": "Bobo Jr."]]
        #expect(words.result(of: "SendMessage", ["recipients": recipients, "content": "hi"]) == "OK, I sent \u{201C}hi\u{201D} to Bobo Jr.")
        #expect(words.say("unsupportedValue", ["app": "Zippy", "value": "where to?"]) == "Sorry, Zippy can't use where to?", "one closing mark")
        let catalog = try Catalog(directory: Fixture.root.appendingPathComponent("Protocols/domains"))
        let content = try #require(catalog.intent("SendMessage")?.parameter("content"))
        #expect(words.prompt(for: content, of: "SendMessage", ["recipients": recipients]) == "What do you want to say to Bobo Jr.?")
    }

    @Test("A parameter's prompt comes from the language file, else the catalog")
    func prompts() throws {
        let catalog = try Catalog(directory: Fixture.root.appendingPathComponent("Protocols/domains"))
        let content = try #require(catalog.intent("SendMessage")?.parameter("content"))
        #expect(words.prompt(for: content, of: "SendMessage", ["recipients": [["displayName": "Bobo"]]]) == "What do you want to say to Bobo?")
        #expect(words.prompt(for: content, of: "SendMessage", [:]) == "What do you want to say?")
        let title = try #require(catalog.intent("SearchForNotebookItems")?.parameter("title"))
        #expect(words.prompt(for: title, of: "SearchForNotebookItems", [:]) == title.prompt)
    }
}
