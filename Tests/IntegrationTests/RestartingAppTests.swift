import Foundation
import IntentProtocol
import Testing

/// An app the host has known is not unknown while its extension restarts.
@Suite("A restarting app", .serialized)
struct RestartingAppTests {
    @Test("While a killed extension restarts, its app is unavailable (exit 5), not unknown; an app never known is unknown")
    func restartingIsUnavailable() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        let status = try host.waitFor(["MonkeyChat"])
        let pid = try #require(status.extensions.first { $0.appName == "MonkeyChat" }?.processIdentifiers.first)
        kill(Int32(pid), SIGKILL)

        // Once the host has dropped the instance, and before the restart registers it again.
        let deadline = ContinuousClock.now + .seconds(10)
        var gone = false
        while !gone, ContinuousClock.now < deadline {
            gone = (try? host.client(timeout: .seconds(1)).status())?.extensions.contains { $0.appName == "MonkeyChat" } == false
            if !gone { usleep(20_000) }
        }
        #expect(gone, "MonkeyChat was never seen gone")
        let send = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=bananas", "--json")
        #expect(send.status == 5, "\(send.stdout) \(send.stderr)")
        #expect(send.json?.objectValue?["code"]?.stringValue == "extensionUnavailable", "\(send.stdout)")
        #expect(send.json?.objectValue?["outcome"]?.stringValue == "failure", "\(send.stdout)")

        let never = try host.ctl("send", "GorillaGram", "SearchForMessages", "searchTerms=bananas", "--json")
        #expect(never.status == 4, "\(never.stdout) \(never.stderr)")
        #expect(never.json?.objectValue?["code"]?.stringValue == "unknownApp", "\(never.stdout)")

        // And it is served again once it is back.
        try host.waitFor(["MonkeyChat"])
        #expect(try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=bananas").status == 0)
    }
}
