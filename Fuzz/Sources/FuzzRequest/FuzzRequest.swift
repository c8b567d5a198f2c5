import Foundation
import FuzzSupport
import IntentProtocol
import Understanding

let catalog = Fuzzing.catalog()
let pack = Fuzzing.language()
let apps = Fuzzing.apps()
let clock = UserClock.fixed(Date(timeIntervalSince1970: 1_795_456_800), in: TimeZone(secondsFromGMT: -8 * 3600) ?? .current)
let reader = RequestReader(pack: pack, catalog: catalog, clock: clock)
let answers = AnswerReader(pack: pack, clock: clock)
/// One parameter of each type the catalog has, with its intent, for answers.
let parameters: [(String, ParameterDefinition)] = {
    var seen = Set<String>()
    return catalog.domains.flatMap(\.intents).flatMap { intent in intent.parameters.map { (intent.name, $0) } }
        .filter { seen.insert($0.1.type.rawValue).inserted }
}()

/// Loads the language file, catalog and apps before the first input, so that memory
/// they keep for the whole run is not taken for memory an input leaked.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    _ = reader.read("send a message to Bobo", apps: apps)
    _ = answers.yesNo("yes")
    _ = parameters.count
    return 0
}

/// Text as a user types it: read as a request with the repository's language file,
/// catalog and apps, and as an answer to each kind of question.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // Text reaches the reader from a JSON string, which is valid UTF-8.
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    _ = reader.read(text, apps: apps)
    _ = answers.isCancel(text)
    _ = answers.yesNo(text)
    _ = answers.choice(text, options: ["Bobo", "Bobo the Great", "Little Bobo"])
    for (intent, parameter) in parameters { _ = answers.value(text, for: parameter, intent: intent, apps: apps) }
    return 0
}
