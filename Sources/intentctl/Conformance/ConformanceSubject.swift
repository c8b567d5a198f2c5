import Foundation
import IntentProtocol

/// The extension under test: a command and its manifest, made launchable by a host as a
/// one-file executable (a shell script in the test's state directory that runs the command
/// in the caller's directory, with the caller's environment minus the host's variables).
struct ConformanceSubject {
    /// The command as given, its executable resolved through PATH.
    let command: [String]
    /// Its manifest.
    let manifest: URL
    /// What the manifest declares.
    let registration: Registration

    init(command: [String], manifest: String?) throws {
        guard let first = command.first else { throw ConformanceError("no command: intentctl conformance [--manifest FILE] -- COMMAND ARGS...") }
        guard let executable = Self.resolve(first) else { throw ConformanceError("cannot find the executable \(PeerNames.loggable(first))") }
        self.command = [executable.path] + command.dropFirst()
        guard let found = manifest.map({ URL(fileURLWithPath: $0) }) ?? Manifest.file(beside: executable) else {
            throw ConformanceError("cannot find the manifest of \(executable.path) (a SwiftPM resource bundle or Manifest/Info.plist beside it): pass --manifest FILE")
        }
        self.manifest = found
        registration = try Manifest(contentsOf: found).registration
    }

    /// The executable `name` names: a path, or a file found through PATH.
    static func resolve(_ name: String) -> URL? {
        let fm = FileManager.default
        if name.contains("/") {
            let url = URL(fileURLWithPath: name).standardizedFileURL
            return fm.isExecutableFile(atPath: url.path) ? url : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { fm.isExecutableFile(atPath: $0.path) }
    }

    /// Writes the launcher script into `directory` and returns it.
    func writeLauncher(in directory: URL) throws -> URL {
        let script = directory.appendingPathComponent("extension-under-test")
        var lines = ["#!/bin/sh", "# Written by intentctl conformance: runs the extension under test."]
        let skipped: Set<String> = ["PATH", "HOME", "TMPDIR", "PWD", "OLDPWD", "SHLVL", "_"]
        for (name, value) in ProcessInfo.processInfo.environment.sorted(by: { $0.key < $1.key })
        where !name.hasPrefix("INTENTD_") && !skipped.contains(name) && Self.isShellName(name) {
            lines.append("export \(name)=\(Self.quoted(value))")
        }
        lines.append("cd \(Self.quoted(FileManager.default.currentDirectoryPath)) || exit 1")
        lines.append("exec " + command.map(Self.quoted).joined(separator: " ") + " \"$@\"")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: script)
        guard chmod(script.path, 0o700) == 0 else { throw ConformanceError("cannot make \(script.path) executable") }
        return script
    }

    static func isShellName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

/// Why a conformance run could not start.
struct ConformanceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
