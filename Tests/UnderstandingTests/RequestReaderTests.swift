import Foundation
import IntentProtocol
import Testing
import Understanding

@Suite("Reading typed requests")
struct RequestReaderTests {
    let reader: RequestReader
    let apps: [AppProfile]

    init() throws {
        reader = try Fixture.reader()
        apps = try Fixture.apps()
    }

    func request(_ text: String) -> UnderstoodRequest? {
        if case .request(let request) = reader.read(text, apps: apps) { return request }
        return nil
    }

    /// An app "Squat" serving `intents`, whose vocabulary gives `parameter` the one `phrase`.
    static func squat(intents: [String], parameter: String, phrase: String) throws -> AppProfile {
        let vocabulary = try JSON.decode(AppVocabulary.self, from: Array(#"""
            {"parameterVocabularies":[{"parameterNames":["\#(parameter)"],
              "items":[{"identifier":"x","synonyms":[{"phrase":"\#(phrase)","examples":[]}]}]}],"intentPhrases":[]}
            """#.utf8))
        return AppProfile(name: "Squat", intents: intents, vocabulary: vocabulary)
    }

    @Test("An app's vocabulary for an intent it does not serve changes nothing in reading another app's request")
    func vocabularyOfAnotherIntentIsIgnored() throws {
        let squat = try Self.squat(intents: ["CreateNote"], parameter: "SendMessage.recipients", phrase: "Nobody")
        let text = "send a message to Coco saying hi"
        guard case .request(let alone) = reader.read(text, apps: apps), case .request(let beside) = reader.read(text, apps: apps + [squat])
        else {
            Issue.record("not read as a request")
            return
        }
        #expect(alone.parameters["recipients"] != nil)
        #expect(beside.parameters == alone.parameters && beside.intent == alone.intent)
    }

    @Test("A vocabulary phrase of common words does not name its app: no app can claim every request to send a message")
    func commonPhraseNamesNoApp() throws {
        let squat = try Self.squat(intents: ["SendMessage"], parameter: "SendMessage.speakableGroupName", phrase: "a message")
        guard case .request(let read) = reader.read("send a message to Coco saying hi", apps: apps + [squat]) else {
            Issue.record("not read as a request")
            return
        }
        #expect(read.namedApp == nil && read.apps.contains("MonkeyChat"), "\(read)")
    }

    @Test("The app used as a verb takes the recipient, then the content")
    func appAsVerb() {
        let r = request("MonkeyChat Bobo send more bananas")
        #expect(r?.intent == "SendMessage")
        #expect(r?.namedApp == "MonkeyChat")
        #expect(r?.parameters["recipients"] == .array(["Bobo"]))
        #expect(r?.parameters["content"] == "send more bananas")
    }

    @Test("A known contact's full name wins over its first word")
    func knownNamesWin() {
        let r = request("MonkeyChat Bobo the Great I'm on my way")
        #expect(r?.parameters["recipients"] == .array(["Bobo the Great"]))
        #expect(r?.parameters["content"] == "I'm on my way")
    }

    @Test("A chatty request loses its fillers and the app's launch phrase")
    func chatty() {
        let r = request("Hey, can you please do me a solid and launch the MonkeyChat app to send a text with the message send more bananas")
        #expect(r?.intent == "SendMessage")
        #expect(r?.parameters == ["content": "send more bananas"])
    }

    @Test("Items said as a list become one task each, by an alternative app name")
    func itemLists() {
        let r = request("Add rice, onions and olives to the grocery list in ListOMat")
        #expect(r?.namedApp == "List-o-Mat")
        #expect(r?.parameters["taskTitles"] == .array(["rice", "onions", "olives"]))
        #expect(r?.parameters["targetTaskList"] == "grocery")
    }

    @Test("An item in quotes, double or single, or one the language keeps whole is not split at its and: mac and cheese is one task")
    func wholeItems() {
        let r = request("add mac and cheese, eggs and salt and vinegar chips to the grocery list")
        #expect(r?.parameters["taskTitles"] == .array(["mac and cheese", "eggs", "salt and vinegar chips"]))
        #expect(request("add milk and half and half to the grocery list")?.parameters["taskTitles"] == .array(["milk", "half and half"]))
        #expect(request("add cheese and mac to the grocery list")?.parameters["taskTitles"] == .array(["cheese", "mac"]))
        #expect(request("add \"eggs\" and \"rice and beans\", milk to the grocery list")?.parameters["taskTitles"] == .array(["eggs", "rice and beans", "milk"]))
        #expect(request("add 'rock and roll cd' and \u{2018}pen and paper\u{2019} to the grocery list")?.parameters["taskTitles"] == .array(["rock and roll cd", "pen and paper"]))
        #expect(request("add the kids' toys and milk to the grocery list")?.parameters["taskTitles"] == .array(["the kids' toys", "milk"]))
    }

    @Test("A ride option comes from the app's vocabulary, a party size from words")
    func rideVocabulary() {
        let r = request("Book a Zippy Van to Golden Gate Park for five people")
        #expect(r?.intent == "RequestRide")
        #expect(r?.apps == ["Zippy"])
        #expect(r?.namedApp == nil)
        #expect(r?.parameters["rideOptionName"] == "Zippy Van")
        #expect(r?.parameters["partySize"] == 5)
        #expect(r?.parameters["dropOffLocation"] == "Golden Gate Park")
    }

    @Test("A request that names no app goes to the one app serving its domain")
    func domainRouting() {
        #expect(request("send a message to Kiki saying hello")?.apps == ["MonkeyChat"])
    }

    @Test("Cancel and What can you do are recognised")
    func specialPhrases() {
        #expect(reader.read("cancel", apps: apps) == .cancel)
        #expect(reader.read("What can you do?", apps: apps) == .capabilities(app: nil))
        #expect(reader.read("what can Zippy do?", apps: apps) == .capabilities(app: "Zippy"))
    }

    @Test("A named app that does not serve the intent is said so")
    func wrongApp() {
        #expect(reader.read("book a ride to the airport with MonkeyChat", apps: apps) == .appCannotDo(app: "MonkeyChat", intent: "RequestRide"))
    }
}

@Suite("Reading without user vocabulary")
struct NoVocabularyTests {
    @Test("Recipient and content split at saying, with no contact names known")
    func splitAtSaying() throws {
        let reader = try Fixture.reader()
        let apps = try Fixture.apps().map { app in var app = app; app.userVocabulary = [:]; return app }
        guard case .request(let r) = reader.read("Send a message to Kiki on MonkeyChat saying hello", apps: apps) else {
            Issue.record("not understood")
            return
        }
        #expect(r.parameters["recipients"] == .array(["Kiki"]))
        #expect(r.parameters["content"] == "hello")
    }
}

/// Requests as people type them: typos, the app as a verb, comments, questions.
extension RequestReaderTests {
    @Test("An app name typed in pieces or with a typo still names the app")
    func appNames() {
        #expect(request("list o mat add batteries to my hardware store list")?.namedApp == "List-o-Mat")
        #expect(request("Send Kiki a message on MonkyChat saying hi")?.namedApp == "MonkeyChat")
        let ride = request("Get me a Zipy to the ferry building")
        #expect(ride?.namedApp == "Zippy")
        #expect(ride?.parameters["dropOffLocation"] == "ferry building")
    }

    @Test("A verb or a contact's name with a small typo is still read")
    func typos() {
        #expect(request("Craete a note titled Shopping Ideas")?.parameters["title"] == "Shopping Ideas")
        #expect(request("text kikki on monkeychat call me")?.parameters["recipients"] == .array(["Kiki"]))
        #expect(request("Cancle my zippy ride")?.intent == "CancelRide")
    }

    @Test("The app used as a verb books a ride, with the party size in words wherever it stands")
    func appAsVerbForRides() {
        let r = request("Zippy a car from Home to Union Square for three people")
        #expect(r?.intent == "RequestRide")
        #expect(r?.parameters == ["pickupLocation": "Home", "dropOffLocation": "Union Square", "partySize": 3])
        #expect(request("zippy me home")?.parameters == ["dropOffLocation": "Home"])
    }

    @Test("A comment after a comma is left out of the values")
    func trailingComment() {
        let r = request("Rate my ride three stars, the driver was rude")
        #expect(r?.parameters == ["rating": 3])
        let d = request("please remove the hobbit from books to read, i already read it")
        #expect(d?.parameters["taskList"] == "books to read")
    }

    @Test("Questions are read as the intent they ask about")
    func questions() {
        #expect(request("How much is a Zippy to Union Square")?.intent == "ListRideOptions")
        #expect(request("Did Kiki send me anything on MonkeyChat?")?.parameters == ["senders": .array(["Kiki"])])
        #expect(request("What's on my grocery list?")?.parameters == ["title": "grocery", "itemType": "taskList"])
    }

    @Test("The price of one kind of ride asks the ride options; the kind is only a word of the question, and must be one the app named")
    func priceOfOneKindOfRide() throws {
        for text in ["how much would a zippy van be?", "how much is a zippy van?", "what would the zippy pool cost", "how much would it be for a van"] {
            let r = request(text)
            #expect(r?.intent == "ListRideOptions", "\(text)")
            #expect(r?.parameters == [:], "\(text)")
            #expect(r?.pattern.contains("{_RequestRide.rideOptionName}") == true, "\(text)")
        }
        #expect(request("how much is a zippy van to the airport")?.parameters == ["dropOffLocation": "airport"])
        // The kind is kept apart, for a booking after it.
        #expect(request("how much would a zippy van be?")?.mentioned == [IntentParameterName(intent: "RequestRide", parameter: "rideOptionName"): "Zippy Van"])
        #expect(request("how much is a ride to the airport")?.mentioned == [:])
        // A party size is no place.
        let party = request("how much would a zippy van be for 3 people")
        #expect(party?.intent == "ListRideOptions")
        #expect(party?.parameters == [:])
        #expect(party?.mentioned[IntentParameterName(intent: "RequestRide", parameter: "partySize")] == 3)
        for text in ["how much to get to golden gate park in a van", "how much to golden gate park in a zippy x", "price for zippy x to golden gate park for 3 people"] {
            #expect(request(text)?.intent == "ListRideOptions", "\(text)")
            #expect(request(text)?.parameters == ["dropOffLocation": "golden gate park"], "\(text)")
        }
        // Words no app names as a kind of ride are no kind of ride.
        #expect(request("how much would a banana be")?.pattern.contains("{_RequestRide.rideOptionName}") != true)
        // Without a vocabulary for kinds of ride, no words are one: a ride app that gives none
        // takes no "what is …" question.
        var plainRides = try #require(try Fixture.apps().first { $0.name == "Zippy" })
        plainRides.vocabulary = nil
        for text in ["what is the capital of france", "how much would a zippy van be"] {
            if case .request(let r) = reader.read(text, apps: [plainRides]) {
                #expect(!r.pattern.contains("{_RequestRide.rideOptionName}"), "\(text)")
            }
        }
        guard case .request(let withWords) = reader.read("how much would a zippy van be", apps: try Fixture.apps()) else {
            Issue.record("not read with Zippy's vocabulary")
            return
        }
        #expect(withWords.pattern.contains("{_RequestRide.rideOptionName}"))
    }

    @Test("\"The cheapest\" and \"the fastest\" are kinds of ride to book, for the app to say which")
    func cheapestAndFastest() {
        #expect(request("book the cheapest one")?.parameters == ["rideOptionName": "cheapest"])
        #expect(request("I'll take the fastest")?.parameters == ["rideOptionName": "fastest"])
        #expect(request("book the most expensive one")?.parameters == ["rideOptionName": "most expensive"])
        #expect(request("get me the van then")?.parameters == ["rideOptionName": "Zippy Van"])
        #expect(request("get me one")?.intent == "RequestRide")
        let r = request("get me the cheapest ride to the airport")
        #expect(r?.intent == "RequestRide")
        #expect(r?.parameters == ["rideOptionName": "cheapest", "dropOffLocation": "airport"])
    }

    @Test("An app's name used as a noun stands for what the app deals in")
    func appNameAsNoun() {
        #expect(request("is my zippy almost here")?.intent == "GetRideStatus")
        #expect(request("whats the eta on my zippy")?.intent == "GetRideStatus")
        #expect(request("i don't need the zippy anymore")?.intent == "CancelRide")
        #expect(request("rate the zippy 4 stars and tip 3 dollars")?.parameters == ["rating": 4, "tip": 3])
        #expect(request("zippy status")?.intent == "GetRideStatus")
        let options = request("what does zippy offer from the ferry building to the airport")
        #expect(options?.intent == "ListRideOptions")
        #expect(options?.parameters == ["pickupLocation": "ferry building", "dropOffLocation": "airport"])
    }

    @Test("Shorthand is read as the word it stands for, and the typed words stay in the message")
    func shorthand() {
        let r = request("can u txt coco on monkeychat im outside")
        #expect(r?.intent == "SendMessage")
        #expect(r?.parameters == ["recipients": .array(["Coco"]), "content": "im outside"])
        #expect(request("Ad coffee filters to the grocery list")?.intent == "AddTasks")
    }

    @Test("A terse list of values after the app's name is read one value per clause")
    func terseSlotList() {
        let r = request("zippy: airport, 2 people, pool")
        #expect(r?.intent == "RequestRide")
        #expect(r?.parameters == ["dropOffLocation": "airport", "partySize": 2, "rideOptionName": "Zippy Pool"])
        #expect(request("zippy - airport, van")?.parameters == ["dropOffLocation": "airport", "rideOptionName": "Zippy Van"])
    }

    @Test("Groups and folders are read wherever they stand")
    func groupsAndFolders() {
        #expect(request("Send a message to the Tree Crew group on MonkeyChat: picnic at noon")?.parameters
            == ["groupName": "Tree Crew", "content": "picnic at noon"])
        // Named without what to say, a group is asked for it ("tree" was taken for a contact).
        #expect(request("message the tree crew group")?.parameters == ["groupName": "tree crew"])
        #expect(request("create a note in my work folder called standup")?.parameters == ["groupName": "work", "title": "standup"])
        #expect(request("make a list called packing in my travel folder")?.parameters == ["groupName": "travel", "title": "packing"])
    }

    @Test("Answer or reply to someone, with or without to")
    func replies() {
        #expect(request("answer kiki on monkeychat with ok")?.parameters == ["recipients": .array(["Kiki"]), "content": "ok"])
        #expect(request("reply to coco saying see you soon")?.parameters == ["recipients": .array(["Coco"]), "content": "see you soon"])
    }

    @Test("A comment before a comma, or after a word that starts one, is left out")
    func comments() {
        #expect(request("never mind the zippy, cancel it")?.intent == "CancelRide")
        #expect(request("mark that MonkeyChat message as unread so I remember to reply")?.parameters == ["attribute": "unread"])
        #expect(request("please text kiki on monkeychat: the wifi password is bananas42, thanks!")?.parameters["content"]
            == "the wifi password is bananas42, thanks!")
    }

    @Test("One word of exactly one known name names that contact")
    func partOfAName() {
        #expect(request("text mojo on monkeychat running late")?.parameters["recipients"] == .array(["Mister Mojo"]))
        #expect(request("text bobo on monkeychat running late")?.parameters["recipients"] == .array(["Bobo"]))
        // "the" is a word of "Bobo the Great", but names nobody.
        #expect(request("ping mister mojo on monkeychat, the show starts at 9")?.parameters["recipients"] == .array(["Mister Mojo"]))
    }

    @Test("Trailing requests add to the first: flag it, remind me")
    func trailingAdditions() {
        let r = request("add pay rent to my bills list, flag it and remind me the day after tomorrow")
        #expect(r?.parameters == [
            "taskTitles": .array(["pay rent"]), "targetTaskList": "bills", "priority": "flagged",
            "temporalEventTrigger": "2026-11-25T09:00:00-08:00",
        ])
    }

    @Test("A reminder on a day of the month, or in an hour and a half, leaves its words out of the task")
    func remindersOnADayOfTheMonth() {
        #expect(request("remind me to pay rent on the 1st")?.parameters == ["taskTitles": .array(["pay rent"]), "temporalEventTrigger": "2026-12-01T09:00:00-08:00"])
        #expect(request("remind me to check the mail in an hour and a half")?.parameters
            == ["taskTitles": .array(["check the mail"]), "temporalEventTrigger": "2026-11-23T11:30:00-08:00"])
        #expect(request("remind me to walk the dog in 1 hour and 15 minutes")?.parameters
            == ["taskTitles": .array(["walk the dog"]), "temporalEventTrigger": "2026-11-23T11:15:00-08:00"])
    }

    @Test("A request that says what not to do asks for nothing; \"don't forget to\" still asks")
    func negations() throws {
        let reader = try Fixture.reader()
        let apps = try Fixture.apps()
        for text in ["don't tell kiki anything", "don't respond to him", "do not book a ride", "never text Coco again", "no need to reply"] {
            #expect(reader.read(text, apps: apps) == .declined, "\(text)")
        }
        #expect(request("don't forget to buy milk")?.intent == "AddTasks")
        #expect(request("never mind the zippy, cancel it")?.intent == "CancelRide")
    }

    @Test("Words said where an app asked something may be read by that app's phrases alone: \"a van\" where Zippy asked")
    func readAsSaidToAnApp() throws {
        let reader = try Fixture.reader()
        let apps = try Fixture.apps()
        #expect(reader.read("make it a van", apps: apps) == .notUnderstood)
        guard case .request(let r) = reader.read("make it a van", apps: apps, answering: "Zippy") else {
            Issue.record("not read as a request to Zippy")
            return
        }
        #expect(r.intent == "RequestRide" && r.namedApp == nil && r.apps == ["Zippy"])
        #expect(r.parameters["rideOptionName"] == "Zippy Van")
        #expect(reader.read("the big tree", apps: apps, answering: "Zippy") == .notUnderstood)
        // What the patterns understand stays as they read it.
        #expect(reader.read("text coco hi", apps: apps, answering: "Zippy") == reader.read("text coco hi", apps: apps))
    }

    @Test("A greeting alone is a greeting; one before a request leaves the request")
    func greetingAlone() throws {
        let reader = try Fixture.reader()
        let apps = try Fixture.apps()
        for text in ["hi", "Hello there!", "hey, good morning", "hiya!!", "yo"] {
            #expect(reader.read(text, apps: apps) == .greeting, "\(text)")
        }
        #expect(reader.read("ok", apps: apps) != .greeting)
        #expect(request("hi, text Coco on MonkeyChat i'm here")?.intent == "SendMessage")
        #expect(request("hey there, add milk to the grocery list")?.intent == "AddTasks")
    }

    @Test("A reply said only with a courtesy or \"now\" has no message yet; a thanks is one")
    func replyWithoutWords() {
        #expect(request("respond asap")?.parameters["content"] == nil)
        #expect(request("reply now please")?.parameters["content"] == nil)
        #expect(request("reply thanks")?.parameters["content"] == "thanks")
        #expect(request("reply ok will do")?.parameters["content"] == "ok will do")
    }

    @Test("Asking what is due on a day searches the tasks to do with that date")
    func dueOnADay() {
        for text in ["what do I have to do tomorrow?", "what's due tomorrow", "whats coming up tomorrow", "what's on my plate tomorrow", "what do I have going on tomorrow"] {
            let r = request(text)
            #expect(r?.intent == "SearchForNotebookItems", "\(text)")
            #expect(r?.parameters == ["itemType": "task", "status": "notCompleted", "dateTime": "2026-11-24T09:00:00-08:00"], "\(text)")
        }
        #expect(request("what are my reminders for tomorrow")?.parameters == ["itemType": "task", "dateTime": "2026-11-24T09:00:00-08:00"])
        #expect(request("what do I have to do")?.parameters == ["itemType": "task", "status": "notCompleted"])
        // "my list", no list named: every list's tasks (with one list, that one's).
        #expect(request("what's on my list?")?.parameters == ["itemType": "taskList", "title": "all"])
        // With no ride word and no place, "what do I have" asks about tasks, not rides.
        #expect(request("what do i have")?.intent == "SearchForNotebookItems")
        #expect(request("what rides do i have")?.intent == "ListRideOptions")
        #expect(request("what can i get to the airport")?.intent == "ListRideOptions")
        // A day said is that day to the search; a stretch of days is a range of them
        // (`range`), from midnight to midnight in the user's zone (it is Monday, November 23).
        #expect(request("what's due this weekend")?.parameters["dateTime"] == "2026-11-28T00:00:00-08:00/2026-11-30T00:00:00-08:00")
        #expect(request("what's due saturday")?.parameters["dateTime"] == "2026-11-28T09:00:00-08:00")
    }

    @Test("A stretch of days said to a search is a range: weeks and months of the calendar, weekends, and days back from today")
    func spansOfDays() {
        let spans: [(String, String)] = [
            ("what do I have due this week", "2026-11-22T00:00:00-08:00/2026-11-29T00:00:00-08:00"),
            ("what's due next week", "2026-11-29T00:00:00-08:00/2026-12-06T00:00:00-08:00"),
            ("show my tasks for next month please", "2026-12-01T00:00:00-08:00/2027-01-01T00:00:00-08:00"),
            ("what do I have planned for the weekend", "2026-11-28T00:00:00-08:00/2026-11-30T00:00:00-08:00"),
            ("what messages did I get last week", "2026-11-15T00:00:00-08:00/2026-11-22T00:00:00-08:00"),
            ("show me messages from coco from the past week", "2026-11-17T00:00:00-08:00/2026-11-24T00:00:00-08:00"),
        ]
        for (text, range) in spans {
            #expect(request(text)?.parameters["dateTime"] == .string(range), "\(text)")
        }
        // A day said apart from the week is the day; words that go on after a span name
        // something ("the weekend list"), and what a message says keeps its span.
        #expect(request("what do I have due this week on friday")?.parameters["dateTime"] == "2026-11-27T09:00:00-08:00")
        #expect(request("show the weekend list")?.parameters == ["itemType": "taskList", "title": "weekend"])
        #expect(request("text coco see you next week")?.parameters == ["recipients": ["Coco"], "content": "see you next week"])
        // A day outside the span said is the span ("next week on friday" is not this Friday).
        #expect(request("what's due next week on friday")?.parameters["dateTime"] == "2026-11-29T00:00:00-08:00/2026-12-06T00:00:00-08:00")
        // Asked of what was: the weekend just gone, and no span wholly to come.
        #expect(request("what did coco say over the weekend")?.parameters["dateTime"] == "2026-11-21T00:00:00-08:00/2026-11-23T00:00:00-08:00")
        #expect(request("find messages saying see you next week")?.parameters == ["searchTerms": ["see you next week"]])
        // Found by the trial: more spans, and the words that lead into them.
        let more: [(String, String)] = [
            ("what's due the week after next", "2026-12-06T00:00:00-08:00/2026-12-13T00:00:00-08:00"),
            ("what's due for the rest of the week", "2026-11-23T00:00:00-08:00/2026-11-29T00:00:00-08:00"),
            ("what did coco say in the last few days", "2026-11-21T00:00:00-08:00/2026-11-24T00:00:00-08:00"),
            ("any messages from kiki in the past two weeks", "2026-11-10T00:00:00-08:00/2026-11-24T00:00:00-08:00"),
            ("what's due over the weekend", "2026-11-28T00:00:00-08:00/2026-11-30T00:00:00-08:00"),
        ]
        for (text, range) in more {
            #expect(request(text)?.parameters["dateTime"] == .string(range), "\(text)")
        }
        // A question about a list is no task to add.
        #expect(request("what do I need to do this week on the chores list")?.parameters
            == ["itemType": "taskList", "title": "chores", "status": "notCompleted", "dateTime": "2026-11-22T00:00:00-08:00/2026-11-29T00:00:00-08:00"])
        // Where one moment is taken, a span is its first day at 9:00, if that is to come.
        #expect(request("remind me to call the bank next month")?.parameters == ["taskTitles": ["call the bank"], "temporalEventTrigger": "2026-12-01T09:00:00-08:00"])
        // A span after a word that gives a name is the name.
        #expect(request("make a list called next week")?.parameters == ["title": "next week"])
        #expect(request("remind me to call the bank next month")?.parameters["taskTitles"] == ["call the bank"])
        // "A note that says …": its "that" points at nothing shown.
        #expect(request("create a note called camp8 that says see you next week")?.intent == "CreateNote")
    }

    @Test("A search's days may be counted, a month, or between two days, and one asked in the past tense searches what was")
    func countedMonthsAndBoundedSpans() throws {
        // It is Monday, November 23; every end is the midnight after the last day.
        let spans: [(String, String)] = [
            ("what's due in the next 7 days", "2026-11-23T00:00:00-08:00/2026-11-30T00:00:00-08:00"),
            ("what do I have due in the next three days", "2026-11-23T00:00:00-08:00/2026-11-26T00:00:00-08:00"),
            ("what did coco say in the past 10 days", "2026-11-14T00:00:00-08:00/2026-11-24T00:00:00-08:00"),
            ("show my messages from the last 2 weeks", "2026-11-10T00:00:00-08:00/2026-11-24T00:00:00-08:00"),
            ("what's due in december", "2026-12-01T00:00:00-08:00/2027-01-01T00:00:00-08:00"),
            ("what's due next 3 days", "2026-11-23T00:00:00-08:00/2026-11-26T00:00:00-08:00"),
            ("what's due within 3 days", "2026-11-23T00:00:00-08:00/2026-11-26T00:00:00-08:00"),
            ("what did coco say in the past fortnight", "2026-11-10T00:00:00-08:00/2026-11-24T00:00:00-08:00"),
            // Months and years counted from today are calendar ones, back to the day after the same day.
            ("show my messages from the last 11 months", "2025-12-24T00:00:00-08:00/2026-11-24T00:00:00-08:00"),
            ("show my messages from the past month", "2026-10-24T00:00:00-07:00/2026-11-24T00:00:00-08:00"),
            ("what did bobo say this year", "2026-01-01T00:00:00-08:00/2027-01-01T00:00:00-08:00"),
            ("show my messages from the last year", "2025-11-24T00:00:00-08:00/2026-11-24T00:00:00-08:00"),
            ("what's due in the next 2 years", "2026-11-23T00:00:00-08:00/2028-11-23T00:00:00-08:00"),
            // A bound may be a month or a span: "since june", "since last month", "by may",
            // "from december to may" (found by a chat trial).
            ("what did coco say since june", "2026-06-01T00:00:00-07:00/2026-11-24T00:00:00-08:00"),
            ("what did coco say since last month", "2026-10-01T00:00:00-07:00/2026-11-24T00:00:00-08:00"),
            ("what's due by may", "2026-11-23T00:00:00-08:00/2027-06-01T00:00:00-07:00"),
            ("what's due before june", "2026-11-23T00:00:00-08:00/2027-06-01T00:00:00-07:00"),
            ("what's due from december to may", "2026-12-01T00:00:00-08:00/2027-06-01T00:00:00-07:00"),
            ("what did coco say between january and march", "2026-01-01T00:00:00-08:00/2026-04-01T00:00:00-07:00"),
            ("what's due between now and next week", "2026-11-23T00:00:00-08:00/2026-12-06T00:00:00-08:00"),
            ("what's due between now and friday", "2026-11-23T00:00:00-08:00/2026-11-28T00:00:00-08:00"),
            // Today's weekday is today at any hour (it is 10:00, past the 9:00 a day alone means).
            ("what's due by monday", "2026-11-23T00:00:00-08:00/2026-11-24T00:00:00-08:00"),
            // Asked of what was, a month is the last such.
            ("what did coco say in may", "2026-05-01T00:00:00-07:00/2026-06-01T00:00:00-07:00"),
            // A month with its year is that year's.
            ("what's due in january 2028", "2028-01-01T00:00:00-08:00/2028-02-01T00:00:00-08:00"),
            ("what did coco say in december 2025", "2025-12-01T00:00:00-08:00/2026-01-01T00:00:00-08:00"),
            ("what's due between monday and friday", "2026-11-23T00:00:00-08:00/2026-11-28T00:00:00-08:00"),
            ("what's due from monday to friday", "2026-11-23T00:00:00-08:00/2026-11-28T00:00:00-08:00"),
            ("what did coco say between monday and wednesday", "2026-11-23T00:00:00-08:00/2026-11-26T00:00:00-08:00"),
            ("what did coco say since tuesday", "2026-11-17T00:00:00-08:00/2026-11-24T00:00:00-08:00"),
            ("what's due by wednesday", "2026-11-23T00:00:00-08:00/2026-11-26T00:00:00-08:00"),
            ("what's due before friday", "2026-11-23T00:00:00-08:00/2026-11-27T00:00:00-08:00"),
            // The past tense: the days gone, and no status ("did" is not "done" here).
            ("what did I have due last week", "2026-11-15T00:00:00-08:00/2026-11-22T00:00:00-08:00"),
            ("what was due on friday", "2026-11-20T09:00:00-08:00"),
        ]
        for (text, range) in spans {
            #expect(request(text)?.parameters["dateTime"] == .string(range), "\(text)")
        }
        #expect(request("what did I have due last week")?.parameters["status"] == nil)
        #expect(request("what's due on friday")?.parameters["dateTime"] == "2026-11-27T09:00:00-08:00")
        // A month after "from" is one unless a contact has its name; without a word that
        // leads into a span it is a word searched for, and one is never a task's reminder.
        #expect(request("show my messages from january")?.parameters["dateTime"] == "2026-01-01T00:00:00-08:00/2026-02-01T00:00:00-08:00")
        let mayIsKnown = try Fixture.apps(contacts: Fixture.contactNames + ["May"])
        #expect(Fixture.request("show messages from may", reader, mayIsKnown)?.parameters == ["senders": ["May"]])
        #expect(request("show messages from jan")?.parameters == ["senders": ["jan"]])
        let monthsAreKnown = try Fixture.apps(contacts: Fixture.contactNames + ["June", "August"])
        #expect(Fixture.request("show messages from june to august", reader, monthsAreKnown)?.parameters["dateTime"] == nil)
        #expect(request("search my messages for june")?.parameters == ["searchTerms": ["june"]])
        #expect(request("remind me to buy a gift for may")?.parameters == ["taskTitles": ["buy a gift for may"]])
        #expect(request("remind me to call may in may")?.parameters["temporalEventTrigger"] == nil)
        // Bounds are days: "since tomorrow" has none, nor "from 9am to 5pm".
        #expect(request("what's due since tomorrow")?.parameters["dateTime"]?.stringValue?.contains("/") != true)
        #expect(request("what's due from 9am to 5pm")?.parameters["dateTime"]?.stringValue?.contains("/") != true)
        // A year said with a date is that year's, gone or to come.
        #expect(request("remind me to renew the passport on january 15, 2028")?.parameters["temporalEventTrigger"] == "2028-01-15T09:00:00-08:00")
        #expect(request("remind me to call the bank on november 20, 2026")?.parameters["temporalEventTrigger"] == "2026-11-20T09:00:00-08:00")
        // What a search looks for may follow its span ("2 weeks" was read as in 2 weeks).
        #expect(request("what did coco say in the past 2 weeks about pizza")?.parameters
            == ["senders": ["Coco"], "searchTerms": ["pizza"], "dateTime": "2026-11-10T00:00:00-08:00/2026-11-24T00:00:00-08:00"])
        // The tense is the question's, not that of what a note says.
        #expect(request("which notes mention the movie we were planning on friday")?.parameters["dateTime"] == "2026-11-27T09:00:00-08:00")
    }

    @Test("A span starts at the start of its day where summer time begins at midnight")
    func spansStartWhereDaysStart() throws {
        let zone = try #require(TimeZone(identifier: "America/Sao_Paulo"))
        // Thursday, November 1, 2018; clocks went from 00:00 to 01:00 on Sunday the 4th.
        let reader = try Fixture.reader(clock: .fixed(Date(timeIntervalSince1970: 1_541_073_600), in: zone))
        let weekend = Fixture.request("what's due this weekend", reader, try Fixture.apps())?.parameters["dateTime"]
        #expect(weekend == "2018-11-03T00:00:00-03:00/2018-11-05T00:00:00-02:00")
        let week = Fixture.request("what's due next week", reader, try Fixture.apps())?.parameters["dateTime"]
        #expect(week == "2018-11-04T01:00:00-02:00/2018-11-11T00:00:00-02:00", "the 4th began at 01:00")
    }

    @Test("Asking what is flagged searches tasks by their flag, on every list or on the one named")
    func flaggedTasks() {
        for text in ["what's flagged?", "show my flagged tasks", "which tasks are flagged", "what did I flag", "what's important"] {
            #expect(request(text)?.parameters == ["itemType": "task", "taskPriority": "flagged"], "\(text)")
        }
        #expect(request("which tasks are not flagged")?.parameters == ["itemType": "task", "taskPriority": "notFlagged"])
        for text in ["what's flagged on my garage list", "show the flagged tasks on my garage list"] {
            #expect(request(text)?.parameters == ["itemType": "taskList", "taskPriority": "flagged", "title": "garage"], "\(text)")
        }
        // The status words on a list are the list's too, not a task called "garage".
        #expect(request("show the done tasks on my garage list")?.parameters == ["itemType": "taskList", "status": "completed", "title": "garage"])
        // Messages keep theirs.
        #expect(request("which were my flagged messages")?.intent == "SearchForMessages")
        // "On it" names no list: the conversation takes the one just shown.
        #expect(request("what's left on it")?.parameters == ["itemType": "taskList", "status": "notCompleted"])
    }

    @Test("Everyday phrasings found by a trial: a long message's words, a flag removed, a ride taken")
    func trialPhrasings() {
        for text in ["send kiki a long message: see you at the tree", "send kiki a really long message: see you at the tree"] {
            #expect(request(text)?.parameters["content"] == "see you at the tree", "\(text)")
        }
        for text in ["remove the flag from call the plumber", "take the flag off call the plumber"] {
            #expect(request(text)?.intent == "SetTaskAttribute", "\(text)")
            #expect(request(text)?.parameters == ["targetTask": "call the plumber", "priority": "notFlagged"], "\(text)")
        }
        #expect(request("put a flag on call the plumber")?.parameters == ["targetTask": "call the plumber", "priority": "flagged"])
        // Taking a ride after its prices is no task deleted; taking a task off a list is.
        for text in ["I'll take it", "ok I'll take that one"] { #expect(request(text)?.intent == "RequestRide", "\(text)") }
        for text in ["take it off", "drop them from the grocery list", "remove it"] { #expect(request(text)?.intent == "DeleteTasks", "\(text)") }
        // Notes found by what they say, and a note's words without the words that frame them.
        for text in ["show me the note with sunscreen in it", "which note mentions sunscreen?"] {
            #expect(request(text)?.parameters["content"]?.stringValue?.hasPrefix("sunscreen") == true, "\(text)")
            #expect(request(text)?.parameters["itemType"] == "note", "\(text)")
        }
        #expect(request("jot down a note that the wifi password is banana42")?.parameters == ["content": "the wifi password is banana42"])
        #expect(request("make a new note titled Books with Dune and Emma in it")?.parameters == ["title": "Books", "content": "Dune and Emma"])
        #expect(request("i need a ride to union square for 3 ppl")?.parameters["dropOffLocation"] == "union square")
    }

    @Test("A follow-up on the prices of a ride is read only right after them, as that question about another place")
    func followUpOnPrices() throws {
        let reader = try Fixture.reader(), apps = try Fixture.apps()
        for text in ["and to union square?", "what about union square instead", "how about for union square"] {
            #expect(reader.read(text, apps: apps) == .notUnderstood, "\(text)")
            guard case .request(let request) = reader.followingUp("ListRideOptions").read(text, apps: apps) else {
                Issue.record("\(text) not read as a follow-up")
                continue
            }
            #expect(request.intent == "ListRideOptions" && reader.followsUp(request), "\(text)")
            #expect(request.parameters["dropOffLocation"] == "union square", "\(text)")
        }
        guard case .request(let from) = reader.followingUp("ListRideOptions").read("and from the pier?", apps: apps) else {
            Issue.record("and from the pier? not read")
            return
        }
        #expect(from.parameters.keys.sorted() == ["pickupLocation"])
    }

    @Test("Thanks and goodbyes are read as such, alone or with yes, no and courtesies; not inside a request")
    func closing() {
        for text in ["thanks", "Thank you!", "thanks, that's all", "ok thanks", "no thanks", "nope, I'm good. bye", "that's all for now", "great, thx", "great, thanks for the help"] {
            #expect(reader.read(text, apps: apps) == .closing, "\(text)")
        }
        for text in ["ok", "yes", "later", "later today", "send coco a message saying thanks", "thanks coco", "tell bobo bye"] {
            #expect(reader.read(text, apps: apps) != .closing, "\(text)")
        }
    }

    @Test("A greeting before a request adds nothing to it")
    func greetings() {
        #expect(reader.read("hi there, what can you do?", apps: apps) == .capabilities(app: nil))
        #expect(request("Good morning! Add milk to my grocery list")?.parameters == ["taskTitles": .array(["milk"]), "targetTaskList": "grocery"])
        #expect(request("send a message to Coco saying good morning")?.parameters["content"] == "good morning")
        // A name that starts like a greeting keeps it.
        #expect(request("morning list: add coffee")?.parameters["targetTaskList"] == "morning")
    }

    @Test("Questions about rides and messages stay with their apps, not a search of tasks")
    func ridesAndMessagesAreNoTaskSearch() {
        for text in ["when is my ride scheduled", "when is my pickup scheduled", "when is the zippy scheduled"] {
            #expect(request(text)?.intent == "GetRideStatus", "\(text)")
        }
        for text in ["what were my messages", "what were my unread messages", "which were my flagged messages"] {
            #expect(request(text)?.intent == "SearchForMessages", "\(text)")
        }
        // What one sent is searched for, not a new message begun (found by a chat trial).
        for text in ["what was my last message to coco", "what's my latest text to coco"] {
            #expect(request(text)?.parameters == ["recipients": ["Coco"]], "\(text)")
            #expect(request(text)?.intent == "SearchForMessages", "\(text)")
        }
    }

    @Test("Words alone name an intent that needs nothing by a cue typed as it is, not by a typo of one: a charger asks no prices")
    func typoIsNoCueAlone() throws {
        let reader = try Fixture.reader()
        #expect(reader.read("socks and a charger", apps: try Fixture.apps()) == .notUnderstood)
        #expect(request("how far away is it")?.intent == "GetRideStatus")
    }

    @Test("A pronoun or messages are no note's or list's title: \"read them to me\" is no search for a note called \"them to\"")
    func pronounsAndMessagesAreNoTitle() {
        for text in ["read them to me", "show messages in tree crew", "show me it"] {
            #expect(request(text)?.intent != "SearchForNotebookItems", "\(text)")
        }
        #expect(request("show me the shopping list")?.parameters["title"] == "shopping")
    }

    @Test("A cue alone names no intent beside words that ask for something else: a timer, an alarm or a wake-up call is no ride's status")
    func cuesBesideOtherWordsNameNothing() throws {
        let reader = try Fixture.reader()
        for text in ["set a timer for 10 minutes", "wake me up in 20 minutes", "set an alarm for 7am"] {
            #expect(reader.read(text, apps: try Fixture.apps()) == .notUnderstood, "\(text)")
        }
        #expect(request("how long will it take")?.intent == "GetRideStatus")
    }

    @Test("A pronoun is never a recipient, even capitalised: what follows send is then the message")
    func pronounIsNoRecipient() {
        for text in ["send I'm on my way on MonkeyChat", "MonkeyChat send I'll be late", "send We are here on MonkeyChat", "send Im on my way on MonkeyChat"] {
            let r = request(text)
            #expect(r?.intent == "SendMessage", "\(text)")
            #expect(r?.parameters["recipients"] == nil, "\(text)")
        }
        #expect(request("send I'm on my way on MonkeyChat")?.parameters["content"] == "I'm on my way")
        #expect(request("send Coco I'm on my way on MonkeyChat")?.parameters == ["recipients": .array(["Coco"]), "content": "I'm on my way"])
    }

    @Test("Every example the language gives, said to an app serving every intent, reads as its intent to that app")
    func languageExamplesAreUnderstood() throws {
        let catalog = try Catalog(directories: ["Protocols/domains", "Examples/domains"].map { Fixture.root.appendingPathComponent($0) })
        let reader = RequestReader(pack: try Fixture.pack(), catalog: catalog, clock: Fixture.clock)
        let words = Phrasebook(pack: reader.pack)
        let jotz = AppProfile(name: "Jotz", intents: catalog.intentNames)
        for intent in catalog.intentNames {
            guard let example = words.example(of: intent, app: "Jotz") else {
                Issue.record("no example for \(intent)")
                continue
            }
            guard case .request(let request) = reader.read(example, apps: [jotz]) else {
                Issue.record("\(example): not read as a request")
                continue
            }
            #expect(request.intent == intent, "\(example)")
            #expect(request.namedApp == "Jotz", "\(example)")
        }
    }

    @Test("Adding to a list with nothing said to add names the list, not a new list called \"to my shopping\"")
    func addingToAListWithoutItems() {
        for text in ["add to my shopping list", "add in my shopping list"] {
            let r = request(text)
            #expect(r?.intent == "AddTasks", "\(text)")
            #expect(r?.parameters == ["targetTaskList": "shopping"], "\(text)")
        }
    }

    @Test("A person's name drops the courtesy said after it")
    func courtesyAfterAName() {
        let r = request("could you message coco for me on monkeychat and say where are you")
        #expect(r?.parameters == ["recipients": .array(["Coco"]), "content": "where are you"])
    }

    @Test("A task, a list's items or a price asked for in other words")
    func otherWords() {
        #expect(request("new task in list-o-mat: water the plants")?.parameters == ["taskTitles": .array(["water the plants"])])
        #expect(request("add a task to call grandma to my family list")?.parameters
            == ["taskTitles": .array(["call grandma"]), "targetTaskList": "family"])
        #expect(request("show everything on my shopping list")?.parameters == ["title": "shopping", "itemType": "taskList"])
        #expect(request("whats the price of a zippy to downtown")?.intent == "ListRideOptions")
        #expect(request("zippy how much to the airport")?.parameters == ["dropOffLocation": "airport"])
        #expect(request("fire off a quick message to coco on monkeychat, see you soon")?.parameters
            == ["recipients": .array(["Coco"]), "content": "see you soon"])
    }

    @Test("After the app's name, a list's items may come first and a rating without its ride")
    func verbFormsInOtherOrders() {
        #expect(request("list-o-mat: milk, eggs, bread to groceries")?.parameters
            == ["taskTitles": .array(["milk", "eggs", "bread"]), "targetTaskList": "groceries"])
        #expect(request("zippy: rate 4 stars, tip $2")?.parameters == ["rating": 4, "tip": 2])
        #expect(request("did little bobo reply?")?.parameters == ["senders": .array(["Little Bobo"])])
    }

    @Test("An app's name said in passing may be a word of the request, not the app asked")
    func appNameInPassing() {
        let message = request("text kiki my zippy is almost here")
        #expect(message?.intent == "SendMessage")
        #expect(message?.parameters["content"] == "my zippy is almost here")
        let task = request("add call zippy support to my errands list")
        #expect(task?.namedApp == nil)
        #expect(task?.parameters == ["taskTitles": .array(["call zippy support"]), "targetTaskList": "errands"])
        // Said as the app to use, it stays the app.
        #expect(reader.read("book a ride to the airport with MonkeyChat", apps: apps) == .appCannotDo(app: "MonkeyChat", intent: "RequestRide"))
    }

    @Test("A ride's summary counts its riders as people, and one as a person")
    func rideSummaryCountsPeople() {
        let words = Phrasebook(pack: reader.pack)
        let ride: [String: JSONValue] = ["rideOption": "Zippy Van", "pickupLocation": "Home", "dropOffLocation": "Union Square", "estimatedPickupSeconds": 120]
        var five = ride, one = ride
        five["partySize"] = 5
        one["partySize"] = 1
        #expect(words.summary(of: "RequestRide", five) == "Request a Zippy Van from Home to Union Square for 5 people? It can pick you up in about 2 minutes.")
        #expect(words.summary(of: "RequestRide", one) == "Request a Zippy Van from Home to Union Square for 1 person? It can pick you up in about 2 minutes.")
    }

    @Test("A result says a catalog value in the language's words: \"I marked dishes not done\", not notCompleted")
    func resultSaysValuesInWords() {
        let words = Phrasebook(pack: reader.pack)
        #expect(words.result(of: "SetTaskAttribute", ["targetTask": "dishes", "status": "notCompleted"]) == "I marked dishes not done.")
        #expect(words.result(of: "SetTaskAttribute", ["targetTask": "dishes", "status": "completed"]) == "I marked dishes done.")
    }

    @Test("A search that found nothing says what it searched, and days wholly gone in the past tense")
    func emptySearchSaysWhatItSearched() {
        // It is Monday, November 23, at 10:00.
        let words = Phrasebook(pack: reader.pack, clock: Fixture.clock)
        let lastWeek: JSONValue = "2026-11-15T00:00:00-08:00/2026-11-22T00:00:00-08:00"
        #expect(words.result(of: "SearchForNotebookItems", ["tasks": [], "dateTime": lastWeek]) == "Nothing was due between November 15 and November 21.")
        #expect(words.result(of: "SearchForNotebookItems", ["tasks": [], "dateTime": "2026-11-20T09:00:00-08:00"]) == "Nothing was due last Friday.")
        #expect(words.result(of: "SearchForNotebookItems", ["tasks": [], "dateTime": "2026-11-27T09:00:00-08:00"]) == "Nothing is due Friday.")
        // A span under way is still to come.
        #expect(words.result(of: "SearchForNotebookItems", ["tasks": [], "title": "chores", "dateTime": "2026-11-22T00:00:00-08:00/2026-11-29T00:00:00-08:00"])
            == "Nothing on chores is due between yesterday and Saturday.")
        #expect(words.result(of: "SearchForMessages", ["messages": [], "senders": ["Coco"], "dateTime": lastWeek]) == "I found no messages from Coco between November 15 and November 21.")
        #expect(words.result(of: "SearchForMessages", ["messages": [], "searchTerms": ["pizza"]]) == "I found no messages about pizza.")
        #expect(words.result(of: "SearchForMessages", ["messages": [], "senders": ["Coco"], "searchTerms": ["pizza"], "dateTime": lastWeek])
            == "I found no messages from Coco about pizza between November 15 and November 21.")
        #expect(words.result(of: "SearchForMessages", ["messages": [], "recipients": ["Kiki"]]) == "I found no messages to Kiki.")
    }
}

extension RequestReaderTests {
    @Test("A list shown without tasks says how many are done or to do, and counts that are no whole number are none")
    func listShownEmpty() {
        let words = Phrasebook(pack: reader.pack)
        func shown(_ open: JSONValue, _ done: JSONValue) -> String {
            words.result(of: "SearchForNotebookItems", ["taskLists": [["title": "Party", "tasks": [], "openTaskCount": open, "completedTaskCount": done]]])
        }
        #expect(shown(0, 3) == "Party: all 3 done.")
        #expect(shown(0, 1) == "Party: its one task is done.")
        #expect(shown(2, 0) == "Party: none done yet, 2 to do.")
        #expect(shown(0, 0) == "Party: nothing yet.")
        #expect(shown(.number(1e300), -4) == "Party: nothing yet.")
        #expect(shown(.number(1e15), 0) == "Party: nothing yet.")
        #expect(shown(.number(0.5), "x") == "Party: nothing yet.")
    }
}

/// The Workouts domain of `Examples/domains`, known to the host only as a file.
@Suite("A domain from a file")
struct FileDomainReadingTests {
    @Test("A workout's goal, its unit and where it is done are read wherever they stand: \"a 5 km outdoor run\", \"for 45 minutes\"")
    func workoutGoalAndPlace() throws {
        var catalog = try Catalog(directory: Fixture.root.appendingPathComponent("Protocols/domains"))
        for domain in try Catalog(directory: Fixture.root.appendingPathComponent("Examples/domains")).domains { try catalog.add(domain) }
        let reader = RequestReader(pack: try Fixture.pack(), catalog: catalog, clock: Fixture.clock)
        let apps = [AppProfile(name: "Workouts", intents: ["StartWorkout", "PauseWorkout", "ResumeWorkout", "EndWorkout"])]
        let expected: [(String, [String: JSONValue])] = [
            ("start a 5 km outdoor run in Workouts", ["workoutName": "run", "goalValue": 5, "workoutGoalUnitType": "kilometer", "workoutLocationType": "outdoor"]),
            ("start a 30 minute indoor cycling workout", ["workoutName": "cycling", "goalValue": 30, "workoutGoalUnitType": "minute", "workoutLocationType": "indoor"]),
            ("start a yoga session for 45 minutes", ["workoutName": "yoga", "goalValue": 45, "workoutGoalUnitType": "minute"]),
            ("start a run workout in Workouts", ["workoutName": "run"]),
        ]
        for (text, parameters) in expected {
            let request = Fixture.request(text, reader, apps)
            #expect(request?.intent == "StartWorkout" && request?.parameters == parameters, "\(text): \(String(describing: request))")
        }
    }
}
