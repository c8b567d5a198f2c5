import IntentProtocol
import Testing
@testable import Understanding

/// Two requests said as one, joined by "and".
@Suite("Two requests said as one")
struct JoinedRequestTests {
    let reader: RequestReader
    let apps: [AppProfile]

    init() throws {
        reader = try Fixture.reader()
        apps = try Fixture.apps()
    }

    func joined(_ text: String) throws -> JoinedRequest? {
        guard case .request(let whole) = reader.read(text, apps: apps) else {
            Issue.record("\(text) is read as no request")
            return nil
        }
        return reader.joined(text, reading: whole, apps: apps)
    }

    @Test("The first request is done as said; the second is named", arguments: [
        ("cancel the ride and text coco ill be late", "CancelRide", "text coco ill be late"),
        ("where is my ride and text kiki im late", "GetRideStatus", "text kiki im late"),
        ("cancel my ride and add milk to my list", "CancelRide", "add milk to my list"),
        ("what's on my shopping list and where is my ride", "SearchForNotebookItems", "where is my ride"),
    ])
    func two(text: String, intent: String, second: String) throws {
        guard case .two(let first, let rest)? = try joined(text) else {
            Issue.record("\(text) is not read as two requests")
            return
        }
        #expect(first.intent == intent)
        #expect(rest == second)
    }

    @Test("The first request keeps its own values when the whole would take the second's")
    func firstKeepsItsValues() throws {
        guard case .two(let first, let rest)? = try joined("mark buy milk as done and add eggs to shopping") else {
            Issue.record("not read as two requests")
            return
        }
        #expect(first.intent == "SetTaskAttribute")
        #expect(first.parameters["targetTask"] == "buy milk")
        #expect(rest == "add eggs to shopping")
    }

    @Test("An order inside a message is asked about")
    func orderInAMessage() throws {
        #expect(try joined("text coco im on my way back and add ice to the shopping list") == .inFreeText("add ice to the shopping list"))
        #expect(try joined("text kiki hi and add milk to my list") == .inFreeText("add milk to my list"))
    }

    @Test("A list of values or a message with \"and\" in it is one request", arguments: [
        "remind me to call mom and text kiki",
        "add call mom and text kiki to my list",
        "add eggs, milk and bread to the shopping list",
        "text kiki i love you and i miss you",
        "text coco the ride is booked and the list is done",
        "text kiki that i need to go to the store and pick up milk",
        "tell kiki and coco the party is off",
    ])
    func one(text: String) throws {
        #expect(try joined(text) == nil)
    }
}
