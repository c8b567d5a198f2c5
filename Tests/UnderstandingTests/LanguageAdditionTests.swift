import Foundation
import IntentProtocol
import Testing
import Understanding

/// Language additions: phrases, examples and answers for a domain of one's own, in a small
/// file merged into the language file as it loads (`intentd --phrases DIR`).
@Suite("Language additions")
struct LanguageAdditionTests {
    /// A folder holding `files` (name to JSON text), removed after `body`.
    func withFolder(_ files: [String: String], _ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("additions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        try body(folder)
    }

    static let languages = Fixture.root.appendingPathComponent("Protocols/languages")

    @Test("An addition's patterns, example and answer are read with the language file's words")
    func additionIsUnderstood() throws {
        let lights = #"{"name": "Lights", "description": "Lights.", "intents": [{"name": "TurnOnLight", "description": "Turns a light on.", "parameters": [{"name": "room", "type": "string", "prompt": "Which room?"}], "responseCodes": [{"name": "ready", "value": 1, "kind": "ready"}, {"name": "success", "value": 3, "kind": "success"}]}]}"#
        let phrases = #"{"language": "en", "intents": {"TurnOnLight": ["turn on [the] {room} light"]}, "examples": {"TurnOnLight": "Turn on the kitchen light in {app}"}, "results": {"TurnOnLight": ["The {room} light is on."]}}"#
        try withFolder(["en.json": phrases]) { folder in
            let packs = try LanguagePack.all(in: Self.languages, adding: [folder.appendingPathComponent("en.json")])
            let pack = try #require(packs["en"])
            var catalog = try Catalog(directory: Fixture.root.appendingPathComponent("Protocols/domains"))
            try catalog.add(JSON.decode(Domain.self, from: Array(lights.utf8)))
            let reader = RequestReader(pack: pack, catalog: catalog, clock: Fixture.clock)
            let glow = AppProfile(name: "Glow", intents: ["TurnOnLight"])
            guard case .request(let request) = reader.read("please turn on the kitchen light", apps: [glow]) else {
                Issue.record("not understood")
                return
            }
            #expect(request.intent == "TurnOnLight" && request.parameters["room"] == "kitchen")
            let words = Phrasebook(pack: pack)
            #expect(words.example(of: "TurnOnLight", app: "Glow") == "Turn on the kitchen light in Glow")
            #expect(words.result(of: "TurnOnLight", ["room": "kitchen"]) == "The kitchen light is on.")
            // The language file's own phrases are all still there.
            #expect(Fixture.request("text coco hi", reader, try Fixture.apps())?.intent == "SendMessage")
        }
    }

    @Test("An addition only adds: a text the language file has, a section it may not have, or no language file to add to is refused, naming the file")
    func additionOnlyAdds() throws {
        let cases = [
            #"{"language": "en", "examples": {"SendMessage": "Shout at {app}"}}"#: "examples.SendMessage is in en.json",
            #"{"language": "en", "values": {"completed": ["open"]}}"#: "values.completed is in en.json",
            #"{"language": "en", "summaries": {"default": ["OK?"]}}"#: "summaries.default is in en.json",
            #"{"language": "en", "words": {"yes": ["yup"]}}"#: "an addition has no words",
            #"{"language": "xx", "intents": {"TurnOnLight": ["light"]}}"#: "has no language file",
            #"{"language": "en", "intents": {"TurnOnLight": ["turn on (the {room} light"]}}"#: "intents.TurnOnLight",
            #"{"language": "en", "results": {"TurnOnLight": ["Done {room|loud}."]}}"#: "results.TurnOnLight",
            #"{"language": "en", "examples": {"TurnOnLight": 3}}"#: "must be a text",
        ]
        for (text, said) in cases {
            try withFolder(["en.json": text]) { folder in
                let file = folder.appendingPathComponent("en.json")
                do {
                    _ = try LanguagePack.all(in: Self.languages, adding: [file])
                    Issue.record("taken: \(text)")
                } catch {
                    #expect("\(error)".contains(said) && "\(error)".contains(file.path), "\(error)")
                }
            }
        }
    }

    /// A domain of one's own whose intent has a name the language file reads, with other
    /// parameters: StartWorkout taking an `activity`, where en.json's patterns read a
    /// `workoutName`.
    static let fitness = #"{"name": "Fitness", "description": "Workouts.", "intents": [{"name": "StartWorkout", "description": "Starts one.", "parameters": [{"name": "activity", "type": "string", "prompt": "Which activity?"}], "responseCodes": [{"name": "ready", "value": 1, "kind": "ready"}, {"name": "success", "value": 3, "kind": "success"}]}]}"#

    /// The language file with the addition `phrases`, the catalog with the Fitness domain,
    /// and a reader of both.
    func withFitness(adding phrases: String, _ body: (LanguagePack, Catalog, RequestReader) throws -> Void) throws {
        try withFolder(["en.json": phrases]) { folder in
            let pack = try #require(try LanguagePack.all(in: Self.languages, adding: [folder.appendingPathComponent("en.json")])["en"])
            var catalog = try Catalog(directory: Fixture.root.appendingPathComponent("Protocols/domains"))
            try catalog.add(JSON.decode(Domain.self, from: Array(Self.fitness.utf8)))
            try body(pack, catalog, RequestReader(pack: pack, catalog: catalog, clock: Fixture.clock))
        }
    }

    @Test("An addition adds patterns and answers to an intent the language file reads, after its own, for a domain that reuses its name with parameters of its own")
    func additionAddsToAnIntentTheLanguageReads() throws {
        let phrases = #"{"language": "en", "intents": {"StartWorkout": ["start [a|my] {activity} session"]}, "results": {"StartWorkout": ["Your {activity} session has started."]}}"#
        try withFitness(adding: phrases) { pack, catalog, reader in
            let fitly = AppProfile(name: "Fitly", intents: ["StartWorkout"])
            guard case .request(let request) = reader.read("start a yoga session", apps: [fitly]) else {
                Issue.record("not understood")
                return
            }
            #expect(request.intent == "StartWorkout" && request.parameters == ["activity": "yoga"])
            // The language file's answers, where they can be said, stay what the user hears;
            // the addition's come after them.
            let words = Phrasebook(pack: pack)
            #expect(words.result(of: "StartWorkout", ["workoutName": "run"]) == "Your run workout has started.")
            #expect(words.result(of: "StartWorkout", ["activity": "yoga"]) == "Your workout has started.")
            #expect(pack.unfitPatterns(in: catalog).isEmpty, "the addition reads its parameter")
            // Without it, that no pattern reads the domain's parameters is said at start.
            let unfit = try Fixture.pack().unfitPatterns(in: catalog)
            #expect(unfit.count == 1 && unfit[0].contains("StartWorkout") && unfit[0].contains("{workoutName}"), "\(unfit)")
        }
        // The built-in domains and the language file fit.
        #expect(try Fixture.pack().unfitPatterns(in: Catalog(directory: Fixture.root.appendingPathComponent("Protocols/domains"))).isEmpty)
    }

    @Test("Said while an app asks for a yes, the app's name is no value of its phrases: \"start a run workout in Gymbo\" has no activity \"in Gymbo\"")
    func appNameIsNoValueWhileConfirming() throws {
        // As `intentctl new` writes for it: "start workout {activity}", whose slot phrase is
        // "workout {activity}".
        let phrases = #"{"language": "en", "intents": {"StartWorkout": ["start workout", "start workout {activity}"]}}"#
        try withFitness(adding: phrases) { pack, catalog, reader in
            let gymbo = AppProfile(name: "Gymbo", intents: ["StartWorkout"])
            let zippy = AppProfile(name: "Zippy", intents: ["RequestRide"])
            #expect(reader.read("start a run workout in Gymbo", apps: [gymbo, zippy], answering: "Gymbo", confirming: "StartWorkout") == .notUnderstood)
            // Without the name, the phrase still reads a value.
            guard case .request(let request) = reader.read("workout yoga", apps: [gymbo, zippy], answering: "Gymbo", confirming: "StartWorkout") else {
                Issue.record("not understood")
                return
            }
            #expect(request.parameters == ["activity": "yoga"])
        }
    }
}
