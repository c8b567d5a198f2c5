import IntentProtocol

/// A phrase pattern from a language file, compiled once.
///
/// Words match case-insensitively; `(a|b c|)` is a choice (an empty branch makes it
/// optional); `[a|b]` is an optional choice; `{name}` captures one or more words for the
/// parameter `name`; `{name=value}` sets the parameter without consuming words; `{name+n}`
/// captures a number to which n is added ("me and {partySize+1} friends"); `{name}'s`
/// captures words whose last ends in "'s", read without it ("{senders}'s messages").
public struct Pattern: Sendable, Hashable {
    enum Element: Sendable, Hashable {
        case word(String)
        case choice([[Element]])
        case slot(String)
        /// `{name}'s`: a slot whose last word ends with the suffix, read without it.
        case suffixedSlot(String, String)
        /// `{name=value}`.
        case constant(String, String)
    }

    /// What compiling the source gave, shared by every copy of the pattern: patterns are
    /// copied at every request read, and a copy is then one reference, not eight.
    private let compiled: Compiled

    private final class Compiled: Sendable {
        let source: String
        let elements: [Element]
        let steps: [Step]
        let branchStarts: [Int]
        let adds: [String: Int]
        let firstWords: Set<String>?
        let wordSet: Set<String>
        let requiredWords: [String]

        init(_ source: String) throws(LanguageError) {
            self.source = source
            var parser = Parser(characters: Array(source))
            elements = try parser.sequence(until: nil)
            var program = Program()
            program.emit(elements, end: .next(0))
            steps = program.steps
            branchStarts = program.branchStarts
            adds = parser.adds
            firstWords = Pattern.firstWords(elements[...])
            wordSet = Set(Pattern.words(in: elements))
            var required: [String] = []
            for case .word(let word) in elements where !required.contains(word) { required.append(word) }
            requiredWords = required
        }
    }

    /// The pattern as written.
    public var source: String { compiled.source }
    var elements: [Element] { compiled.elements }
    /// The elements as one flat program the match walks (`Step`), entered at index 1.
    var steps: [Step] { compiled.steps }
    /// Where each choice's branches start in `steps`, a run per choice.
    var branchStarts: [Int] { compiled.branchStarts }
    /// What is added to the number captured by a slot, by slot name (`{name+n}`).
    var adds: [String: Int] { compiled.adds }
    /// The words a match can start with, or nil when it can start with any word.
    var firstWords: Set<String>? { compiled.firstWords }
    /// The literal words, as a set.
    var wordSet: Set<String> { compiled.wordSet }
    /// The words every match has: the literal words outside any choice.
    var requiredWords: [String] { compiled.requiredWords }

    /// Compiles `source`; throws on unbalanced brackets.
    public init(_ source: String) throws(LanguageError) {
        compiled = try Compiled(source)
    }

    /// Patterns are the same when they are written the same.
    public static func == (a: Pattern, b: Pattern) -> Bool { a.source == b.source }

    public func hash(into hasher: inout Hasher) { hasher.combine(source) }

    /// Whether the pattern can match anywhere in tokens that can stand for `said`: false
    /// when one of the words every match has is not among them, so the walk is skipped.
    func mayMatch(_ said: SaidWords) -> Bool {
        requiredWords.allSatisfy(said.contains)
    }

    /// Whether a match can start at `token`: one of the first words, typed or through a
    /// typo or an app's name standing for it.
    func canStart(at token: Token) -> Bool {
        guard let firstWords else { return true }
        if firstWords.contains(token.word) { return true }
        if let alternate = token.alternate, firstWords.contains(alternate) { return true }
        if let standsFor = token.standsFor, !standsFor.isDisjoint(with: firstWords) { return true }
        return false
    }

    private static func firstWords(_ elements: ArraySlice<Element>) -> Set<String>? {
        let first = start(of: elements)
        return first.anyWord || first.empty ? nil : first.words
    }

