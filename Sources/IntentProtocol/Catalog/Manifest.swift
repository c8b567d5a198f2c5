import Foundation

/// An extension's manifest: the Info.plist-style file beside its sources, with
/// `NSExtension` / `NSExtensionAttributes` / `IntentsSupported` and
/// `IntentsRestrictedWhileLocked`, the bundle identifier, the app's names and its usage
/// description.
public struct Manifest: Sendable, Hashable {
    /// What the extension sends in REGISTER (without its process id).
    public var registration: Registration
    /// Whether the extension's sandbox shares the host's network: the boolean
    /// `IntentdNetworkAccess` under `NSExtensionAttributes` (false when absent).
    public var networkAccess: Bool

    /// Reads a manifest file.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ManifestError("cannot read the manifest at \(url.path): \(describeFileError(error))")
        }
        try self.init(data: data, source: url.lastPathComponent)
    }

    /// Parses a manifest from XML (or binary) property-list data.
    public init(data: Data, source: String = "manifest") throws {
        let root = try PropertyList.root(of: data, source: source)
        func string(_ key: String) -> String? {
            root[key]?.string?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let bundle = string("CFBundleIdentifier"), !bundle.isEmpty else {
            throw ManifestError("\(source) has no CFBundleIdentifier")
        }
        guard let app = string("CFBundleDisplayName") ?? string("CFBundleName"), !app.isEmpty else {
            throw ManifestError("\(source) has no CFBundleDisplayName (the app's name)")
        }
        guard let attributes = root["NSExtension"]?["NSExtensionAttributes"], attributes.dictionary != nil else {
            throw ManifestError("\(source) has no NSExtension / NSExtensionAttributes dictionary")
        }
        guard let supported = attributes["IntentsSupported"]?.strings else {
            throw ManifestError("\(source) has no IntentsSupported array under NSExtensionAttributes")
        }
        let restricted = attributes["IntentsRestrictedWhileLocked"]?.strings ?? []
        if let network = attributes["IntentdNetworkAccess"], network.bool == nil {
            throw ManifestError("\(source): IntentdNetworkAccess under NSExtensionAttributes must be <true/> or <false/>")
        }
        networkAccess = attributes["IntentdNetworkAccess"]?.bool ?? false
        let alternatives = (root["INAlternativeAppNames"]?.dictionaries ?? []).compactMap { entry in
            entry["INAlternativeAppName"]?.string.map {
                AlternativeAppName(name: $0, pronunciation: entry["INAlternativeAppNamePronunciationHint"]?.string)
            }
        }
        registration = Registration(
            bundleIdentifier: bundle, appName: app, alternativeAppNames: alternatives,
            usageDescription: string("NSSiriUsageDescription") ?? "",
            intentsSupported: supported.map(Catalog.canonicalIntentName),
            intentsRestrictedWhileLocked: restricted.map(Catalog.canonicalIntentName))
    }

    /// The manifest of an executable, where the host looks for it when its config names
    /// none: the SwiftPM resource bundle beside it (`*_NAME.resources/Manifest/Info.plist`),
    /// else `Manifest/Info.plist` in the executable's folder.
    public static func file(beside executable: URL) -> URL? {
        let folder = executable.deletingLastPathComponent()
        let file = executable.lastPathComponent
        let bundles = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let candidates = bundles.filter { $0.hasSuffix("_\(file).resources") }.sorted()
            .map { folder.appendingPathComponent($0).appendingPathComponent("Manifest/Info.plist") }
            + [folder.appendingPathComponent("Manifest/Info.plist")]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }
}

/// A manifest that cannot be used.
public struct ManifestError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
