/// A question passed on ("ask Kiki if she can bring plates", "ask Coco what time she's
/// free", "ask Coco for the wifi password"), which the message asks the person directly:
/// "Can you bring plates?", "What time are you free?", "Can I have the wifi password?".
/// Only clear forms are turned, and only when nothing else in the question
/// could be about someone else: the person, as "she" or "he" ("they" when several are
/// asked), with a helping verb or one of a few verbs ("if she wants pizza": "Do you want
/// pizza?"), or a question word with a helping verb ("who is coming"). Anything else (a
/// second pronoun, "if she got the tickets", a clause after a comma or an "and") is left as
/// said. Every word comes from the language file.
struct AskedQuestion: Sendable, Decodable {
    /// The free-text parameter that holds the question ("content").
    var parameter: String
    /// The request's verbs that pass a question on ("ask").
    var verbs: Set<String>
    /// The words that open a yes-or-no question ("if", "whether"), dropped.
    var introducers: Set<String>
    /// The words that open a question of what, when or who ("what", "when"), kept.
    var questionWords: Set<String>
    /// The words that open something asked for, with how the user asks it ("for": "can I
    /// have": "ask Coco for the wifi password" is "Can I have the wifi password?").
    var favours: [String: String]?
    /// The person asked, as the asker names them ("she", "he").
    var subjects: Set<String>
    /// The people asked, when several are ("they").
    var plural: Set<String>
    /// Subjects with a helping verb in one word, as two words ("she's": "she is").
    var contracted: [String: String]
    /// Helping verbs, as said to the person ("is": "are", "can": "can").
    var auxiliaries: [String: String]
    /// Helping verbs that, before one of `participles`, are another ("is": "have": "she's
    /// seen it" is "Have you seen it").
    var perfect: [String: String]
    var participles: Set<String>
    /// Verbs asked with `ask`, in their -s form with their plain form ("wants": "want").
    var verbForms: [String: String]
    /// The helping verb that asks with another verb ("do").
    var ask: String
    /// The person asked ("you").
    var you: String
    /// Words that may be about someone else ("her", "him", "they"): a question with one
    /// after its subject is left as said.
    var others: Set<String>
    /// Words that join a second clause ("and", "but"): a question with one is left as said.
    var joins: Set<String>
    /// What ends a question ("?").
    var end: String

    /// `text` asked directly, or nil when its words are no question of a clear form.
    /// `several` says whether several people are asked.
    func asked(_ text: String, several: Bool) -> String? {
        let words = text.split(separator: " ").map(String.init)
        // "if she's free, call me", "if she's free tonight. I have tickets": more than a question.
        guard let first = words.first.map(Self.key), !words.dropLast().contains(where: { $0.last.map(".,;:!?".contains) == true }) else {
            return nil
        }
        if introducers.contains(first) { return inverted(lead: [], words[1...], several: several) }
        if let favour = favours?[first] {
            guard words.count >= 2 else { return nil }
            return question(favour.split(separator: " ").map(String.init), words[1...])
        }
        guard questionWords.contains(first), words.count >= 2 else { return nil }
        // "what time she's free": the question's own words, then the person.
        if let subject = words.indices.dropFirst().prefix(3).first(where: { isSubject(Self.key(words[$0]), several: several) }) {
            return inverted(lead: Array(words[..<subject]), words[subject...], several: several)
        }
        // "who is coming": the question word is who is asked about; the words keep their order.
        guard auxiliaries[Self.key(words[1])] != nil else { return nil }
        return question([], words[...])
    }

    /// Whether `text` opens with something asked for ("for the wifi password"): asked
    /// directly in words of the reader's, so the user sees them before they are sent.
    func asksAFavour(_ text: String) -> Bool {
        Self.opening(text).map { favours?[$0] != nil } ?? false
    }

    /// Whether `text` opens as a question passed on ("if he can …", "what time …").
    func opensQuestion(_ text: String) -> Bool {
        guard let first = Self.opening(text) else { return false }
        return introducers.contains(first) || questionWords.contains(first) || favours?[first] != nil
    }

    /// The first word of `text`, as the language file spells it.
    private static func opening(_ text: String) -> String? {
        text.split(separator: " ").first.map { key(String($0)) }
    }

    private func isSubject(_ word: String, several: Bool) -> Bool {
        let word = contracted[word].flatMap { $0.split(separator: " ").first.map(String.init) } ?? word
        return subjects.contains(word) || (several && plural.contains(word))
    }

    /// `lead` ("what time"), then `clause` ("she's free tomorrow") asked of the person
    /// ("What time are you free tomorrow?"); nil when the clause opens with no clear form.
    private func inverted(lead: [String], _ clause: ArraySlice<String>, several: Bool) -> String? {
        let words = Array(clause)
        guard let said = words.first.map(Self.key), isSubject(said, several: several) else { return nil }
        let parts = (contracted[said] ?? said).split(separator: " ").map(String.init)
        let rest = words.dropFirst(parts.count == 2 ? 1 : 2)
        let verb = parts.count == 2 ? parts[1] : words.count > 1 ? Self.key(words[1]) : ""
        let next = rest.first.map(Self.key) ?? ""
        if let helping = auxiliaries[verb] {
            // "if she's free": "Are you free"; "if she's seen it": "Have you seen it".
            let perfect = participles.contains(next) ? self.perfect[verb] : nil
            return question(lead + [perfect ?? helping, you], rest)
        }
        // "if she wants pizza": "Do you want pizza"; "if they want pizza" too.
        let plain = subjects.contains(parts[0]) ? verbForms[verb] : Set(verbForms.values).contains(verb) ? verb : nil
        // "if she has seen it" is no "Do you have seen it".
        guard parts.count == 1, let plain, !participles.contains(next) else { return nil }
        return question(lead + [ask, you, plain], rest)
    }

    /// `opening`, then `rest`, as a question ("Can you bring plates?"); nil when `rest` may
    /// be about someone else or holds a second clause.
    private func question(_ opening: [String], _ rest: ArraySlice<String>) -> String? {
        guard !rest.contains(where: { others.contains(Self.key($0)) || joins.contains(Self.key($0)) }) else { return nil }
        var question = (opening + rest).joined(separator: " ")
        while let last = question.last, ".?! ".contains(last) { question.removeLast() }
        guard let first = question.first else { return nil }
        return first.uppercased() + question.dropFirst() + end
    }

    /// A word as the language file spells it: lower case, with straight apostrophes and
    /// without the stops after it ("She’s," is "she's").
    private static func key(_ word: String) -> String {
        var key = word.lowercased().replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(of: "\u{2018}", with: "'")
        while let last = key.last, ".,;:!?".contains(last) { key.removeLast() }
        return key
    }
}
