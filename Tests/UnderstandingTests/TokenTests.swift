import Foundation
import Testing
@testable import Understanding

@Suite("Tokens")
struct TokenTests {
    @Test("Folding keeps exactly the letters and digits Foundation's alphanumerics keeps, lower-cased")
    func foldKeepsAlphanumerics() {
        let samples = ["List-o-Mat", "ListOMat", "Zippy X", "Café Crème", "Cafe\u{301}", "Ünïcödé ß", "Ω-Mega 42", "東京タワー", "١٢٣ arabic", "emoji 🐒 monkey", "\u{0}\u{7F}tab\there", "ǅemal", "ⅫＡＢＣ１２３"]
        for text in samples {
            let expected = String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
            #expect(Token.fold(text) == expected, "\(text.debugDescription)")
        }
    }

    @Test("Curly apostrophes split as straight ones")
    func curlyApostrophes() {
        #expect(Token.split("I\u{2019}ll call Bobo\u{2018}s mum").map(\.word) == ["i'll", "call", "bobo's", "mum"])
        #expect(Token.split("I'll — café").map(\.word) == ["i'll", ":", "café"])
    }
}
