import Testing
@testable import Understanding

@Suite("Compiled patterns")
struct PatternTests {
    @Test("A pattern knows the words a match can start with, past optional words, and none when a slot may come first")
    func firstWords() throws {
        let send = try Pattern("[please] (send|text) {recipients} {content}")
        #expect(send.canStart(at: Token("text")))
        #expect(send.canStart(at: Token("please")))
        #expect(!send.canStart(at: Token("Bobo")))
        #expect(try Pattern("[the] {partySize} of us").canStart(at: Token("five")))
        #expect(try Pattern("[me|us] [a] [ride]").canStart(at: Token("anything")))
    }

    @Test("A typo of a first word may start a match")
    func typoStarts() throws {
        var token = Token("snd")
        token.alternate = "send"
        #expect(try Pattern("send {content}").canStart(at: token))
    }
}
