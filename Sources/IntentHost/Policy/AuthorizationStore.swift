import Foundation
import IntentProtocol

/// What the user decided about each app, by bundle identifier, kept in
/// `STATE/authorization.json` so decisions survive restarts. Apps start not determined.
struct AuthorizationStore {
    private var statuses: [String: AuthorizationStatus] = [:]
    private let file: URL

    init(file: URL) {
        self.file = file
        if let data = try? Data(contentsOf: file),
            let saved = try? JSONDecoder().decode([String: AuthorizationStatus].self, from: data)
        {
            statuses = saved
        }
    }

    /// The status of `bundle`.
    func status(of bundle: String) -> AuthorizationStatus { statuses[bundle] ?? .notDetermined }

    /// Saves a decision, then applies it; if it cannot be saved, nothing changes.
    mutating func set(_ status: AuthorizationStatus, for bundle: String) throws(PolicyStateError) {
        var next = statuses
        next[bundle] = status == .notDetermined ? nil : status
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try DurableFile.write(Array((try? encoder.encode(next)) ?? Data("{}".utf8)), to: file)
        statuses = next
    }
}
