import Foundation
import Testing
import IntentProtocol
import Understanding

/// The real language file, catalog and extension manifests of this repository.
enum Fixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `text` read as a request by `reader`; records an issue and gives nil when it is none.
    static func request(_ text: String, _ reader: RequestReader, _ apps: [AppProfile]) -> UnderstoodRequest? {
        guard case .request(let request) = reader.read(text, apps: apps) else {
            Issue.record("not understood as a request: \(text)")
            return nil
        }
        return request
    }

    static func reader(clock: UserClock = Fixture.clock) throws -> RequestReader {
        let catalog = try Catalog(directory: root.appendingPathComponent("Protocols/domains"))
        return RequestReader(pack: try pack(), catalog: catalog, clock: clock)
    }

    static func pack() throws -> LanguagePack {
        try LanguagePack(contentsOf: root.appendingPathComponent("Protocols/languages/en.json"))
    }

    /// The corpora's clock: Monday 23 November 2026, 10:00 in San Francisco.
    static let clock = UserClock.fixed(Date(timeIntervalSince1970: 1_795_456_800), in: zone)
    static let zone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: -8 * 3600) ?? .current

    /// MonkeyChat, List-o-Mat and Zippy as they register, with MonkeyChat's `contacts`.
    static func apps(contacts contactNames: [String] = contactNames) throws -> [AppProfile] {
        try ["Messaging", "Lists", "Rides"].map { folder in
            let manifest = root.appendingPathComponent("Extensions/\(folder)/Manifest")
            var registration = try Manifest(contentsOf: manifest.appendingPathComponent("Info.plist")).registration
            let vocabulary = manifest.appendingPathComponent("AppIntentVocabulary.plist")
            if FileManager.default.fileExists(atPath: vocabulary.path) {
                registration.vocabulary = try AppVocabulary(contentsOf: vocabulary)
            }
            let contacts = folder == "Messaging" ? ["contactName": contactNames] : [:]
            return AppProfile(registration, userVocabulary: contacts)
        }
    }

    static let contactNames = ["Bobo", "Bobo the Great", "Bobo Jr.", "Little Bobo", "Coco", "Kiki", "Mister Mojo"]
}
