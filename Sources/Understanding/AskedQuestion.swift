/// A yes-or-no question passed on ("ask Kiki if she can bring plates"), which the message
/// asks the person directly: "Can you bring plates?". Only clear forms are turned: a
/// pronoun with a helping verb ("if they're free", "whether he has seen it"), or "she" or
/// "he" with a verb in its -s form ("if she wants pizza": "Do you want pizza?"). Anything
/// else ("if she got the tickets") is left as said. Every word comes from the language file.
struct AskedQuestion: Sendable, Decodable {
    /// The free-text parameter that holds the question ("content").
    var parameter: String
    /// The request's verbs that pass a question on ("ask").
    var verbs: Set<String>
    /// The words that open the question ("if", "whether").
    var introducers: Set<String>
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
        guard words.count >= 3, introducers.contains(Self.key(words[0])) else { return nil }
        let subject = Self.key(words[1]), next = Self.key(words[2])
        let opening: [String]
        let rest: ArraySlice<String>
        if let helping = contracted[subject] {
            // "if she's free": "Are you free"; "if she's seen it": "Have you seen it".
            let perfect = participles.contains(next) ? self.perfect[subject] : nil
            opening = [perfect ?? auxiliaries[helping] ?? helping, you]
            rest = words[2...]
        } else if subjects.contains(subject), let helping = auxiliaries[next] {
            // "if they can come": "Can you come".
            opening = [helping, you]
            rest = words[3...]
        } else if singular.contains(subject), !unclear.contains(next), let verb = plain(next) {
            // "if she wants pizza": "Do you want pizza".
            opening = [ask, you, verb]
            rest = words[3...]
        } else {
            return nil
        }
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
