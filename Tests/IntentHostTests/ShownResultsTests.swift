import Foundation
import IntentProtocol
import Testing
import ZeroMQ

@testable import IntentHost

@Suite("What a client was last shown")
struct ShownResultsTests {
    let catalog: Catalog
    let identifiers = ShownValues(intent: "SearchForMessages", list: "messages", field: "identifier")

    init() throws { catalog = try Catalog(directory: catalogDirectory) }

    func client(_ n: UInt8) -> RoutingID { [0, n, 1, 2, 3].withUnsafeBytes { RoutingID($0) } }

    func search(_ ids: [String], app: String = "MonkeyChat", outcome: Outcome.Kind = .success) -> Outcome {
        Outcome(
            outcome: outcome, code: "success", app: app, intent: "SearchForMessages", sessionId: "s",
            response: IntentResponse(code: "success", response: ["messages": .array(ids.map { ["identifier": .string($0)] })]),
            message: "")
    }

    @Test("A search's messages are kept for the client it showed them to, and given only to the same app")
    func keptPerClientAndApp() {
        var shown = ShownResults(catalog: catalog)
        let now = ContinuousClock.now
        shown.record(search(["m-1", "m-2"]), for: client(1), now: now)
        #expect(shown.shown(to: client(1))?.values(for: identifiers, app: "MonkeyChat", now: now) == ["m-1", "m-2"])
        #expect(shown.shown(to: client(1))?.values(for: identifiers, app: "Impostor", now: now) == nil)
        #expect(shown.shown(to: client(2)) == nil)
        #expect(shown.shown(to: client(1))?.values(for: identifiers, app: "MonkeyChat", now: now + .seconds(301)) == nil)
    }

    @Test("A failed search, or one that found nothing, shows nothing; an intent no parameter reads changes nothing")
    func theLastSearchCounts() {
        var shown = ShownResults(catalog: catalog)
        let now = ContinuousClock.now
        shown.record(search(["m-1"]), for: client(1), now: now)
        var other = search(["m-9"])
        other.intent = "SendMessage"
        shown.record(other, for: client(1), now: now)
        #expect(shown.shown(to: client(1))?.values(for: identifiers, app: "MonkeyChat", now: now) == ["m-1"])
        shown.record(search([]), for: client(1), now: now)
        #expect(shown.shown(to: client(1))?.values(for: identifiers, app: "MonkeyChat", now: now) == nil)
        shown.record(search(["m-1"]), for: client(1), now: now)
        shown.record(search(["m-9"], outcome: .failure), for: client(1), now: now)
        #expect(shown.shown(to: client(1))?.values(for: identifiers, app: "MonkeyChat", now: now) == nil)
    }

    @Test("An extension's values are bounded: more than 64, an empty one or one over 256 bytes show nothing; at most 256 clients")
    func bounded() {
        var shown = ShownResults(catalog: catalog)
        let now = ContinuousClock.now
        for ids in [(0..<65).map { "m-\($0)" }, ["m-1", ""], ["m-1", String(repeating: "x", count: 257)]] {
            shown.record(search(ids), for: client(0), now: now)
            #expect(shown.shown(to: client(0))?.values(for: identifiers, app: "MonkeyChat", now: now) == nil)
        }
        shown.record(search((0..<64).map { "m-\($0)" }), for: client(0), now: now)
        #expect(shown.shown(to: client(0))?.values(for: identifiers, app: "MonkeyChat", now: now)?.count == 64)
        for n in UInt8(1)...255 { shown.record(search(["m-1"]), for: client(n), now: now) }
        shown.record(search(["m-1"]), for: [9, 9, 9].withUnsafeBytes { RoutingID($0) }, now: now)
        #expect(shown.shown(to: client(0)) == nil)
        #expect(shown.shown(to: client(255)) != nil)
    }
}
