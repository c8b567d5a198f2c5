import Foundation
import IntentProtocol
import Understanding

/// What the fuzz targets share: the repository's own files, and a check that stops the
/// run (a crash libFuzzer records, with the input) when a property does not hold.
public enum Fuzzing {
    /// The repository this file is in.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Stops the run with `what` when `condition` is false.
    public static func check(_ condition: Bool, _ what: @autoclosure () -> String) {
        if !condition { fatalError("property broken: \(what())") }
    }

    /// The repository's catalog (Protocols/domains).
    public static func catalog() -> Catalog {
        guard let catalog = try? Catalog(directory: root.appendingPathComponent("Protocols/domains")) else {
            fatalError("cannot load Protocols/domains under \(root.path)")
        }
        return catalog
    }

    /// The repository's English language file.
    public static func language() -> LanguagePack {
        guard let pack = try? LanguagePack(contentsOf: root.appendingPathComponent("Protocols/languages/en.json")) else {
            fatalError("cannot load Protocols/languages/en.json under \(root.path)")
        }
        return pack
    }

    /// MonkeyChat, List-o-Mat and Zippy as they register, with a few contacts.
    public static func apps() -> [AppProfile] {
        ["Messaging", "Lists", "Rides"].map { folder in
            let manifest = root.appendingPathComponent("Extensions/\(folder)/Manifest")
            guard var registration = try? Manifest(contentsOf: manifest.appendingPathComponent("Info.plist")).registration else {
                fatalError("cannot load the manifest in \(manifest.path)")
            }
            registration.vocabulary = try? AppVocabulary(contentsOf: manifest.appendingPathComponent("AppIntentVocabulary.plist"))
            let contacts = folder == "Messaging" ? ["contactName": ["Bobo", "Bobo the Great", "Coco", "Kiki", "Mister Mojo"]] : [:]
            return AppProfile(registration, userVocabulary: contacts)
        }
    }
}