    /// The words `elements` can start with; whether a slot may come first instead; whether
    /// they may match no words at all.
    private static func start(of elements: ArraySlice<Element>) -> (words: Set<String>, anyWord: Bool, empty: Bool) {
        var words = Set<String>()
        for element in elements {
            switch element {
            case .word(let word):
                words.insert(word)
                return (words, false, false)
            case .slot, .suffixedSlot: return (words, true, false)
            case .constant: continue
            case .choice(let branches):
                var empty = false
                for branch in branches {
                    let first = start(of: branch[...])
                    if first.anyWord { return (words, true, false) }
                    words.formUnion(first.words)
                    empty = empty || first.empty
                }
                if !empty { return (words, false, false) }
            }
        }
        return (words, false, true)
    }

    /// The literal words, in order.
    public var words: [String] { Self.words(in: elements) }

    private static func words(in elements: [Element]) -> [String] {
        elements.flatMap { element -> [String] in
            switch element {
            case .word(let word): [word]
            case .slot, .suffixedSlot, .constant: []
            case .choice(let branches): branches.flatMap { words(in: $0) }
            }
        }
    }

    /// The slot names, in order.
    public var slots: [String] { Self.slots(in: elements) }

    private static func slots(in elements: [Element]) -> [String] {
        elements.flatMap { element -> [String] in
            switch element {
            case .word: []
            case .slot(let name), .suffixedSlot(let name, _): [name]
            case .constant(let name, _): [name]
            case .choice(let branches): branches.flatMap { slots(in: $0) }
            }
        }
    }

    private struct Parser {
        let characters: [Character]
        var index = 0
        var adds: [String: Int] = [:]

        mutating func sequence(until closing: Set<Character>?) throws(LanguageError) -> [Element] {
            var elements: [Element] = []
            var word = ""
            func flush() {
                if !word.isEmpty { elements.append(.word(word.lowercased())) }
                word = ""
            }
            while index < characters.count {
                let c = characters[index]
                if let closing, closing.contains(c) {
                    flush()
                    return elements
                }
                index += 1
                switch c {
                case " ": flush()
                case "(", "[":
                    flush()
                    var branches: [[Element]] = []
                    let close: Character = c == "(" ? ")" : "]"
                    while true {
                        branches.append(try sequence(until: ["|", close]))
                        guard index < characters.count else { throw LanguageError("unclosed \(c) in \"\(String(characters))\"") }
                        let end = characters[index]
                        index += 1
                        if end == close { break }
                    }
                    if c == "[" { branches.append([]) }
                    elements.append(.choice(branches))
                case "{":
                    flush()
                    var name = ""
                    while index < characters.count, characters[index] != "}" {
                        name.append(characters[index])
                        index += 1
                    }
                    guard index < characters.count, !name.isEmpty else { throw LanguageError("unclosed { in \"\(String(characters))\"") }
                    index += 1
                    if let equals = name.firstIndex(of: "=") {
                        elements.append(.constant(String(name[..<equals]), String(name[name.index(after: equals)...])))
                    } else if let plus = name.firstIndex(of: "+") {
                        guard let added = Int(name[name.index(after: plus)...]) else {
                            throw LanguageError("bad {name+n} in \"\(String(characters))\"")
                        }
                        adds[String(name[..<plus])] = added
                        elements.append(.slot(String(name[..<plus])))
                    } else {
                        var suffix = ""
                        while index < characters.count, !" ()[]|{".contains(characters[index]) {
                            suffix.append(characters[index])
                            index += 1
                        }
                        elements.append(suffix.isEmpty ? .slot(name) : .suffixedSlot(name, suffix.lowercased()))
                    }
                case ")", "]", "|":
                    throw LanguageError("unexpected \(c) in \"\(String(characters))\"")
                default:
                    word.append(c)
                }
            }
            if closing != nil { throw LanguageError("unclosed bracket in \"\(String(characters))\"") }
            flush()
            return elements
        }
    }
}

