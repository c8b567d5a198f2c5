// swift-tools-version:6.1
import PackageDescription

// A probe, not part of intentd: how long the request reader takes per input, without
// libFuzzer or sanitizers, reading each file of a directory (the fuzz corpus) as FuzzRequest
// does. README, "Fuzzing". Run:
// swift run -c release --package-path deploy/probes/reader-speed ReaderSpeed .build-fuzz/corpus/FuzzRequest
let package = Package(
    name: "ReaderSpeed",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "intentd-fuzz", path: "../../../Fuzz")],
    targets: [
        .executableTarget(
            name: "ReaderSpeed", dependencies: [.product(name: "FuzzSupport", package: "intentd-fuzz")],
            swiftSettings: [.swiftLanguageMode(.v6)])
    ])
