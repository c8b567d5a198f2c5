import Testing
import ZeroMQ
@testable import IntentExtensionKit

@Suite("Vocabulary publisher")
struct VocabularyPublisherTests {
    @Test("Terms are sent once each, and more than the host takes are not sent at all")
    func termsAreUniqueAndWithinTheLimit() throws {
        let outbox = try Mailbox<Outgoing>()
        let publisher = VocabularyPublisher(outbox: outbox)
        #expect(publisher.set(["Bobo", "Kiki", "Bobo"], for: "contactName"))
        guard case .vocabulary(let body)? = outbox.drain().first else {
            Issue.record("nothing was sent")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == #"{"set":{"terms":["Bobo","Kiki"],"type":"contactName"}}"#)
        #expect(!publisher.set((0...10_000).map { "term \($0)" }, for: "contactName"))
        #expect(outbox.drain().isEmpty, "a request the host would refuse whole is not sent")
    }
}
