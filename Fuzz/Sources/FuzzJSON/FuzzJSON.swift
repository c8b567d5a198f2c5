import FuzzSupport
import IntentProtocol

/// One parameter of each type and shape the catalog has, for coercion.
let parameters: [ParameterDefinition] = {
    var seen = Set<String>()
    return Fuzzing.catalog().domains.flatMap(\.intents).flatMap(\.parameters).filter {
        seen.insert("\($0.type.rawValue) \($0.isList)").inserted
    }
}()

/// Reads the catalog before the first input, so that what it keeps is not taken for a leak.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    _ = parameters.count
    return 0
}

/// Bytes as a JSON document: parsed, written and parsed again to the same value, read
/// as every body type, and its values coerced to every parameter type of the catalog.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    for kind in Bodies.Kind.allCases { Bodies.read(bytes, as: kind) }
    guard let value = try? JSONValue.parse(bytes) else { return 0 }
    let written = value.serialized()
    let again = try? JSONValue.parse(written)
    Fuzzing.check(again == value, "JSON written as \(String(decoding: written, as: UTF8.self)) reads back as \(String(describing: again))")
    for member in value.objectValue.map({ Array($0.values) }) ?? [value] {
        for parameter in parameters {
            guard let coerced = try? parameter.coerce(member) else { continue }
            // What the host passes on is already of the parameter's type.
            Fuzzing.check((try? parameter.coerce(coerced)) == coerced, "\(parameter.type) coercion of \(coerced) changes it again")
        }
    }
    return 0
}
