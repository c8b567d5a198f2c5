import Foundation
import IntentProtocol
import Testing
import ZeroMQ

@testable import IntentHost

@Suite("What a client was last shown")
struct ShownResultsTests {
    let catalog: Catalog
    let identifiers = ShownValues(intent: "SearchForMessages", list: "messages", field: "identifier")

    init() throws { catalog = try Catalog(directory: catalogDirectory) }

    func client(_ n: UInt8, key: String = "client-key") -> ShownResults.Client {
        ShownResults.Client(routingID: [0, n, 1, 2, 3].withUnsafeBytes { RoutingID($0) }, key: key)
    }

    func search(_ ids: [String], app: String = "MonkeyChat", outcome: Outcome.Kind = .success) -> Outcome {
        Outcome(
            outcome: outcome, code: "success", app: app, intent: "SearchForMessages", sessionId: "s",
            response: IntentResponse(code: "success", response: ["messages": .array(ids.map { ["identifier": .string($0)] })]),
            message: "")
    }

    @Test("A search's messages are kept for the client it showed them to, and given only to the same app")
    func keptPerClientAndApp() {
        var shown = ShownResults(catalog: catalog)
        let now = ContinuousClock.now
        shown.record(search(["m-1", "m-2"]), for: client(1), now: now)
        #expect(shown.shown(to: client(1))?.values(for: identifiers, app: "MonkeyChat", now: now) == ["m-1", "m-2"])
        #expect(shown.shown(to: client(1))?.values(for: identifiers, app: "Impostor", now: now) == nil)
        #expect(shown.shown(to: client(2)) == nil)
        #expect(shown.shown(to: client(1))?.values(for: identifiers, app: "MonkeyChat", now: now + .seconds(301)) == nil)
    }

    @Test("A failed search, or one that found nothing, shows nothing; an intent no parameter reads changes nothing")
    func theLastSearchCounts() {
        var shown = ShownResults(catalog: catalog)
        let now = ContinuousClock.now
        shown.record(search(["m-1"]), for: client(1), now: now)
        var other = search(["m-9"])
        other.intent = "SendMessage"
        shown.record(other, for: client(1), now: now)
        #expect(shown.shown(to: client(1))?.values(for: identifiers, app: "MonkeyChat", now: now) == ["m-1"])
        shown.record(search([]), for: client(1), now: now)
        #expect(shown.shown(to: client(1))?.values(for: identifiers, app: "MonkeyChat", now: now) == nil)
        shown.record(search(["m-1"]), for: client(1), now: now)
        shown.record(search(["m-9"], outcome: .failure), for: client(1), now: now)
        #expect(shown.shown(to: client(1))?.values(for: identifiers, app: "MonkeyChat", now: now) == nil)
    }

    @Test("An extension's values are bounded: more than 64, an empty one or one over 256 bytes show nothing; at most 256 clients")
    func bounded() {
        var shown = ShownResults(catalog: catalog)
        let now = ContinuousClock.now
        for ids in [(0..<65).map { "m-\($0)" }, ["m-1", ""], ["m-1", String(repeating: "x", count: 257)]] {
            shown.record(search(ids), for: client(0), now: now)
            #expect(shown.shown(to: client(0))?.values(for: identifiers, app: "MonkeyChat", now: now) == nil)
        }
        shown.record(search((0..<64).map { "m-\($0)" }), for: client(0), now: now)
        #expect(shown.shown(to: client(0))?.values(for: identifiers, app: "MonkeyChat", now: now)?.count == 64)
        for n in UInt8(1)...255 { shown.record(search(["m-1"]), for: client(n), now: now) }
        shown.record(search(["m-1"]), for: ShownResults.Client(routingID: [9, 9, 9].withUnsafeBytes { RoutingID($0) }, key: nil), now: now)
        #expect(shown.shown(to: client(0)) == nil)
        #expect(shown.shown(to: client(255)) != nil)
    }

