import Foundation
import Testing
@testable import Understanding

@Suite("Tokens")
struct TokenTests {
    @Test("Curly apostrophes split as straight ones")
    func curlyApostrophes() {
        #expect(Token.split("I\u{2019}ll call Bobo\u{2018}s mum").map(\.word) == ["i'll", "call", "bobo's", "mum"])
        #expect(Token.split("I'll — café").map(\.word) == ["i'll", ":", "café"])
    }

    @Test("Text of ASCII alone splits where text of any script does: at every kind of white space, around the same punctuation")
    func asciiSplitsAsAnyText() {
        // Each text also with a non-ASCII letter after it, which splits the slower way.
        let samples = [
            "add\tmilk\r\nto my\u{0B}list\u{0C}now", "  send Bobo:  hi!  ", "Zippy - home", "(quoted) \"words\", [here]; ok?",
            "Mr. Bobo Jr. said. Then", "-- \u{2014}", "a,b c;d", "\u{1C}x\u{1F}y",
        ]
        for text in samples {
            let plain = Token.split(text)
            let marked = Token.split(text + " \u{E9}")
            #expect(plain == Array(marked.dropLast()), "\(text.debugDescription)")
        }
        #expect(Token.split("add\tmilk\r\nto\u{0B}it").map(\.word) == ["add", "milk", "to", "it"])
        // A Greek question mark is a semicolon (canonically the same character): it ends a clause.
        let greek = Token.split("milk\u{37E} eggs")
        #expect(greek.map(\.word) == ["milk", "eggs"])
        #expect(greek.first?.endsClause == true)
    }
}
