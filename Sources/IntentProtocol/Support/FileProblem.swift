import Foundation

/// Says in a few words why a file operation failed ("no such file or directory"),
/// instead of the full error dump Foundation gives.
public func describeFileError(_ error: any Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code))).lowercased()
    }
    if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))).lowercased() }
    if let cocoa = error as? CocoaError {
        switch cocoa.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or directory"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on the device"
        case .fileWriteVolumeReadOnly: return "the file system is read-only"
        default: break
        }
    }
    return ns.localizedDescription
}