    @Test("The last answer a client was given is kept for that client for five minutes, unless too long to keep")
    func lastAnswerKept() {
        var shown = ShownResults(catalog: catalog)
        let now = ContinuousClock.now
        let text = "1 message: Coco: “hi”."
        shown.record(answer: text, app: "MonkeyChat", intent: "SearchForMessages", for: client(1), now: now)
        #expect(shown.answer(to: client(1))?.current(at: now)?.text == text)
        #expect(shown.answer(to: client(1))?.intent == "SearchForMessages")
        #expect(shown.answer(to: client(1))?.current(at: now + .seconds(301)) == nil)
        #expect(shown.answer(to: client(2)) == nil)
        // A connection of another key that took over the routing id hears nothing of it.
        #expect(shown.answer(to: client(1, key: "another-key")) == nil)
        // Keeping the answer keeps what the search showed, and the other way round.
        shown.record(search(["m-1"]), for: client(1), now: now)
        #expect(shown.answer(to: client(1)) != nil && shown.shown(to: client(1)) != nil)
        // Bytes are counted, not characters: one "a" with 9,000 accents is one character.
        shown.record(answer: "a" + String(repeating: "\u{301}", count: 9_000), app: "MonkeyChat", intent: "SearchForMessages", for: client(1), now: now)
        #expect(shown.answer(to: client(1))?.text == text)
        for n in UInt8(2)...255 { shown.record(answer: text, app: "MonkeyChat", intent: "SearchForMessages", for: client(n), now: now) }
        shown.record(answer: text, app: "MonkeyChat", intent: "SearchForMessages", for: client(0), now: now)
        #expect(shown.answer(to: client(1)) != nil)
        shown.record(answer: text, app: "MonkeyChat", intent: "SearchForMessages", for: ShownResults.Client(routingID: [9, 9, 9].withUnsafeBytes { RoutingID($0) }, key: nil), now: now)
        #expect(shown.answer(to: client(1)) == nil, "at most 256 clients, the oldest forgotten")
    }

    @Test("What the user asked an app for is kept for that client and app, five minutes, for the parameters carried from it")
    func askedKeptForCarriedParameters() {
        var shown = ShownResults(catalog: catalog)
        let now = ContinuousClock.now
        let square: JSONValue = ["name": "Union Square"]
        shown.record(asked: ["dropOffLocation": square, "other": "x"], app: "Zippy", intent: "ListRideOptions", for: client(1), now: now)
        let asked = shown.asked(by: client(1))
        #expect(asked?.value(of: IntentParameterName(intent: "ListRideOptions", parameter: "dropOffLocation"), app: "Zippy", now: now) == square)
        #expect(asked?.values["other"] == nil, "only what a parameter is carried from")
        #expect(asked?.value(of: IntentParameterName(intent: "ListRideOptions", parameter: "dropOffLocation"), app: "Impostor", now: now) == nil)
        #expect(asked?.value(of: IntentParameterName(intent: "RequestRide", parameter: "dropOffLocation"), app: "Zippy", now: now) == nil)
        #expect(asked?.value(of: IntentParameterName(intent: "ListRideOptions", parameter: "dropOffLocation"), app: "Zippy", now: now + .seconds(301)) == nil)
        #expect(shown.asked(by: client(2)) == nil)
        #expect(shown.asked(by: client(1, key: "another-key")) == nil)
        // An intent nothing is carried from changes nothing; one not done (failed, or called
        // off) leaves nothing kept, the trip asked about being another; a value over 1 KiB is not kept.
        shown.record(asked: ["dropOffLocation": ["name": "Ferry Building"]], app: "Zippy", intent: "RequestRide", for: client(1), now: now)
        #expect(shown.asked(by: client(1))?.value(of: IntentParameterName(intent: "ListRideOptions", parameter: "dropOffLocation"), app: "Zippy", now: now) == square)
        // One done that says none of them ("how much would a van be?") is about the trip kept,
        // and what it says of the booking in passing is kept with it, for that app only; what
        // it says of an intent nothing is carried into is not.
        let kind = IntentParameterName(intent: "RequestRide", parameter: "rideOptionName")
        let other = IntentParameterName(intent: "SendMessage", parameter: "content")
        shown.record(asked: [:], mentioned: [kind: "Zippy Van", other: "hi"], app: "Zippy", intent: "ListRideOptions", for: client(1), now: now + .seconds(1))
        #expect(shown.asked(by: client(1))?.value(of: IntentParameterName(intent: "ListRideOptions", parameter: "dropOffLocation"), app: "Zippy", now: now) == square)
        #expect(shown.asked(by: client(1))?.mentioned(kind, app: "Zippy", now: now) == "Zippy Van")
        #expect(shown.asked(by: client(1))?.mentioned(kind, app: "Impostor", now: now) == nil)
        #expect(shown.asked(by: client(1))?.mentioned(other, app: "Zippy", now: now) == nil)
        // A new trip without a kind leaves none.
        shown.record(asked: ["dropOffLocation": square], app: "Zippy", intent: "ListRideOptions", for: client(1), now: now)
        #expect(shown.asked(by: client(1))?.mentioned(kind, app: "Zippy", now: now) == nil)
        shown.record(asked: nil, app: "Zippy", intent: "ListRideOptions", for: client(1), now: now)
        #expect(shown.asked(by: client(1)) == nil)
        shown.record(asked: ["dropOffLocation": ["name": .string(String(repeating: "x", count: 1_100))]], app: "Zippy", intent: "ListRideOptions", for: client(1), now: now)
        #expect(shown.asked(by: client(1))?.value(of: IntentParameterName(intent: "ListRideOptions", parameter: "dropOffLocation"), app: "Zippy", now: now) == nil)
    }

