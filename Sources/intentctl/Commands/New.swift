import ArgumentParser
import Foundation
import IntentProtocol

/// `intentctl new NAME --domain DOMAIN`
struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a ready extension, in Swift or Python: a manifest, a handler per intent with TODOs, and a test.",
        discussion: """
            DOMAIN is a domain of the host's catalog (Messaging, ListsAndNotes, RideBooking), whose \
            typed API the handlers use, or a domain file of your own (the host then needs \
            --catalog with that file's folder). The package builds, passes its test and \
            registers with a running host as made; its README says how.
            """)

    @Argument(help: "The extension's name: letters and digits, starting with a capital (Notely).")
    var name: String

    @Option(help: "A domain name from the catalog, or the path of a domain file (*.json).")
    var domain: String

    @Option(help: "The intents to handle, comma-separated (default: all of the domain's).")
    var intents: String?

    @Option(name: .customLong("bundle-id"), help: "The bundle id (default com.example.NAME in lower case).")
    var bundleIdentifier: String?

    @Option(help: "swift (a package depending on this repository's IntentExtensionKit) or python (for sdk/python).")
    var language: Language = .swift

    enum Language: String, ExpressibleByArgument, CaseIterable { case swift, python }

    @Option(help: "Where to create it (default ./NAME); must not exist yet.")
    var output: String?

    @Option(help: "This repository, which the package depends on (default: found from intentctl itself).")
    var sdk: String?

    func validate() throws {
        guard let first = name.unicodeScalars.first, CharacterSet.uppercaseLetters.contains(first),
            name.count <= 64, name.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) })
        else { throw ValidationError("NAME must be letters and digits starting with a capital letter, at most 64 (such as Notely)") }
    }

    func run() throws {
        let fm = FileManager.default
        // The repository given has the catalog; else it is found from intentctl itself.
        let given = sdk.map { URL(fileURLWithPath: $0).appendingPathComponent("Protocols/domains") }.flatMap { fm.fileExists(atPath: $0.path) ? $0 : nil }
        guard let domains = given ?? Catalog.locate() else {
            throw CommandFailure("cannot find the catalog (Protocols/domains); pass --sdk with this repository, or set INTENTD_CATALOG_DIR")
        }
        let root = sdk.map { URL(fileURLWithPath: $0) } ?? domains.deletingLastPathComponent().deletingLastPathComponent()
        guard fm.fileExists(atPath: root.appendingPathComponent("Sources/IntentExtensionKit").path) else {
            throw CommandFailure("\(root.path) is not the intentd repository (no Sources/IntentExtensionKit); pass --sdk PATH")
        }
        let (chosen, file, typed) = try pickDomain(catalogDirectory: domains, repository: root)
        let wanted = intents?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let list = try wanted.map { names in
            try names.map { intent in
                guard let found = chosen.intents.first(where: { $0.name.lowercased() == intent.lowercased() }) else {
                    throw ValidationError("\(chosen.name) has no intent \(intent) (it has \(chosen.intents.map(\.name).joined(separator: ", ")))")
                }
                return found
            }
        } ?? chosen.intents
        let bundle = bundleIdentifier ?? "com.example.\(name.lowercased())"
        if let problem = PeerNames.problem(withBundleIdentifier: bundle) { throw ValidationError(problem) }

        let destination = URL(fileURLWithPath: output ?? name)
        guard !fm.fileExists(atPath: destination.path) else { throw CommandFailure("\(destination.path) exists already") }
        let scaffold = try Scaffold(
            name: name, bundleIdentifier: bundle, domain: chosen, intents: list, builtIn: typed, sdk: root.standardizedFileURL, domainFile: file)
        let files = switch language {
        case .swift: scaffold.swiftFiles
        case .python: scaffold.pythonFiles
        }
        for (path, contents) in files {
            let url = destination.appendingPathComponent(path)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        print("created \(destination.path): \(name) (\(bundle)) for \(list.map(\.name).joined(separator: ", "))")
        print("next: see \(destination.appendingPathComponent("README.md").path)")
    }

    /// The domain named, its file when it is not the host's own, and whether the SDK has typed
    /// intents for it. A relative file path is looked for from here, then from the repository
    /// (`Examples/domains/workouts.json` from anywhere).
    private func pickDomain(catalogDirectory: URL, repository: URL) throws -> (Domain, URL?, Bool) {
        if domain.hasSuffix(".json") {
            let fm = FileManager.default
            let candidates = [URL(fileURLWithPath: domain)] + (domain.hasPrefix("/") ? [] : [repository.appendingPathComponent(domain)])
            guard let url = candidates.first(where: { fm.fileExists(atPath: $0.path) }) else {
                throw CommandFailure("no domain file at \(candidates.map(\.path).joined(separator: " or "))")
            }
            let own = try Catalog.domain(at: url)
            _ = try Catalog(domains: [own])  // the host's own checks of a domain file
            return (own, url, false)
        }
        let catalog = try Catalog(directory: catalogDirectory)
        guard let found = catalog.domains.first(where: { $0.name.lowercased() == domain.lowercased() }) else {
            throw ValidationError("no domain \(domain) in the catalog (it has \(catalog.domains.map(\.name).joined(separator: ", "))); or give a domain file")
        }
        return (found, nil, true)
    }
}
