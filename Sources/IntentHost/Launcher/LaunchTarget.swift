import Foundation
import IntentProtocol

/// One extension the host launches: its name in the config, its executable, and the
/// manifest that says which app it is.
///
/// The host reads the manifest before the first launch, so that it knows the bundle id the
/// child will register as: its key, its sandbox and its data are chosen by that, never by
/// what the running child says about itself.
struct LaunchTarget: Sendable {
    /// The name in the config, with `#N` for the Nth of several instances (`bench#2`).
    let name: String
    /// The executable.
    let executable: URL
    /// The manifest file (`Info.plist`).
    let manifest: URL
    /// What the manifest declares.
    let registration: Registration
    /// Whether the manifest declares `IntentdNetworkAccess`: the sandbox shares the host's network.
    var networkAccess = false

    /// The bundle id from the manifest.
    var bundleIdentifier: String { registration.bundleIdentifier }

    /// Finds the manifest of `executable`: the one the config names, else the SwiftPM
    /// resource bundle beside it (`*_NAME.resources/Manifest/Info.plist`), else
    /// `Manifest/Info.plist` in the executable's folder.
    static func manifest(of executable: URL, configured: String?, name: String) throws -> URL {
        if let configured { return URL(fileURLWithPath: configured) }
        guard let found = Manifest.file(beside: executable) else {
            throw ConfigurationError(
                "cannot find the manifest of the extension \"\(name)\" beside \(executable.path); "
                    + "name it under \"manifests\" in the config file")
        }
        return found
    }
}
