import Foundation
import FuzzSupport
import IntentProtocol

/// Bytes as an extension's AppIntentVocabulary.plist: read, and sent in a registration
/// that the host reads back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVocabulary(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeRawBufferPointer(start: data, count: size))
    guard let vocabulary = try? AppVocabulary(data: bytes) else { return 0 }
    var registration = Registration(bundleIdentifier: "org.example.fuzz", appName: "Fuzz", intentsSupported: ["SendMessage"])
    registration.vocabulary = vocabulary
    guard let body = try? JSON.encode(registration) else { return 0 }
    Bodies.read(body, as: .registration)
    Fuzzing.check((try? JSON.decode(Registration.self, from: body))?.vocabulary == vocabulary, "a vocabulary changed on its way through REGISTER")
    return 0
}
