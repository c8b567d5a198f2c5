import Foundation
import Testing
@testable import IntentHost
@testable import IntentProtocol

@Suite("Host configuration")
struct HostConfigurationTests {
    @Test("A config file's seconds out of range are a clear error, not a crash")
    func hugeSessionTimeoutIsRefused() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("intentd-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        var config = HostConfiguration(stateDirectory: StateDirectory(explicit: "/tmp/intentd-config-test"))
        for value in ["1e300", "-5"] {
            try #"{"sessionTimeoutSeconds": \#(value)}"#.write(to: url, atomically: true, encoding: .utf8)
            #expect(throws: ConfigurationError.self) { try config.apply(file: url) }
        }
        try #"{"sessionTimeoutSeconds": 90}"#.write(to: url, atomically: true, encoding: .utf8)
        try config.apply(file: url)
        #expect(config.sessionTimeout == .seconds(90))
    }
}

@Suite("Language additions named by --phrases")
struct PhrasesOptionTests {
    @Test("A folder, a file and a link to a folder name their additions; an empty folder, a missing path or another file is an error, not phrases silently missing")
    func phrasesPathsAreFoundOrRefused() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("phrases-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: root) }
        let folder = root.appendingPathComponent("Phrases"), empty = root.appendingPathComponent("Empty")
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        try fm.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: folder.appendingPathComponent("en.JSON"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("README.txt"))
        try fm.createSymbolicLink(at: root.appendingPathComponent("link"), withDestinationURL: folder)
        let file = folder.appendingPathComponent("en.JSON").resolvingSymlinksInPath()
        #expect(try HostConfiguration.languageAdditions(folder).map(\.lastPathComponent) == ["en.JSON"])
        #expect(try HostConfiguration.languageAdditions(root.appendingPathComponent("link")).map(\.lastPathComponent) == ["en.JSON"])
        #expect(try HostConfiguration.languageAdditions(file) == [file])
        for refused in [empty, root.appendingPathComponent("missing"), folder.appendingPathComponent("README.txt")] {
            #expect(throws: ConfigurationError.self) { try HostConfiguration.languageAdditions(refused) }
        }
    }
}
