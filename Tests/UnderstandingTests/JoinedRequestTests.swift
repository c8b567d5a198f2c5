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
        Fixture.request(text, reader, apps).flatMap { reader.joined(text, reading: $0, apps: apps) }
    }

    @Test("The first request is done as said; the second is named", arguments: [
        ("cancel the ride and text coco ill be late", "CancelRide", "text coco ill be late"),
        ("where is my ride and text kiki im late", "GetRideStatus", "text kiki im late"),
        ("cancel my ride and add milk to my list", "CancelRide", "add milk to my list"),
        ("what's on my shopping list and where is my ride", "SearchForNotebookItems", "where is my ride"),
        ("cancel the ride and book a zippy to the airport", "CancelRide", "book a zippy to the airport"),
        ("zippy cancel my ride and text coco ill be late", "CancelRide", "text coco ill be late"),
        ("mark cake as done and add napkins to party", "SetTaskAttribute", "add napkins to party"),
    ])
    func two(text: String, intent: String, second: String) throws {
        let joined = try #require(try joined(text))
        #expect(joined.first.intent == intent)
        #expect(joined.second == second)
        #expect(!joined.inFreeText)
    }

    @Test("The first request keeps its own values when the whole would take the second's")
    func firstKeepsItsValues() throws {
        let joined = try #require(try joined("mark buy milk as done and add eggs to shopping"))
        #expect(joined.first.intent == "SetTaskAttribute")
        #expect(joined.first.parameters["targetTask"] == "buy milk")
        #expect(joined.said == "mark buy milk as done")
        #expect(joined.second == "add eggs to shopping")
    }

    @Test("A message is sent as far as the \"and\" that opens a message of its own to a known contact, or tells one to do something", arguments: [
        ("text kiki hi and text coco bye", "Kiki", "hi", "text coco bye"),
        ("text kiki hi and tell coco bye", "Kiki", "hi", "tell coco bye"),
        ("message coco see you at 8 and text little bobo see you at 9", "Coco", "see you at 8", "text little bobo see you at 9"),
        ("tell mister mojo to bring the cooler and coco to bring chairs", "Mister Mojo", "bring the cooler", "coco to bring chairs"),
        ("ask kiki to call me and bobo jr to text me", "Kiki", "call me", "bobo jr to text me"),
    ])
    func twoMessages(text: String, recipient: String, content: String, second: String) throws {
        let joined = try #require(try joined(text))
        #expect(joined.first.parameters["recipients"] == .array([.string(recipient)]))
        #expect(joined.first.parameters["content"] == .string(content))
        #expect(joined.second == second)
        #expect(joined.inFreeText)
    }

    @Test("A list of values or a message with \"and\" in it is one request", arguments: [
        "text coco hi and tell her i'm late",
        "text kiki tell coco and bobo i said hi",
        "remind me to call mom and text kiki",
        "add call mom and text kiki to my list",
        "add eggs, milk and bread to the shopping list",
        "text kiki i love you and i miss you",
        "text coco the ride is booked and the list is done",
        "text kiki that i need to go to the store and pick up milk",
        "tell kiki and coco the party is off",
        "text coco im on my way back and add ice to the shopping list",
        "text kiki i'm almost there and where are you",
        "on list o mat, add mop the floors and clean the windows to my chores list",
        "get a Zippy to Golden Gate Park and put it on my Visa",
        "text kiki hi and coco says hello",
        "tell kiki that coco and bobo are coming",
        "tell kiki to bring plates and cups",
    ])
    func one(text: String) throws {
        #expect(try joined(text) == nil)
    }
}
