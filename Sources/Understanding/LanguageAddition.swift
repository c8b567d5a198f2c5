import Foundation

/// A language addition: a small file of one language with the phrases, examples and
/// answers for domains of one's own (`{"language": "en", "intents": {…}, "examples": {…},
/// "results": {…}}`), merged into that language's file as it loads. It only adds: an entry
/// the language file has already is an error, as is any section but those listed.
enum LanguageAddition {
    /// The sections an addition may have, each an object by intent (or by name).
    static let sections: Set<String> = [
        "intents", "appVerbForms", "pointedIntents", "prompts", "summaries", "results", "examples", "values",
        "unsupportedReasons", "confirmationReasons", "responseCodes", "modifiers", "cues",
    ]

    /// The JSON object in `file`.
    static func object(in file: URL) throws -> [String: Any] {
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
                if existing[name] != nil {
                    throw LanguageError("\(file.path): \(section).\(name) is in \(baseFile.lastPathComponent) already; an addition only adds")
                }
                existing[name] = entry
            }
            merged[section] = existing
        }
        return merged
    }
}
