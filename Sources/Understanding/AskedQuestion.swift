/// A question passed on ("ask Kiki if she can bring plates", "ask Coco what time she's
/// free"), which the message asks the person directly: "Can you bring plates?", "What time
/// are you free?". Only clear forms are turned: a pronoun with a helping verb ("if they're
/// free", "where she is"), "she" or "he" with a verb in its -s form ("if she wants pizza":
/// "Do you want pizza?"), or a question word with a helping verb ("who is coming"). Anything
/// else ("if she got the tickets") is left as said. Every word comes from the language file.
struct AskedQuestion: Sendable, Decodable {
    /// The free-text parameter that holds the question ("content").
    var parameter: String
    /// The request's verbs that pass a question on ("ask").
    var verbs: Set<String>
    /// The words that open the question ("if", "whether").
    var introducers: Set<String>
    /// The words that open a question of what, when or who ("what", "when"), kept.
    var questionWords: Set<String>
    /// The people the question is about, as the asker names them ("she", "he", "they").
    var subjects: Set<String>
    /// Subjects with a helping verb in one word, with the verb ("she's": "is").
    var contracted: [String: String]
    /// Contracted subjects that, before one of `participles`, have "has" ("she's": "have").
    var perfect: [String: String]
    /// Words after which such a contraction is "has" ("seen", "been").
    var participles: Set<String>
    /// Helping verbs, as said to the person ("is": "are", "can": "can").
    var auxiliaries: [String: String]
    /// The subjects whose -s verb is asked with `ask` ("she", "he").
    var singular: Set<String>
    /// Verbs after a subject whose question is unclear ("has": "has the keys" or "has seen").
    var unclear: Set<String>
    /// The helping verb that asks with another verb ("do").
    var ask: String
    /// Endings of a verb's -s form, each with what its plain form ends in ("ies": "y").
    var endings: [[String]]
    /// The person asked ("you").
    var you: String
    /// Words about the person that become theirs ("her": "your", "himself": "yourself").
    var possessives: [String: String]
    /// Those of `possessives` that, last, stand for the person ("her": "you").
    var objects: [String: String]
    /// Words after which a word of both `possessives` and `objects` is someone ("give her
    /// a ride", "tell her to"): the question is then left as said.
    var objectsBefore: Set<String>
    /// What ends a question ("?").
    var end: String

    /// `text` asked directly, or nil when its words are no question of a clear form.
    func asked(_ text: String) -> String? {
        let words = text.split(separator: " ").map(String.init)
        guard let first = words.first.map(Self.key) else { return nil }
        if introducers.contains(first) { return inverted(lead: [], words[1...]) }
        guard questionWords.contains(first), words.count >= 2 else { return nil }
        // "what time she's free": the question's own words, then the person.
        if let subject = words.indices.dropFirst().prefix(3).first(where: { isSubject(Self.key(words[$0])) }) {
            return inverted(lead: Array(words[..<subject]), words[subject...])
        }
        // "who is coming": the question word is who is asked about; the words keep their order.
        guard auxiliaries[Self.key(words[1])] != nil else { return nil }
        return question([], words[...])
    }

    private func isSubject(_ word: String) -> Bool { subjects.contains(word) || contracted[word] != nil }

    /// `lead` ("what time"), then `clause` ("she's free tomorrow") asked of the person
    /// ("What time are you free tomorrow?"); nil when the clause opens with no clear form.
    private func inverted(lead: [String], _ clause: ArraySlice<String>) -> String? {
        let words = Array(clause)
        guard words.count >= 2 else { return nil }
        let subject = Self.key(words[0]), next = Self.key(words[1])
        if let helping = contracted[subject] {
            // "if she's free": "Are you free"; "if she's seen it": "Have you seen it".
            let perfect = participles.contains(next) ? self.perfect[subject] : nil
            return question(lead + [perfect ?? auxiliaries[helping] ?? helping, you], words[1...])
        }
        if subjects.contains(subject), let helping = auxiliaries[next] {
            // "if they can come": "Can you come".
            return question(lead + [helping, you], words[2...])
        }
        if singular.contains(subject), !unclear.contains(next), let verb = plain(next) {
            // "if she wants pizza": "Do you want pizza".
            return question(lead + [ask, you, verb], words[2...])
        }
        return nil
    }

    /// `opening`, then `rest` with the person's words made theirs ("her car": "your car"),
    /// as a question: "Can you bring your car?".
    private func question(_ opening: [String], _ rest: ArraySlice<String>) -> String? {
        // "give her a ride": "her" may be someone else, so the question is left as said.
        let keys = rest.map(Self.key)
        for (word, next) in zip(keys, keys.dropFirst()) where objects[word] != nil && possessives[word] != nil && objectsBefore.contains(next) {
            return nil
        }
        let turned = rest.enumerated().map { index, word in
            let key = Self.key(word)
            let stops = word.count > key.count ? String(word.suffix(word.count - key.count)) : ""
            if index == rest.count - 1, let object = objects[key] { return object + stops }
            return possessives[key].map { $0 + stops } ?? word
        }
        var question = (opening + turned).joined(separator: " ")
        while let last = question.last, ".?!".contains(last) { question.removeLast() }
        guard let first = question.first else { return nil }
        return first.uppercased() + question.dropFirst() + end
    }

    /// A word as the language file spells it: lower case, with a straight apostrophe and
    /// without the stops after it ("She’s," is "she's").
    private static func key(_ word: String) -> String {
        var key = word.lowercased().replacingOccurrences(of: "\u{2019}", with: "'")
        while let last = key.last, ".,;:!?".contains(last) { key.removeLast() }
        return key
    }

    /// The plain form of a verb's -s form ("wants": "want"), or nil when it has none.
    private func plain(_ word: String) -> String? {
        for ending in endings where ending.count == 2 && word.hasSuffix(ending[0]) && word.count > ending[0].count + 1 {
            return String(word.dropLast(ending[0].count)) + ending[1]
        }
        return nil
    }
}