extension Pattern {
    /// One step of a compiled pattern. Every step is one call of the match's walk, as
    /// every element and the end of every sequence was when the walk went through the
    /// nested elements: matches are found in the same order and count against the same budget.
    enum Step: Sendable, Hashable {
        /// The whole pattern matched.
        case done
        /// The end of a sequence: go on at that step.
        case next(Int)
        case word(String)
        /// The branches start at `branchStarts[first..<first + count]`.
        case choice(first: Int, count: Int)
        case slot(String)
        case suffixedSlot(String, String)
        case constant(String, String)
    }

    /// Lays out nested elements as steps: each sequence's elements in order and its end,
    /// then the branches of its choices, each ending where the choice is followed.
    struct Program {
        /// Step 0 is `done`; the pattern starts at 1.
        var steps: [Step] = [.done]
        var branchStarts: [Int] = []

        mutating func emit(_ sequence: [Element], end: Step) {
            var choices: [(at: Int, branches: [[Element]])] = []
            for element in sequence {
                switch element {
                case .word(let word): steps.append(.word(word))
                case .slot(let name): steps.append(.slot(name))
                case .suffixedSlot(let name, let suffix): steps.append(.suffixedSlot(name, suffix))
                case .constant(let name, let value): steps.append(.constant(name, value))
                case .choice(let branches):
                    choices.append((steps.count, branches))
                    steps.append(.done)  // filled in below, once the branches are laid out
                }
            }
            steps.append(end)
            for (at, branches) in choices {
                var starts: [Int] = []
                for branch in branches {
                    starts.append(steps.count)
                    emit(branch, end: .next(at + 1))
                }
                steps[at] = .choice(first: branchStarts.count, count: starts.count)
                branchStarts += starts
            }
        }
    }
}

extension Token {
    /// Whether no match can take this token as the pattern word `word`, nor skip it (it
    /// stands for no app's name).
    fileprivate func cannotBe(_ word: String) -> Bool {
        standsFor == nil && self.word != word && alternate != word
    }
}

/// One way a pattern matched a run of tokens.
struct PatternMatch {
    /// Where the match started and ended (exclusive).
    var start: Int
    var end: Int
    /// Pattern words matched.
    var words: Int
    /// Of those, words matched through a typo.
    var typos = 0
    /// Captured token ranges, by slot name.
    var captures: SlotRanges
    /// Values the pattern itself sets (`{status=completed}`), by slot name.
    var constants: [String: String] = [:]
    /// What is added to a captured number (`{partySize+1}`), by slot name.
    var adds: [String: Int] = [:]
    /// The ending the last captured word has, and is read without (`{senders}'s`), by slot name.
    var suffixes: [String: String] = [:]

    /// The words captured for `name` out of `tokens`, without the ending the pattern gave them.
    func captured(_ name: String, _ range: Range<Int>, in tokens: [Token]) -> ArraySlice<Token> {
        var words = tokens[range]
        guard let suffix = suffixes[name], let last = words.indices.last else { return words }
        let raw = words[last].raw
        words[last] = Token(String(raw.dropLast(suffix.count)), endsClause: words[last].endsClause)
        return words
    }

    /// The value the match gives `parameter` of `intent`: its words read, with what the
    /// pattern adds to them, or the value the pattern sets (`{status=completed}`).
    func value(of parameter: ParameterDefinition, in tokens: [Token], intent: String, _ reader: ValueReader, apps: [AppProfile]) -> JSONValue? {
        if let range = captures[parameter.name] {
            return adjusted(reader.read(captured(parameter.name, range, in: tokens), for: parameter, intent: intent, apps: apps), for: parameter.name)
        }
        return constants[parameter.name].flatMap { reader.read(Token.split($0)[...], for: parameter, intent: intent, apps: apps) }
    }

