import IntentExtensionKit
import Testing

@Suite("Typed parameters")
struct TypedParameterTests {
    @Test("A whole number too large for Int reads as none, not a crash; a fraction is cut off")
    func integersThatDoNotFit() {
        let intent = Intent(name: "RequestRide", parameters: ["big": .number(1e300), "small": .number(-1e300), "party": .number(3.7)])
        #expect(intent.integer("big") == nil)
        #expect(intent.integer("small") == nil)
        #expect(intent.integer("party") == 3)
    }
}
