// swift-tools-version:6.0
import PackageDescription

// A probe, not part of intentd: how a task awaiting a reply on an actor whose executor is one
// thread gets back to that actor when the reply is resumed on that thread. README,
// "The broker is an actor on its own thread". Run: swift run -c release --package-path deploy/probes/actor-resume
let package = Package(
    name: "ActorResume",
    targets: [.executableTarget(name: "ActorResume", swiftSettings: [.swiftLanguageMode(.v6)])])
