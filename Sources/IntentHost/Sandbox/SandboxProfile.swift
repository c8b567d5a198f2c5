import Foundation
import IntentProtocol

/// How one extension runs inside bubblewrap: the `bwrap` arguments and the paths the
/// extension sees.
///
/// Inside, the extension has new mount, pid, ipc, uts and cgroup namespaces, and a network
/// namespace of its own (only a loopback) unless its manifest declares
/// `IntentdNetworkAccess`. It sees read-only the system's libraries (`/usr` and the `/lib*`,
/// `/bin` links, the Swift runtime), its own executable at `/app/NAME` and its resource
/// bundles beside it; its sandbox directory read-write at `/var/sandbox`, which is also its
/// HOME, TMPDIR and working directory; and the host's extension endpoint at
/// `/run/intentd/extensions.sock`. Nothing else of the host's file system: no state
/// directory, no client endpoint, no other sandbox, no home directory. It runs with no
/// capabilities, no new privileges (`PR_SET_NO_NEW_PRIVS`), in a new session, and dies with
/// the host.
struct SandboxProfile: Sendable {
    /// Where the sandbox directory is mounted inside.
    static let sandboxPath = "/var/sandbox"
    /// Where the extension endpoint's socket file is mounted inside.
    static let endpointPath = "/run/intentd/extensions.sock"
    /// Where the executable and its resources are mounted inside.
    static let appDirectory = "/app"

    /// The bubblewrap executable.
    let bubblewrap: String
    /// Read-only directories every extension needs besides `/usr`: the Swift runtime's.
    let runtimeDirectories: [String]

