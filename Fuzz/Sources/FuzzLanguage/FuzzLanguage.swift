import Foundation
import FuzzSupport
import IntentProtocol
import Understanding

/// Bytes as a language file: decoded and its patterns compiled, as `LanguagePack.all(in:)`
/// does for each file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLanguage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeRawBufferPointer(start: data, count: size))
    _ = try? LanguagePack(data: bytes)
    return 0
}
