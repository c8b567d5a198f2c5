import FuzzSupport
import IntentProtocol

/// Bytes as a domain file: read as `Catalog(directory:)` reads each file, checked as it
/// adds the domain, and every intent then looked up by its names.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    guard let domain = try? Catalog.domain(bytes, from: "fuzz.json"), let catalog = try? Catalog(domains: [domain]) else { return 0 }
    for intent in domain.intents {
        Fuzzing.check(catalog.intent(intent.name) != nil, "intent \(intent.name) added but not found")
        Fuzzing.check(catalog.domain(ofIntent: intent.name) == domain.name, "intent \(intent.name) found in another domain")
        for parameter in intent.parameters { _ = intent.parameter(parameter.name) }
        for code in intent.responseCodes { _ = intent.responseCode(code.name) }
    }
    return 0
}
