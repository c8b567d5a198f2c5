import Foundation
import IntentProtocol
import Synchronization

/// The processes the host launched and is running now, by the random token each got in
/// `INTENTD_LAUNCH_TOKEN`: written by the launcher, read by the broker for STATUS.
///
/// A registration that carries a token found here is that launch's instance; any other
/// (no token, an unknown one) runs outside the host's sandbox.
final class LaunchLedger: Sendable {
    /// One running launch.
    struct Entry: Sendable {
        /// How it runs.
        let sandbox: SandboxStatus
        /// The pid the host spawned (bubblewrap's, when sandboxed).
        let pid: pid_t
        /// Whether `pid` is bubblewrap, whose grandchild is the extension.
        let sandboxed: Bool
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// The bundle id each token was made for, from before its process starts.
    private let bundles = Mutex<[String: String]>([:])

    /// A new random token: 128 bits as hex.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
    }

    /// Notes a launch.
    func record(_ token: String, _ entry: Entry) {
        entries.withLock { $0[token] = entry }
    }

    /// Notes that `token` is about to be given to a launch of `bundle`.
    func expect(_ token: String, bundle: String) {
        bundles.withLock { $0[token] = bundle }
    }

    /// Whether `token` is a launch of `bundle`: a peer may send any token it learned.
    func isLaunch(_ token: String, of bundle: String) -> Bool {
        bundles.withLock { $0[token] == bundle }
    }

    /// Forgets a launch whose process ended.
    func remove(_ token: String) {
        _ = entries.withLock { $0.removeValue(forKey: token) }
        _ = bundles.withLock { $0.removeValue(forKey: token) }
    }

    /// `launch` with the extension's own pid: bubblewrap's grandchild when sandboxed (a pid
    /// an operator may signal); none while bubblewrap has not started it yet or once the
    /// launch has ended, never bubblewrap's.
    func showing(_ launch: LaunchStatus) -> LaunchStatus {
        var launch = launch
        launch.processIdentifier = launch.processIdentifier.flatMap { spawned in
            entries.withLock { $0.values.first { Int($0.pid) == spawned } }.flatMap(Self.extensionPid)
        }
        return launch
    }

    /// The pid of the extension an entry runs.
    private static func extensionPid(_ entry: Entry) -> Int? {
        entry.sandboxed ? inner(entry.pid).map(Int.init) : Int(entry.pid)
    }

    /// The extension under bubblewrap `pid`: its init's (pid 1 inside) child.
    private static func inner(_ pid: pid_t) -> pid_t? {
        SystemCall.children(of: pid).first.flatMap { SystemCall.children(of: $0).first }
    }

    /// How the instance that registered with `token` runs, and its pid as the host sees it
    /// (the pid it reports itself is its own namespace's).
    func describe(_ token: String?) -> (SandboxStatus, Int?) {
        guard let token, let entry = entries.withLock({ $0[token] }) else { return (SandboxStatus(state: .outside), nil) }
        return (entry.sandbox, Self.extensionPid(entry))
    }
}
