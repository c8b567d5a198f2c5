// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "intentd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "intentd", targets: ["intentd"]),
        .executable(name: "intentctl", targets: ["intentctl"]),
        .executable(name: "MonkeyChat", targets: ["MonkeyChat"]),
        .executable(name: "IntentBench", targets: ["IntentBench"]),
        .executable(name: "ListOMat", targets: ["ListOMat"]),
        .executable(name: "Zippy", targets: ["Zippy"]),
        .executable(name: "IntentProbe", targets: ["IntentProbe"]),
        .library(name: "IntentExtensionKit", targets: ["IntentExtensionKit"]),
        .library(name: "IntentExtensionKitTesting", targets: ["IntentExtensionKitTesting"]),
        // SQLite in an extension's sandbox, with group commit and the durable idempotency journal.
        .library(name: "ExtensionStorage", targets: ["ExtensionStorage"]),
        // The readers of everything a peer or a file sends, for the fuzz package in Fuzz/.
        .library(name: "IntentReaders", targets: ["ZeroMQ", "IntentProtocol", "Understanding"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    ],
    targets: [
        // libzmq 4.3, found through pkg-config.
        .systemLibrary(name: "CZeroMQ", providers: [.apt(["libzmq3-dev"])]),
        // libedit, for intentctl chat's line editing.
        .systemLibrary(name: "CLineEditing", providers: [.apt(["libedit-dev"])]),
        // Our own thin Swift wrapper over libzmq.
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"], swiftSettings: strict),
        // The language-neutral model: wire frames, catalog, manifest, resolution results.
        .target(
            name: "IntentProtocol",
            dependencies: [
                "ZeroMQ", .product(name: "Logging", package: "swift-log"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: strict),
        // The SDK extension authors import.
        .target(
            name: "IntentExtensionKit",
            dependencies: [
                "ZeroMQ", "IntentProtocol", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // For extension authors' unit tests: a handler's resolve, confirm and handle without a host.
        .target(
            name: "IntentExtensionKitTesting",
            dependencies: ["IntentExtensionKit", .product(name: "InMemoryLogging", package: "swift-log")], swiftSettings: strict),
        // Understanding typed requests: language files, patterns, values.
        .target(name: "Understanding", dependencies: ["IntentProtocol"], swiftSettings: strict),
        // The host: broker, lock policy, lifecycle driver, extension launcher.
        .target(
            name: "IntentHost",
            dependencies: [
                "ZeroMQ", "IntentProtocol", "Understanding", .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            // Async functions run on their caller's executor unless marked @concurrent: a
            // lifecycle driven on the broker actor stays on it, stage after stage.
            swiftSettings: strict + [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]),
        // The host's HTTP side on loopback: one router that parts of the host add routes to
        // (the Prometheus metrics now), run as a service beside the host.
        .target(
            name: "HostOperations",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // The client library behind intentctl.
        .target(name: "IntentClient", dependencies: ["ZeroMQ", "IntentProtocol"], swiftSettings: strict),
        // Storage shared by this project's extensions: their SQLite database in the sandbox,
        // with the journal of completed handles in the same transactions as their writes.
        .target(
            name: "ExtensionStorage",
            dependencies: ["IntentExtensionKit", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
        // The load generator behind `intentctl bench`.
        .target(
            name: "LoadTest",
            dependencies: ["ZeroMQ", "IntentProtocol", .product(name: "Histogram", package: "hdrhistogram-swift")],
            swiftSettings: strict),
        // The console: a web page of the host's apps, lock, conversations, rides and traffic,
        // as routes for a Hummingbird router (the server that carries them is made in intentd).
        .target(
            name: "IntentConsole",
            dependencies: [
                "IntentHost", "IntentClient", "IntentProtocol", "ZeroMQ",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Page")],
            swiftSettings: strict),
        .executableTarget(
            name: "intentd",
            dependencies: [
                "IntentHost", "HostOperations", "IntentConsole", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "intentctl",
            dependencies: [
                "IntentClient", "IntentProtocol", "Understanding", "LoadTest", "ZeroMQ", "CLineEditing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // Extensions: one executable each, with its manifest beside the sources.
        .executableTarget(
            name: "MonkeyChat",
            dependencies: ["IntentExtensionKit", "ExtensionStorage", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Extensions/Messaging",
            resources: [.copy("Manifest")],
            swiftSettings: strict),
        .executableTarget(
            name: "ListOMat",
            dependencies: ["IntentExtensionKit", "ExtensionStorage", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Extensions/Lists",
            resources: [.copy("Manifest")],
            swiftSettings: strict),
        .executableTarget(
            name: "Zippy",
            dependencies: ["IntentExtensionKit", "ExtensionStorage", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Extensions/Rides",
            resources: [.copy("Manifest")],
            swiftSettings: strict),
        .executableTarget(
            name: "IntentBench",
            dependencies: ["IntentExtensionKit"],
            path: "Extensions/Bench",
            resources: [.copy("Manifest")],
            swiftSettings: strict),
        // Test only: an extension that tries, on request, what a hostile one would (sandbox tests).
        .executableTarget(
            name: "IntentProbe",
            dependencies: ["IntentExtensionKit"],
            path: "Extensions/Probe",
            resources: [.copy("Manifest")],
            swiftSettings: strict),
        .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ"], swiftSettings: strict),
        .testTarget(name: "IntentProtocolTests", dependencies: ["IntentProtocol"], swiftSettings: strict),
        .testTarget(name: "IntentHostTests", dependencies: ["IntentHost", "IntentProtocol", "Understanding"], swiftSettings: strict),
        .testTarget(
            name: "UnderstandingTests", dependencies: ["Understanding", "IntentProtocol"], exclude: ["Corpus"],
            swiftSettings: strict),
        .testTarget(name: "LoadTestTests", dependencies: ["LoadTest"], swiftSettings: strict),
        .testTarget(name: "IntentExtensionKitTests", dependencies: ["IntentExtensionKit", "IntentExtensionKitTesting"], swiftSettings: strict),
        .testTarget(
            name: "ExtensionStorageTests",
            dependencies: ["ExtensionStorage", "IntentExtensionKit", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["ZeroMQ", "IntentProtocol", "IntentClient", "LoadTest", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Fixtures"],
            swiftSettings: strict),
    ]
)
