import IntentExtensionKit
import IntentExtensionKitTesting
import Testing

/// A typed SendMessage handler, as an author would write one.
struct Messenger: SendMessageIntentHandling {
    let contacts = ["Coco", "Kiki", "Bobo", "Bobo the Great"]

    func resolveRecipients(for intent: SendMessageIntent) async throws -> [ResolutionResult] {
        guard !intent.recipients.isEmpty else { return [.needsValue] }
        return intent.recipients.map { person in
            let matches = contacts.filter { $0.lowercased().hasPrefix(person.displayName.lowercased()) }
            return matches.isEmpty ? .unsupported : matches.count == 1 ? .success(Person(displayName: matches[0])) : .disambiguation(matches.map { Person(displayName: $0) })
        }
    }

    func handle(intent: SendMessageIntent) async throws -> SendMessageResponse {
        SendMessageResponse(.success, ["message": .string(intent.content ?? "")])
    }
}

@Suite("Handler tester")
struct HandlerTesterTests {
    let tester = HandlerTester(Messenger())

    func intent(_ parameters: [String: JSONValue]) -> Intent { Intent(name: "SendMessage", parameters: parameters) }

    @Test("A typed resolver answers through the tester, one result per value")
    func typedResolver() async throws {
        let results = try await tester.resolve("recipients", of: intent(["recipients": [["displayName": "bobo"], ["displayName": "kiki"]]]))
        #expect(results.map(\.kind) == ["disambiguation", "success"])
    }

    @Test("A parameter without a resolver resolves to its value, or needsValue when required and missing")
    func defaults() async throws {
        #expect(try await tester.resolve("content", of: intent(["content": "hi"])) == [.success("hi")])
        #expect(try await tester.resolve("content", of: intent([:]), required: true) == [.needsValue])
        #expect(try await tester.resolve("groupName", of: intent([:])) == [.notRequired])
    }

    @Test("A run stops at the first parameter that needs the user, and otherwise confirms and handles")
    func run() async throws {
        let stopped = try await tester.run(intent(["content": "hi"]), parameters: [("recipients", true), ("content", true)])
        #expect(stopped.resolutions.map(\.parameter) == ["recipients"])
        #expect(stopped.response == nil)

        let done = try await tester.run(intent(["recipients": [["displayName": "coco"]], "content": "hi"]), parameters: [("recipients", true), ("content", true)])
        #expect(done.resolutions.map(\.parameter) == ["recipients", "content"])
        #expect(done.confirmation?.code == "ready")
        #expect(done.response?.code == "success")
        #expect(done.response?.response["message"] == "hi")
    }
}
