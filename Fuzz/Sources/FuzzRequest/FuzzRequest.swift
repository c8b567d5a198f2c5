import FuzzSupport

let typed = TypedText()

/// Loads the language file, catalog and apps before the first input, so that memory
/// they keep for the whole run is not taken for memory an input leaked.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    typed.read("send a message to Bobo")
    typed.read("yes")
    return 0
}

/// Text as a user types it: read as a request with the repository's language file,
/// catalog and apps, and as an answer to each kind of question.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // Text reaches the reader from a JSON string, which is valid UTF-8.
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    typed.read(text)
    return 0
}
