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

    /// Replaces one type's terms (empty removes it): saved first, then applied; if it
    /// cannot be saved, nothing changes.
    mutating func replace(_ vocabulary: UserVocabulary, of bundle: String) throws {
        var terms = vocabularies[bundle] ?? [:]
        terms[vocabulary.type] = vocabulary.terms.isEmpty ? nil : vocabulary.terms
        try save(terms, of: bundle)
        vocabularies[bundle] = terms
    }

    /// Removes every type of `bundle`: saved first, then applied.
    mutating func reset(_ bundle: String) throws {
        try save([:], of: bundle)
        vocabularies[bundle] = nil
    }

    private func save(_ terms: [String: [String]], of bundle: String) throws {
        let file = directory.appendingPathComponent("\(bundle).json")
        guard !terms.isEmpty else {
            try DurableFile.remove(file)
            return
        }
        try StateDirectory.create(directory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try DurableFile.write(Array(try encoder.encode(terms)), to: file)
    }
}
