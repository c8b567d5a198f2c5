import Foundation
import Testing
import IntentProtocol
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

    @Test("A pattern is walked from exactly the words it can start with, in order, in a run of any length")
    func startsAreTheWordsItCanStartWith() throws {
        let send = try Pattern("[please] (send|text) {recipients} {content}")
        let anywhere = try Pattern("{content} to {recipients}")
        for count in [0, 3, 64, 65, 128, 129, 300] {
            var tokens = (0..<count).map { Token(["text", "Bobo", "please", "hi", "send"][$0 % 5]) }
            if count > 2 { tokens[count - 1] = Token("texd") }
            tokens = (try Fixture.pack()).markTypos(tokens)
            let positions = WordPositions(tokens)
            let expected = count == 0 ? [0] : tokens.indices.filter { send.canStart(at: tokens[$0]) }
            #expect(Array(positions.starts(of: send)) == expected, "\(count) words")
            #expect(Array(positions.starts(of: anywhere)) == Array(0..<max(count, 1)), "\(count) words")
        }
    }

    @Test("A match's captured runs are found by slot name, replaced and cleared")
    func slotRanges() {
        var captures = SlotRanges()
        captures["recipients"] = 1..<3
        captures["content"] = 3..<9
        captures["recipients"] = 1..<2
        #expect(captures["recipients"] == 1..<2 && captures["content"] == 3..<9 && captures["other"] == nil)
        #expect(captures.map(\.name) == ["recipients", "content"])
        captures["recipients"] = nil
        #expect(captures.map(\.name) == ["content"])
    }

    @Test("Every slot of the language file's patterns for the built-in domains names a parameter of its intent, or (`_Intent.parameter`) of another")
    func slotsNameParameters() throws {
        let pack = try Fixture.pack()
        let catalog = try Catalog(directory: Fixture.root.appendingPathComponent("Protocols/domains"))
        for (intent, patterns) in [pack.intents, pack.appVerbForms, pack.pointedIntents].flatMap({ $0 }) where catalog.intent(intent) != nil {
            for pattern in patterns {
                for slot in pattern.slots where slot != "_" {
                    let named = slot.hasPrefix("_") ? IntentParameterName(slot.dropFirst()) : IntentParameterName(intent: intent, parameter: slot)
                    let found = named.flatMap { catalog.intent($0.intent)?.parameter($0.parameter) }
                    #expect(found != nil, "\(intent): {\(slot)} in \(pattern.source)")
                }
            }
        }
    }

    @Test("A typo of a first word may start a match")
    func typoStarts() throws {
        var token = Token("snd")
        token.alternate = "send"
        #expect(try Pattern("send {content}").canStart(at: token))
    }

    @Test("A pattern is walked only when the words every match has were said, typed, mistyped or stood for")
    func requiredWords() throws {
        let pattern = try Pattern("(send|text) {content} to {recipients} [please]")
        #expect(pattern.requiredWords == ["to"])
        #expect(!pattern.mayMatch(SaidWords(Token.split("text hello Bobo"))))
        #expect(pattern.mayMatch(SaidWords(Token.split("text hello to Bobo"))))
        var typo = Token("tto")
        typo.alternate = "to"
        #expect(pattern.mayMatch(SaidWords([typo])))
        var app = Token("Zippy")
        app.standsFor = ["to"]
        #expect(pattern.mayMatch(SaidWords([app])))
    }

    @Test("Whenever a pattern is skipped for a missing word, walking it finds no match either")
    func skippingLosesNoMatch() throws {
        let patterns = try ["send {content} to {recipients}", "[the] {partySize} of us", "book (a|an) {rideOption} [ride]", "{items} on my list"]
            .map { try Pattern($0) }
        let texts = ["send hi to Bobo", "send hi Bobo", "the four of us", "book an X", "book X ride", "milk on my list", "milk on list"]
        for pattern in patterns {
            for text in texts {
                let tokens = Token.split(text)
                var found = false
                for start in tokens.indices {
                    var budget = 10_000
                    pattern.matches(tokens, from: start, budget: &budget) { _ in found = true }
                }
                if found { #expect(pattern.mayMatch(SaidWords(tokens)), "\(pattern.source) on \(text)") }
            }
        }
    }

    @Test("Matches come in the order the pattern is written (each branch in turn, shorter captures first) and each element and each end of a sequence costs one step of the budget")
    func matchOrderAndBudget() throws {
        let pattern = try Pattern("(send|text) [a] {content} [please]")
        let tokens = Token.split("send a hi please")
        var budget = 10_000
        var found: [String] = []
        pattern.matches(tokens, from: 0, budget: &budget) { match in
            let content = match.captures["content"].map { "\($0.lowerBound)-\($0.upperBound)" } ?? "-"
            found.append("\(match.end):\(content):\(match.words)")
        }
        #expect(found == ["4:2-3:3", "3:2-3:2", "4:2-4:2", "2:1-2:1", "4:1-3:2", "3:1-3:1", "4:1-4:1"])
        #expect(10_000 - budget == 41)
        // An app's name standing for nothing the pattern says is stepped over wherever the walk is.
        var app = Token("Zippy")
        app.standsFor = ["ride"]
        var stepped: [Int] = []
        budget = 10_000
        try Pattern("book [a] ride").matches(Token.split("book a") + [app] + Token.split("ride"), from: 0, budget: &budget) { stepped.append($0.end) }
        #expect(stepped == [4, 4, 3])
        #expect(10_000 - budget == 16)
    }
}

@Suite("Spelling keys")
struct SpellingTests {
    /// The key as first written, with search and replace.
    private func replacedKey(_ word: String) -> String {
        var text = word.replacingOccurrences(of: "ie", with: "i").replacingOccurrences(of: "ck", with: "k")
        text = text.replacingOccurrences(of: "y", with: "i")
        var out = ""
        for character in text where character != out.last { out.append(character) }
        return out
    }

    @Test("A word's key is what search and replace made of it, for every word of a few letters")
    func keyMatchesSearchAndReplace() {
        let letters: [Character] = ["i", "e", "c", "k", "y", "a", "\u{301}"]
        var words = [""]
        for _ in 0..<5 { words = words.flatMap { word in letters.map { word + String($0) } } }
        words += ["zippie", "zippy", "zipy", "kwickie", "ckie", "iie", "cke", "yie", "ie\u{301}k", "ícke"]
        for word in words { #expect(Spelling.key(word) == replacedKey(word), "\(word.debugDescription)") }
    }
}