    /// `bundle` as a directory name: letters, digits, `.`, `-` and `_`, at most 200 bytes,
    /// not starting with a dot; throws otherwise, so no manifest names a path outside.
    static func directoryName(_ bundle: String) throws -> String {
        let allowed = bundle.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x2D || b == 0x5F
        }
        guard allowed, !bundle.isEmpty, bundle.utf8.count <= 200, !bundle.hasPrefix(".") else {
            throw ConfigurationError(
                "the bundle identifier \"\(ExtensionLog.escape(Array(bundle.utf8.prefix(200))))\" cannot name a sandbox: "
                    + "use a reverse-DNS name such as com.example.app (letters, digits, '-' and '.')")
        }
        return bundle
    }

    /// A launch's name (`bench`, or `bench#2` for an instance of several) as a cgroup name
    /// (`bench.2`): config names are letters, digits, `-` and `_` (`ExtensionLauncher.resolveAll`),
    /// so no two launches share a group and none is `.` or `..`.
    static func groupName(_ name: String) -> String {
        String(name.map { $0 == "#" ? "." : $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "-" })
    }

    /// `path` as an absolute path, a relative one taken from the host's working directory:
    /// bubblewrap starts in the extension's sandbox directory, where the extension could have
    /// put what a relative path would then name.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Finds bubblewrap (a path, or a name looked up on PATH) and checks that it can make
    /// every namespace here; throws a message saying what is missing otherwise.
    static func make(bubblewrap configured: String) throws -> SandboxProfile {
        let path: String
        if configured.contains("/") {
            path = absolute(configured)
        } else {
            let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            path = directories.map { absolute("\($0)/\(configured)") }.first { FileManager.default.isExecutableFile(atPath: $0) } ?? configured
        }
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ConfigurationError("bubblewrap is not installed (no executable \(configured)): install the package bubblewrap")
        }
        let profile = SandboxProfile(bubblewrap: path, runtimeDirectories: Self.swiftRuntime())
        try profile.selfTest()
        return profile
    }

    /// The directory of the Swift runtime this host is linked with, from `/proc/self/maps`
    /// (extensions built with the same toolchain need it); none when linked statically or
    /// found under `/usr` anyway.
    static func swiftRuntime() -> [String] {
        let maps = SystemCall.readFile("/proc/self/maps") ?? ""
        guard let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
            let slash = line.firstIndex(of: "/")
        else { return [] }
        let directory = URL(fileURLWithPath: String(line[slash...])).deletingLastPathComponent().path
        return directory.hasPrefix("/usr/") ? [] : [directory]
    }

    /// Runs `true` in a sandbox with every namespace; throws unless it works.
    private func selfTest() throws {
        let (read, write) = try SystemCall.pipe()
        defer { SystemCall.close(read) }
        let pid: pid_t
        do {
            pid = try SystemCall.spawn(
                [bubblewrap] + systemArguments(network: false) + ["/usr/bin/true"], environment: ["PATH": "/usr/bin:/bin"],
                output: write)
        } catch {
            SystemCall.close(write)
            throw ConfigurationError("cannot run bubblewrap (\(bubblewrap)): \(error)")
        }
        SystemCall.close(write)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while let count = try? SystemCall.read(read, into: &buffer), count > 0, output.count < 4096 { output += buffer[..<count] }
        let termination = try SystemCall.wait(pid)
        guard termination == .exited(0) else {
            let said = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw ConfigurationError("bubblewrap cannot create the sandbox's namespaces here (\(termination)): \(said)")
        }
    }

    /// The namespaces, privileges and system directories every sandbox has.
    private func systemArguments(network: Bool) -> [String] {
        var arguments = [
            "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--ro-bind", "/usr", "/usr",
        ]
        if network { arguments.append("--share-net") }
        for top in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: top) {
                arguments += ["--symlink", target, top]
            } else if FileManager.default.fileExists(atPath: top) {
                arguments += ["--ro-bind", top, top]
            }
        }
        var files = ["/etc/ld.so.cache", "/etc/localtime"]
        if network { files += ["/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/ssl"] }
        for path in runtimeDirectories + files { arguments += ["--ro-bind-try", path, path] }
        arguments += ["--proc", "/proc", "--dev", "/dev"]
        return arguments
    }

    /// What one extension's sandbox looks like from inside.
    struct Layout: Sendable {
        /// bubblewrap and its arguments, up to and including the executable inside.
        var command: [String]
        /// The manifest's path inside.
        var manifest: String
        /// The extension endpoint inside.
        var endpoint: String
        /// The sandbox directory inside.
        var sandbox: String
    }

    /// The sandbox of `target`, whose data lives in `sandbox` on the host and which reaches
    /// the host at `endpoint`.
    func layout(for target: LaunchTarget, sandbox: URL, endpoint: String) throws -> Layout {
        var arguments = [bubblewrap] + systemArguments(network: target.networkAccess)
        let executable = target.executable
        let inside = "\(Self.appDirectory)/\(executable.lastPathComponent)"
        arguments += ["--ro-bind", executable.path, inside]
        // The SwiftPM resource bundles beside the executable (Bundle.module looks beside it).
        let folder = executable.deletingLastPathComponent()
        let bundles = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix("_\(executable.lastPathComponent).resources") }.sorted()
        var manifest: String?
        for bundle in bundles {
            let path = folder.appendingPathComponent(bundle).path
            arguments += ["--ro-bind", path, "\(Self.appDirectory)/\(bundle)"]
            if target.manifest.path.hasPrefix(path + "/") {
                manifest = "\(Self.appDirectory)/\(bundle)" + target.manifest.path.dropFirst(path.count)
            }
        }
        if manifest == nil {
            // A manifest from the config: it and the vocabulary beside it, read-only.
            let directory = "/run/intentd/manifest"
            arguments += ["--ro-bind", target.manifest.path, "\(directory)/Info.plist"]
            let vocabulary = target.manifest.deletingLastPathComponent().appendingPathComponent("AppIntentVocabulary.plist")
            arguments += ["--ro-bind-try", vocabulary.path, "\(directory)/AppIntentVocabulary.plist"]
            manifest = "\(directory)/Info.plist"
        }
        arguments += ["--bind", sandbox.path, Self.sandboxPath, "--chdir", Self.sandboxPath]
        let insideEndpoint: String
        if endpoint.hasPrefix("ipc://") {
            arguments += ["--ro-bind", Self.absolute(String(endpoint.dropFirst(6))), Self.endpointPath]
            insideEndpoint = "ipc://\(Self.endpointPath)"
        } else if target.networkAccess {
            insideEndpoint = endpoint
        } else {
            throw ConfigurationError(
                "the extension endpoint \(endpoint) is not ipc://, and \(target.name)'s manifest does not declare "
                    + "IntentdNetworkAccess: its sandbox has no network to reach it (use an ipc:// endpoint, or start intentd with --no-sandbox)")
        }
        arguments += ["--remount-ro", "/", "--remount-ro", "/dev", inside]
        return Layout(command: arguments, manifest: manifest ?? target.manifest.path, endpoint: insideEndpoint, sandbox: Self.sandboxPath)
    }
}
