#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The claim one intentd holds on its state directory while it runs: an exclusive `flock` on
/// `STATE/intentd.lock`, which holds the host's pid. The kernel lets go of it when the
/// process ends, however it ends (kill -9 too), and launched extensions never inherit it. A
/// second host on the same directory would take its sockets over, serve its console on
/// another port and launch the same extensions on the same stores.
public final class StateDirectoryLock: Sendable {
    /// Why the claim was not taken: another host holds it, or the file cannot be used.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, in words.
        public let description: String
        init(_ description: String) { self.description = description }
    }

    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Takes the claim on `directory`, or says which process holds it.
    public static func acquire(_ directory: URL) throws -> StateDirectoryLock {
        let path = directory.appendingPathComponent("intentd.lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw Failure("cannot open \(path): \(String(cString: strerror(errno)))") }
        let failure = FileLock.exclusive(descriptor, wait: false)
        guard failure == 0 else {
            close(descriptor)
            guard failure == EWOULDBLOCK else { throw Failure("cannot lock \(path): \(String(cString: strerror(failure)))") }
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            let who = holder.flatMap(Int.init).map { "another intentd (pid \($0))" } ?? "another intentd"
            throw Failure(
                "\(who) is using the state directory \(directory.path): stop it first, or give this one its own --state-dir")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return StateDirectoryLock(descriptor: descriptor)
    }
}
