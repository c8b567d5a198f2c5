import Foundation

/// Writes state that must be on disk before it is acknowledged (the host's lock,
/// authorizations and vocabulary, the trust store): the bytes go to a temporary file beside the target,
/// which is flushed, renamed over the target, and the directory flushed too. A crash at any
/// point leaves either the old file or the new one, never half of either.
public enum DurableFile {
    /// Replaces `url` with `bytes`, durably; on failure nothing changed.
    public static func write(_ bytes: [UInt8], to url: URL) throws(PolicyStateError) {
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/.\(url.lastPathComponent).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PolicyStateError(writing: url, errno) }
        var failure = writeAndClose(bytes, fd)
        if failure == 0, rename(temporary, url.path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw PolicyStateError(writing: url, failure)
        }
        try syncDirectory(directory, for: url)
    }

    /// Adds `bytes` at the end of `url` (made if it is not there), durably.
    public static func append(_ bytes: [UInt8], to url: URL) throws(PolicyStateError) {
        let existed = access(url.path, F_OK) == 0
        let fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PolicyStateError(writing: url, errno) }
        let failure = writeAndClose(bytes, fd)
        guard failure == 0 else { throw PolicyStateError(writing: url, failure) }
        if !existed { try syncDirectory(url.deletingLastPathComponent().path, for: url) }
    }

    /// Removes `url` durably; a file that is not there is already removed.
    public static func remove(_ url: URL) throws(PolicyStateError) {
        guard unlink(url.path) == 0 || errno == ENOENT else { throw PolicyStateError(writing: url, errno) }
        try syncDirectory(url.deletingLastPathComponent().path, for: url)
    }

    /// Writes all of `bytes` to `fd`, flushes and closes it: the first error, or 0.
    private static func writeAndClose(_ bytes: [UInt8], _ fd: Int32) -> Int32 {
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = Foundation.write(fd, raw.baseAddress.map { $0 + written }, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += n
            }
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0 { failure = errno }
        return failure
    }

    private static func syncDirectory(_ directory: String, for url: URL) throws(PolicyStateError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw PolicyStateError(writing: url, errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw PolicyStateError(writing: url, errno) }
    }
}

/// State that could not be saved; whatever it was about was not changed.
public struct PolicyStateError: Error, CustomStringConvertible {
    /// What could not be saved, and why.
    public let description: String

    init(writing url: URL, _ code: Int32) {
        description = "cannot save \(url.lastPathComponent) in \(url.deletingLastPathComponent().path): "
            + String(cString: strerror(code)).lowercased()
    }
}
