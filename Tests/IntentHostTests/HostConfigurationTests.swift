import Foundation
import Testing
@testable import IntentHost
@testable import IntentProtocol

@Suite("Host configuration")
struct HostConfigurationTests {
    @Test("A config file's seconds out of range are a clear error, not a crash")
    func hugeSessionTimeoutIsRefused() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("intentd-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        var config = HostConfiguration(stateDirectory: StateDirectory(explicit: "/tmp/intentd-config-test"))
        for value in ["1e300", "-5"] {
            try #"{"sessionTimeoutSeconds": \#(value)}"#.write(to: url, atomically: true, encoding: .utf8)
            #expect(throws: ConfigurationError.self) { try config.apply(file: url) }
        }
        try #"{"sessionTimeoutSeconds": 90}"#.write(to: url, atomically: true, encoding: .utf8)
        try config.apply(file: url)
        #expect(config.sessionTimeout == .seconds(90))
    }
}