    /// `value` read for the slot `name`, with what the pattern adds to it.
    func adjusted(_ value: JSONValue?, for name: String) -> JSONValue? {
        guard let added = adds[name], case .number(let number)? = value else { return value }
        return .number(number + Double(added))
    }
}

extension Pattern {
    /// Every way the pattern matches `tokens` starting at `start`, ending anywhere (or only
    /// where `endings` is true, by position), handed to `found`. `budget` bounds the search
    /// so a pathological pattern cannot stall.
    func matches(_ tokens: [Token], from start: Int, endingAt endings: [Bool]? = nil, budget: inout Int, _ found: (PatternMatch) -> Void) {
        var state = PatternMatch(start: start, end: start, words: 0, captures: SlotRanges(), adds: adds)
        // The walk reaches `found` through a struct it is lent, not as an argument:
        // given a closure argument, the optimizer clones the walk for each caller and passes
        // what the closure captures (a pattern, a parameter) by value, copying it at every step.
        withoutActuallyEscaping(found) { found in
            var sink = MatchSink(found: found, endings: endings)
            walk(1, tokens, start, &state, &budget, &sink)
        }
    }

    private struct MatchSink {
        let found: (PatternMatch) -> Void
        let endings: [Bool]?
    }

    /// Walks the pattern from step `step`; every step puts `state` back as it found it.
    private func walk(
        _ step: Int, _ tokens: [Token], _ position: Int, _ state: inout PatternMatch, _ budget: inout Int, _ sink: inout MatchSink
    ) {
        budget -= 1
        guard budget > 0 else { return }
        // An app's name used as a noun may stand for nothing the pattern says.
        if position < tokens.count, tokens[position].standsFor != nil, position > state.start {
            walk(step, tokens, position + 1, &state, &budget, &sink)
        }
        switch steps[step] {
        case .done:
            if let endings = sink.endings, !endings[position] { return }
            var done = state
            done.end = position
            sink.found(done)
        case .next(let next):
            walk(next, tokens, position, &state, &budget, &sink)
        case .word(let word):
            guard position < tokens.count else { return }
            let typo = tokens[position].word != word
            guard !typo || tokens[position].alternate == word || tokens[position].standsFor?.contains(word) == true else { return }
            state.words += 1
            if typo { state.typos += 1 }
            walk(step + 1, tokens, position + 1, &state, &budget, &sink)
            state.words -= 1
            if typo { state.typos -= 1 }
        case .choice(let first, let count):
            for branch in first..<(first + count) {
                walk(branchStarts[branch], tokens, position, &state, &budget, &sink)
            }
        case .constant(let name, let value):
            let before = state.constants[name]
            state.constants[name] = value
            walk(step + 1, tokens, position, &state, &budget, &sink)
            state.constants[name] = before
        case .slot(let name):
            guard position < tokens.count, state.captures[name] == nil else { return }
            // Where a word follows, an end before a token that cannot be that word costs the
            // step it would have taken, without taking it.
            let next: String? = if case .word(let word) = steps[step + 1] { word } else { nil }
            // An app's name is never a value.
            for end in (position + 1)...tokens.count where tokens[end - 1].standsFor == nil {
                if let next, end == tokens.count || tokens[end].cannotBe(next) {
                    budget -= 1
                    continue
                }
                state.captures[name] = position..<end
                walk(step + 1, tokens, end, &state, &budget, &sink)
            }
            state.captures[name] = nil
        case .suffixedSlot(let name, let suffix):
            guard position < tokens.count, state.captures[name] == nil else { return }
            state.suffixes[name] = suffix
            for end in (position + 1)...tokens.count where tokens[end - 1].standsFor == nil {
                let word = tokens[end - 1].word
                guard word.count > suffix.count, word.hasSuffix(suffix) else { continue }
                state.captures[name] = position..<end
                walk(step + 1, tokens, end, &state, &budget, &sink)
            }
            state.captures[name] = nil
            state.suffixes[name] = nil
        }
    }
}
