import Foundation

/// A new directory only this user can enter, with a name no one can guess (`mkdtemp`), for
/// state that lives as long as one run: a directory with a predictable name in `/tmp` may
/// have been made by another user first, with links in it to this user's files.
public enum PrivateDirectory {
    /// Makes `TMPDIR/PREFIX-XXXXXX` (mode 0700) and returns it.
    public static func make(prefix: String) throws(PrivateDirectoryError) -> URL {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-XXXXXX").path
        var template = Array(base.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard made != nil else { throw PrivateDirectoryError(description: "cannot make a directory in \(base): \(String(cString: strerror(errno)))") }
        return URL(fileURLWithPath: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}

/// Why `PrivateDirectory.make` failed.
public struct PrivateDirectoryError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
}
