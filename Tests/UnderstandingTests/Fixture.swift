import Foundation
import IntentProtocol
import Understanding

/// The real language file, catalog and extension manifests of this repository.
enum Fixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func reader() throws -> RequestReader {
        let pack = try LanguagePack(contentsOf: root.appendingPathComponent("Protocols/languages/en.json"))
        let catalog = try Catalog(directory: root.appendingPathComponent("Protocols/domains"))
        return RequestReader(pack: pack, catalog: catalog)
    }

    /// MonkeyChat, List-o-Mat and Zippy as they register, with MonkeyChat's contacts.
    static func apps() throws -> [AppProfile] {
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
