// swift-tools-version:6.1
// libFuzzer targets for every reader of hostile input: wire frames, JSON bodies,
// manifests, vocabularies, domain files, language files and typed requests.
// Built by deploy/fuzz.sh with `--sanitize fuzzer --sanitize address`; see README.md, "Fuzzing".
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
let targets = ["FuzzWire", "FuzzJSON", "FuzzManifest", "FuzzVocabulary", "FuzzCatalog", "FuzzLanguage", "FuzzRequest"]

let package = Package(
    name: "intentd-fuzz",
    platforms: [.macOS(.v15)],
    // FuzzSupport too, for the reader's speed probe (deploy/probes/reader-speed).
    products: targets.map { .executable(name: $0, targets: [$0]) } + [.library(name: "FuzzSupport", targets: ["FuzzSupport"])],
    dependencies: [.package(name: "intentd", path: "..")],
    targets: [
        // What several targets share: the repository's own files and every body decoder.
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "IntentReaders", package: "intentd")],
            swiftSettings: strict),
    ] + targets.map { name in
        // No main: libFuzzer's supplies it and calls LLVMFuzzerTestOneInput.
        .executableTarget(
            name: name, dependencies: ["FuzzSupport"],
            swiftSettings: strict + [.unsafeFlags(["-parse-as-library"])])
    }
)
