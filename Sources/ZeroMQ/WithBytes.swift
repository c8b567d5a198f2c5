/// Calls `body` with the bytes of `array`, keeping `body`'s typed error (the array's own
/// `withUnsafeBytes` only rethrows `any Error`).
package func withBytes<R, E: Error>(_ array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    let result: Result<R, E> = array.withUnsafeBytes { raw in Result { () throws(E) in try body(raw) } }
    return try result.get()
}
