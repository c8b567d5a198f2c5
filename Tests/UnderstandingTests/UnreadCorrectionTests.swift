import IntentProtocol
import Testing
@testable import Understanding

/// A change of mind said in the same breath, which the reading would leave out.
@Suite("Changes of mind the reading leaves out")
struct UnreadCorrectionTests {
    let reader: RequestReader
    let apps: [AppProfile]

    init() throws {
        reader = try Fixture.reader()
        apps = try Fixture.apps()
    }

    func correction(_ text: String) throws -> String? {
        Fixture.request(text, reader, apps).flatMap { reader.unreadCorrection(in: text, reading: $0, apps: apps) }
    }

    @Test("A change of mind after a whole request, a call-off at its end, or a correction as a name is found", arguments: [
        ("add butter to the shopping list, actually olive oil", "actually olive oil"),
        ("add butter to the shopping list, no wait, olive oil", "no wait, olive oil"),
        ("remind me to call mom at 5pm, actually 6pm", "actually 6pm"),
        ("book a zippy van, actually make it a pool", "actually make it a pool"),
        ("remind me to buy flowers, actually make that roses", "actually make that roses"),
        ("add bug spray to the picnic list, actually never mind", "actually never mind"),
        ("add bug spray to the picnic list, never mind", "never mind"),
        ("remind me at 8am saturday to charge the speaker, never mind", "never mind"),
        ("message coco, sorry, kiki: see u at 12", "sorry"),
        ("add milk to my shopping list. actually eggs", "actually eggs"),
        ("change cups to plates, i mean paper plates", "i mean paper plates"),
        ("add milk and eggs to the shopping list, actually just milk", "actually just milk"),
        ("add forks, i mean spoons, to party", "i mean spoons, to party"),
        ("add milk to the shopping list. Actually no, eggs", "Actually no, eggs"),
    ])
    func found(text: String, said: String) throws {
        #expect(try correction(text) == said)
    }

    @Test("A change of mind the reading takes in, one with nothing after it, or one in a message is none", arguments: [
        "hey, actually, book me a Zippy to the airport",
        "actually book me a zippy to the airport",
        "cancel my ride, actually",
        "add milk to my list, oops",
        "text coco hi, actually kiki",
        "send a message to Kiki, actually to Coco: dinner at 8",
        "text kiki i love you, actually i mean it",
        "Zippy, cancel it",
        "zippy, cancel",
        "text Kiki: never mind",
        "hey, actually, where's my ride",
        "um, actually can you cancel the ride",
        "please, oops, cancel my ride",
        "cancel my ride. cancel",
        "cancel my ride, i mean it",
        "cancel my ride, i mean it, i'm running late",
    ])
    func none(text: String) throws {
        #expect(try correction(text) == nil)
    }
}
