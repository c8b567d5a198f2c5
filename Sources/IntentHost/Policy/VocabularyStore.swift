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
                // Types an earlier host took without checking them are left out.
                vocabularies[file.deletingPathExtension().lastPathComponent] = terms.filter { UserVocabulary.problem(withType: $0.key) == nil }
            }
        }
    }

    /// The terms of `bundle`, by type.
    func terms(of bundle: String) -> [String: [String]] { vocabularies[bundle] ?? [:] }

    /// Removes every type of `bundle` when `reset`, then replaces one type's terms with
    /// `set` (empty removes it), as one change: saved first, then applied. If it cannot be
    /// saved, or the app would pass `UserVocabulary.maximumTypes` types or `maximumBytes`,
    /// nothing changes.
    mutating func change(reset: Bool, set vocabulary: UserVocabulary?, of bundle: String) throws {
        var terms = reset ? [:] : vocabularies[bundle] ?? [:]
        if let vocabulary {
            if !vocabulary.terms.isEmpty, terms[vocabulary.type] == nil, terms.count >= UserVocabulary.maximumTypes {
                throw VocabularyLimit("an app's user vocabulary holds at most \(UserVocabulary.maximumTypes) types; remove one first, so nothing was changed")
            }
            terms[vocabulary.type] = vocabulary.terms.isEmpty ? nil : vocabulary.terms
        }
        // The same terms again (an app that sets its vocabulary at every start): nothing to write.
        if terms == vocabularies[bundle] ?? [:] { return }
        try save(terms, of: bundle)
        vocabularies[bundle] = terms.isEmpty ? nil : terms
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
        let encoded = try encoder.encode(terms)
        guard encoded.count <= Self.maximumBytes else {
            throw VocabularyLimit("an app's user vocabulary takes at most \(Self.maximumBytes) bytes as JSON, this would take \(encoded.count), so nothing was changed")
        }
        try DurableFile.write(Array(encoded), to: file)
    }

    /// The most one app's user vocabulary may take, as JSON: its VocabularyState answer
    /// stays within a message of the default limit.
    static let maximumBytes = 512 * 1024
}

/// A vocabulary change past the store's bounds; nothing was applied.
struct VocabularyLimit: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