    @Test("A path of members takes the arrays inside a response's objects together: the tasks of every list shown")
    func pathsThroughLists() throws {
        var shown = ShownResults(catalog: catalog)
        let now = ContinuousClock.now
        let lists: JSONValue = .array([["title": "grocery", "tasks": .array([["title": "milk"]])], ["title": "chores", "tasks": .array([["title": "dishes"], ["title": "laundry"]])]])
        let found = Outcome(
            outcome: .success, code: "success", app: "List-o-Mat", intent: "SearchForNotebookItems", sessionId: "s",
            response: IntentResponse(code: "success", response: ["taskLists": lists]), message: "")
        shown.record(found, for: client(1), now: now)
        let tasksOfLists = ShownValues(intent: "SearchForNotebookItems", list: "taskLists.tasks", field: "title")
        #expect(shown.shown(to: client(1))?.values(for: tasksOfLists, app: "List-o-Mat", now: now) == ["milk", "dishes", "laundry"])
        // The catalog names the places for a task as one array: a search's, its lists', and an add's.
        let sources = try #require(catalog.intent("SetTaskAttribute")?.parameter("targetTask")?.from)
        #expect(sources.references.map(\.list) == ["tasks", "taskLists.tasks", "addedTasks"])
        // A member that is itself the value (an empty field): the list an add went to.
        let added = Outcome(
            outcome: .success, code: "success", app: "List-o-Mat", intent: "AddTasks", sessionId: "s",
            response: IntentResponse(code: "success", response: ["targetTaskList": "chores", "addedTasks": .array([["title": "soap"]])]), message: "")
        shown.record(added, for: client(1), now: now)
        #expect(shown.shown(to: client(1))?.values(for: ShownValues(intent: "AddTasks", list: "targetTaskList", field: ""), app: "List-o-Mat", now: now) == ["chores"])
        #expect(shown.shown(to: client(1))?.values(for: ShownValues(intent: "AddTasks", list: "addedTasks", field: "title"), app: "List-o-Mat", now: now) == ["soap"])
        #expect(ShownResults.members("taskLists.tasks", of: ["taskLists": .array([["tasks": "not an array"]])]) == ["not an array"])
    }

    @Test("A place to take a value from is written as one object or as an array, and read back the same")
    func sourcesRoundTrip() throws {
        let one = try JSON.decode(ShownSources.self, from: Array(#"{"intent": "A", "list": "l", "field": "f"}"#.utf8))
        #expect(one.references == [ShownValues(intent: "A", list: "l", field: "f")])
        #expect(try JSON.decode(ShownSources.self, from: try JSON.encode(one)) == one)
        let two = try JSON.decode(ShownSources.self, from: Array(#"[{"intent": "A", "list": "l", "field": "f"}, {"intent": "B", "list": "m", "field": "g"}]"#.utf8))
        #expect(two.references.count == 2 && two.shows("B") && !two.shows("C"))
        #expect(throws: (any Error).self) { try JSON.decode(ShownSources.self, from: Array(#"{"intent": "A"}"#.utf8)) }
    }
}
