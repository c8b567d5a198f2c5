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

    /// Reads `c.text` and expects its intent and parameters (compared as the corpora compare them).
    func expectRead(_ c: Case) {
        guard case .request(let r) = reader.read(c.text, apps: apps) else {
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

    @Test("A possessive date word dates the search: \"today's messages\"", arguments: [
        Case("read me today's messages from Coco", "SearchForMessages", ["senders": ["Coco"], "dateTime": "2026-11-23T09:00:00-08:00"]),
        Case("show yesterday's texts", "SearchForMessages", ["dateTime": "2026-11-22T09:00:00-08:00"]),
    ])
    func possessiveDates(c: Case) { expectRead(c) }

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
}
