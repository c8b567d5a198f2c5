import Foundation

/// A file a process's output is written to, such as a log.
public enum OutputFile {
    /// Opens `url` for writing, emptied or made anew; a device or pipe (such as /dev/null)
    /// is opened as it is, since making a file renames a new one over whatever the path names.
    public static func open(_ url: URL) throws -> FileHandle {
        let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
        if type == nil || type == .typeRegular {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        return try FileHandle(forWritingTo: url)
    }
}
