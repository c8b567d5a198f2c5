import Foundation
import IntentProtocol

/// The user vocabulary of every app, by bundle identifier: each type an ordered set of
/// terms, replaced whole, effective at once, and kept in `STATE/vocabulary/BUNDLE.json`
/// so it survives host restarts.
struct VocabularyStore {
    private var vocabularies: [String: [String: [String]]] = [:]
    private let directory: URL

    init(directory: URL) {
        self.directory = directory
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.pathExtension == "json" {
            if let data = try? Data(contentsOf: file), let terms = try? JSONDecoder().decode([String: [String]].self, from: data) {
                vocabularies[file.deletingPathExtension().lastPathComponent] = terms
            }
        }
    }

    /// The terms of `bundle`, by type.
    func terms(of bundle: String) -> [String: [String]] { vocabularies[bundle] ?? [:] }

    /// Replaces one type's terms (empty removes it), and saves.
    mutating func replace(_ vocabulary: UserVocabulary, of bundle: String) throws {
        var terms = vocabularies[bundle] ?? [:]
        terms[vocabulary.type] = vocabulary.terms.isEmpty ? nil : Array(vocabulary.terms.prefix(UserVocabulary.maximumTerms))
        vocabularies[bundle] = terms
        try save(bundle)
    }

    /// Removes every type of `bundle`, and saves.
    mutating func reset(_ bundle: String) throws {
        vocabularies[bundle] = nil
        try save(bundle)
    }

    private func save(_ bundle: String) throws {
        let file = directory.appendingPathComponent("\(bundle).json")
        guard let terms = vocabularies[bundle], !terms.isEmpty else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        try StateDirectory.create(directory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(terms).write(to: file, options: .atomic)
    }
}
