import Foundation

/// A language addition: a small file of one language with the phrases, examples and
/// answers for domains of one's own (`{"language": "en", "intents": {…}, "examples": {…},
/// "results": {…}}`), merged into that language's file as it loads. It only adds: to an
/// intent's patterns or answers the language file has already, its own are added after them,
/// so a domain of one's own may reuse an intent name the language reads ("StartWorkout")
/// with patterns for its own parameters, while the language's own words, where they can be
/// said, stay what the user hears (a confirmation cannot be reworded); any other entry the
/// language file has already is an error, as is any section but those listed.
enum LanguageAddition {
    /// The sections an addition may have, each an object by intent (or by name).
    static let sections: Set<String> = [
        "intents", "appVerbForms", "pointedIntents", "followUps", "prompts", "summaries", "results", "examples", "values",
        "unsupportedReasons", "confirmationReasons", "responseCodes", "modifiers", "cues",
    ]

    /// The sections whose entries are patterns; the others' are templates or words.
    static let patternSections: Set<String> = ["intents", "appVerbForms", "pointedIntents", "followUps", "modifiers"]

    /// The sections whose lists, by intent, an addition may add to (after the language
    /// file's own): patterns and answers. Words, values and reasons it may not touch.
    static let extendable: Set<String> = ["intents", "appVerbForms", "pointedIntents", "followUps", "prompts", "summaries", "results"]

    /// Checks one entry as the language file's loader would, so that a mistake names the
    /// addition it is in: patterns compile, templates close their braces and name known
    /// filters, and every entry is text or a list of texts.
    private static func check(_ entry: Any, at path: String, patterns: Bool, in file: URL) throws {
        guard let texts = entry as? [String] ?? (entry as? String).map({ [$0] }) else {
            throw LanguageError("\(file.path): \(path) must be a text or a list of texts")
        }
        for text in texts {
            if patterns {
                do { _ = try Pattern(text) } catch { throw LanguageError("\(file.path): \(path): \(error)") }
            } else if let problem = Phrasebook.problem(in: text) {
                throw LanguageError("\(file.path): \(path): \(problem)")
            }
        }
    }

    /// Each of the language `files` (of `directory`) as JSON, with the `additions` of its
    /// language merged in, and a name for it in errors.
    static func merged(_ files: [URL], with additions: [URL], from directory: URL) throws -> [(language: String, data: Data, source: String)] {
        var bases: [String: (file: URL, json: [String: Any])] = [:]
        for file in files {
            let json = try object(in: file)
            guard let language = json["language"] as? String else { throw LanguageError("\(file.lastPathComponent): no language") }
            bases[language] = (file, json)
        }
        for file in additions {
            let addition = try object(in: file)
            guard let language = addition["language"] as? String, var base = bases[language] else {
                throw LanguageError("\(file.path): its language has no language file in \(directory.path) to add to")
            }
            base.json = try merge(addition, from: file, into: base.json, of: base.file)
            bases[language] = base
        }
        return try bases.map { language, base in
            (language, try JSONSerialization.data(withJSONObject: base.json), "\(base.file.lastPathComponent) with its additions")
        }
    }

    /// The largest file read: the whole English language file is under 100 KB.
    static let maximumBytes = 4 << 20

    /// The JSON object in `file`, a regular file of at most `maximumBytes`.
    static func object(in file: URL) throws -> [String: Any] {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.resolvingSymlinksInPath().path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular else { throw LanguageError("\(file.path) is not a regular file") }
        guard let size = attributes?[.size] as? Int, size <= maximumBytes else {
            throw LanguageError("\(file.path) is over \(maximumBytes >> 20) MB; a language file is far smaller")
        }
        let data: Data
        do { data = try Data(contentsOf: file) } catch { throw LanguageError("cannot read \(file.path): \(error.localizedDescription)") }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw LanguageError("\(file.path) is not a JSON object")
        }
        return object
    }

    /// `base` (read from `baseFile`) with the entries of `addition` (read from `file`).
    static func merge(_ addition: [String: Any], from file: URL, into base: [String: Any], of baseFile: URL) throws -> [String: Any] {
        var merged = base
        for (section, value) in addition where section != "language" && section != "description" {
            guard sections.contains(section) else {
                throw LanguageError("\(file.path): an addition has no \(section); it may have \(sections.sorted().joined(separator: ", "))")
            }
            guard let entries = value as? [String: Any] else { throw LanguageError("\(file.path): \(section) must be an object") }
            var existing = merged[section] as? [String: Any] ?? [:]
            for (name, entry) in entries {
                try check(entry, at: "\(section).\(name)", patterns: patternSections.contains(section), in: file)
                guard let had = existing[name] else {
                    existing[name] = entry
                    continue
                }
                guard extendable.contains(section), name != "default", let list = had as? [String],
                    let added = entry as? [String] ?? (entry as? String).map({ [$0] })
                else {
                    throw LanguageError("\(file.path): \(section).\(name) is in \(baseFile.lastPathComponent) or an addition before it already; an addition only adds (to an intent's patterns and answers, after the language's own)")
                }
                existing[name] = list + added
            }
            merged[section] = existing
        }
        return merged
    }
}
