import IntentExtensionKit
import Testing

@Suite("How far apart two spellings are")
struct SpellingDistanceTests {
    @Test("A letter added, dropped, changed or swapped with its neighbour is one typo")
    func oneTypo() {
        #expect(SpellingDistance.between("bulding", "building") == 1)
        #expect(SpellingDistance.between("prk", "park") == 1)
        #expect(SpellingDistance.between("pakr", "park") == 1)
        #expect(SpellingDistance.between("park", "bark") == 1)
        #expect(SpellingDistance.between("park", "park") == 0)
        #expect(SpellingDistance.between("", "park") == 4)
    }

    @Test("Short words allow no typo, longer ones one, long ones two")
    func typosAllowed() {
        #expect(SpellingDistance.allowed(inWordOf: 3) == 0)
        #expect(SpellingDistance.allowed(inWordOf: 4) == 1)
        #expect(SpellingDistance.allowed(inWordOf: 8) == 2)
    }
}
