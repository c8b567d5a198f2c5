import Foundation
import FuzzSupport
import IntentProtocol
import Understanding

/// Bytes as an extension's Info.plist: read as the launcher reads it, and what it
/// registers made into the profile understanding uses.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeRawBufferPointer(start: data, count: size))
    guard let manifest = try? Manifest(data: bytes) else { return 0 }
    _ = AppProfile(manifest.registration)
    return 0
}
