import Foundation
import GRDB
import IntentClient
import IntentProtocol
import Testing

/// intentd and MonkeyChat as real processes, over real ipc sockets.
@Suite("Messaging end to end", .serialized)
struct MessagingEndToEndTests {
    /// Messages in MonkeyChat's own database whose content is `content`, read straight from the file.
    func storedMessages(_ host: TestHost, content: String) throws -> Int {
        let path = host.state.appendingPathComponent("sandboxes/com.monkeychat.intents/monkeychat.sqlite").path
        var configuration = Configuration()
        configuration.readonly = true
        let db = try DatabaseQueue(path: path, configuration: configuration)
        return try db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM message WHERE content = ?", arguments: [content]) ?? 0 }
    }

    @Test("A registration is rejected, with a reason in status, when a restricted intent is not supported")
    func registrationRejectedWhenRestrictedIntentIsNotSupported() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        let bad = try host.startExtension("MonkeyChat", ["--manifest", Products.fixtures.appendingPathComponent("RestrictedNotSupported.plist").path])
        TestHost.reap(bad)
        #expect(bad.terminationStatus == 78, "a rejected extension exits with 78 so it is not restarted")

        let status = try host.ctl("status", "--json")
        #expect(status.status == 0)
        let rejected = status.json?["rejected"]?.arrayValue ?? []
        #expect(rejected.count == 1)
        #expect(rejected.first?["code"] == "restrictedNotSupported")
        #expect(rejected.first?["appName"] == "BadChat")
        #expect(rejected.first?["reason"]?.stringValue?.contains("SendMessage") == true)
        #expect(status.json?["extensions"]?.arrayValue?.isEmpty == true)
        let text = try host.ctl("status")
        #expect(text.stdout.contains("rejected registrations:"))
        #expect(text.stdout.contains("every restricted intent must also be supported"))
        #expect(host.hostLines(about: "BadChat", startingWith: "rejected the registration of BadChat").count == 1)
    }

    @Test("Another bundle claiming a served app is rejected, and two instances of one extension share the load")
    func appTakenAndInstancesShareLoad() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        let debug = ["INTENTD_LOG_LEVEL": "debug"]
        let first = try host.startExtension(environment: debug)
        try host.waitFor(["MonkeyChat"])
        let copycat = try host.startExtension("MonkeyChat", ["--manifest", Products.fixtures.appendingPathComponent("CopyCat.plist").path])
        TestHost.reap(copycat)
        #expect(copycat.terminationStatus == 78)
        let status = try host.ctl("status", "--json")
        #expect(status.json?["rejected"]?.arrayValue?.first?["code"] == "appTaken")
        #expect(status.json?["rejected"]?.arrayValue?.first?["reason"]?.stringValue?.contains("com.monkeychat.intents") == true)

        let second = try host.startExtension(environment: debug)
        let both = try host.waitFor(["MonkeyChat"]) { $0.extensions.first?.instances == 2 }
        #expect(Set(both.extensions.first?.processIdentifiers ?? []) == [Int(first.processIdentifier), Int(second.processIdentifier)])
        for _ in 0..<4 {
            #expect(try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=tree").status == 0)
        }
        // Each instance logs the requests it answers (a lifecycle is two: its resolves and
        // confirm in one batch, then its handle); round robin gives both of them half.
        let logs = [0, 2].map { (try? String(contentsOf: host.state.appendingPathComponent("MonkeyChat-\($0).log"), encoding: .utf8)) ?? "" }
        let answered = logs.map { log in
            LogLine.all(in: log).filter { $0.message == "request" && $0.metadata["intent"] == "SearchForMessages" }.count
        }
        #expect(answered == [4, 4], "\(answered)")
    }

    @Test("While locked, SendMessage and SearchForMessages are refused, and a refused message never reaches MonkeyChat's store")
    func lockedSendMessageIsRefusedAndNeverArrives() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        #expect(try host.ctl("lock").status == 0)

        let content = "locked bananas \(UUID().uuidString)"
        let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Coco", "content=\(content)", "--json")
        #expect(sent.status == 4)
        #expect(sent.json?["outcome"] == "refused")
        #expect(sent.json?["code"] == "requiresUnlock")
        #expect(sent.json?["message"]?.stringValue?.contains("unlock") == true)
        #expect(try storedMessages(host, content: content) == 0)

        // A search shows what messages say, so it is restricted too; unlocked, it finds nothing.
        let locked = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=\(content)", "--json")
        #expect(locked.json?["code"] == "requiresUnlock")
        #expect(try host.ctl("unlock").status == 0)
        let search = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=\(content)", "--json")
        #expect(search.status == 0)
        #expect(search.json?["response"]?["response"]?["messages"]?.arrayValue?.isEmpty == true)
    }

    @Test("Unlocked, SendMessage succeeds and the message is still there after MonkeyChat restarts")
    func sentMessageSurvivesExtensionRestart() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        let first = try host.startExtension()
        try host.waitFor(["MonkeyChat"])
        #expect(try host.ctl("unlock").status == 0)

        let content = "more bananas \(UUID().uuidString)"
        let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Bobo the Great", "content=\(content)", "--json")
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        #expect(sent.json?["outcome"] == "success")
        #expect(sent.json?["code"] == "success")
        #expect(sent.json?["resolutions"]?.arrayValue?.first?["results"]?.arrayValue?.first?["value"]?["displayName"] == "Bobo the Great")

        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        try host.startExtension()
        try host.waitFor(["MonkeyChat"]) { $0.extensions.first?.processIdentifiers.contains(Int(first.processIdentifier)) == false }

        let search = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=\(content)", "--json")
        #expect(search.status == 0)
        let found = search.json?["response"]?["response"]?["messages"]?.arrayValue ?? []
        #expect(found.count == 1)
        #expect(found.first?["recipients"]?.arrayValue?.first?["displayName"] == "Bobo the Great")
        #expect(try storedMessages(host, content: content) == 1)
    }

    @Test("SendMessage handles in flight together are each stored once, each answer carries its own message, and sent again with their keys they get the same answers and store nothing more")
    func concurrentSendsEachLandOnce() throws {
        let host = try TestHost()
        defer { host.stop(); host.removeState() }
        try host.startExtension()
        try host.waitFor(["MonkeyChat"])
        #expect(try host.ctl("unlock").status == 0)
        let client = try PipelinedClient(host)
        let batch = UUID().uuidString.prefix(8)
        func sendAll() throws -> [String: JSONValue] {
            var sent: [UInt64: String] = [:]
            for i in 0..<32 {  // as many as the host takes in flight from one client
                let request = StageRequest(
                    sessionId: UUID().uuidString, language: "en", intent: "SendMessage",
                    parameters: ["recipients": [["displayName": "Coco", "identifier": "c-coco"]], "content": .string("banana \(batch) \(i)")],
                    idempotencyKey: "send-\(batch)-\(i)")  // 32: as many as the host takes from one client
                sent[try client.stage("MonkeyChat", "SendMessage", .handle, request)] = "banana \(batch) \(i)"
            }
            let answers = try client.answers(to: Array(sent.keys))
            #expect(answers.count == sent.count)
            var messages: [String: JSONValue] = [:]
            for (id, content) in sent {
                let reply = answers[id]?.json
                #expect(reply?["code"] == "success", "\(content): \(String(describing: answers[id]))")
                #expect(reply?["response"]?["message"]?["content"] == .string(content), "\(content) was answered with another message")
                messages[content] = reply?["response"]?["message"]
            }
            return messages
        }
        let first = try sendAll()
        for i in 0..<32 { #expect(try storedMessages(host, content: "banana \(batch) \(i)") == 1) }
        let again = try sendAll()
        #expect(again == first, "the retries get the first answers")
        for i in 0..<32 { #expect(try storedMessages(host, content: "banana \(batch) \(i)") == 1, "a retry stored a message again") }
    }

    @Test("\"Bobo\" yields a disambiguation between the three Bobos")
    func boboIsADisambiguation() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }

        let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Bobo", "content=hi", "--json")
        #expect(sent.status == 3)
        #expect(sent.json?["outcome"] == "needsUserInput")
        #expect(sent.json?["code"] == "disambiguation")
        let result = sent.json?["resolutions"]?.arrayValue?.first { $0["parameter"] == "recipients" }?["results"]?.arrayValue?.first
        #expect(result?["kind"] == "disambiguation")
        let names = Set(result?["options"]?.arrayValue?.compactMap { $0["displayName"]?.stringValue } ?? [])
        #expect(names == ["Bobo the Great", "Bobo Jr.", "Little Bobo"])

        let text = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Bobo", "content=hi")
        #expect(text.stdout.contains("which one?"))
    }

    @Test("Messages \"from\" a group are the group's: a sender who is no contact but a group's name finds its messages")
    func aGroupNamedAsTheSenderIsTheGroup() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }
        _ = try host.ctl("authorize", "MonkeyChat", "allow")
        func found(_ parameter: String) throws -> [String] {
            let result = try host.ctl("send", "MonkeyChat", "SearchForMessages", parameter, "--json")
            return result.json?["response"]?["response"]?["messages"]?.arrayValue?.compactMap { $0["groupName"]?.stringValue } ?? []
        }
        #expect(try found("senders=tree crew") == ["Tree Crew"])
        #expect(try found("groupNames=Tree Crew") == ["Tree Crew"])
        #expect(try found("senders=Zorro").isEmpty, "a name that is neither finds nothing")
    }

    @Test("Empty content yields needsValue with the catalog's prompt")
    func emptyContentNeedsAValue() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }

        let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Coco", "content=", "--json")
        #expect(sent.status == 3)
        #expect(sent.json?["code"] == "needsValue")
        let content = sent.json?["resolutions"]?.arrayValue?.first { $0["parameter"] == "content" }
        #expect(content?["results"]?.arrayValue?.first?["kind"] == "needsValue")
        #expect(sent.json?["message"]?.stringValue?.contains("What do you want to say?") == true)
    }

    @Test("An unknown app and an unknown intent give clear errors")
    func unknownAppAndIntentAreRefusedClearly() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }

        let app = try host.ctl("send", "NoSuchApp", "SendMessage", "content=x", "--json")
        #expect(app.status == 4)
        #expect(app.json?["code"] == "unknownApp")
        #expect(app.json?["message"]?.stringValue?.contains("MonkeyChat") == true, "the error names the apps that exist")

        let intent = try host.ctl("send", "MonkeyChat", "OrderPizza", "--json")
        #expect(intent.status == 4)
        #expect(intent.json?["code"] == "unknownIntent")

        let parameter = try host.ctl("send", "MonkeyChat", "SendMessage", "colour=red", "--json")
        #expect(parameter.status == 4)
        #expect(parameter.json?["code"] == "invalidParameter")

        let text = try host.ctl("send", "NoSuchApp", "SendMessage")
        #expect(text.stdout.contains("no extension serves the app \"NoSuchApp\""))
        #expect(!text.stderr.contains("Fatal error"))
    }

    @Test("Apps are found by alternative name, ignoring case and spaces, and SiriKit intent names work")
    func appsAreFoundByAlternativeNames() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }

        let sent = try host.ctl("send", "monkey chat", "INSearchForMessagesIntent", "searchTerms=bananas", "--json")
        #expect(sent.status == 0)
        #expect(sent.json?["app"] == "MonkeyChat")
        #expect(sent.json?["intent"] == "SearchForMessages")
    }

    @Test("SetMessageAttribute marks a stored message, and a missing one fails with its code")
    func setMessageAttributeWorksOnStoredMessages() throws {
        let host = try TestHost.withMonkeyChat()
        defer { host.stop(); host.removeState() }

        let marked = try host.ctl("send", "MonkeyChat", "SetMessageAttribute", "identifiers=m-welcome-1", "attribute=flagged", "--json")
        #expect(marked.status == 0)
        let flagged = try host.ctl("send", "MonkeyChat", "SearchForMessages", "attributes=flagged", "--json")
        let ids = flagged.json?["response"]?["response"]?["messages"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue } ?? []
        #expect(ids.contains("m-welcome-1"))

        let missing = try host.ctl("send", "MonkeyChat", "SetMessageAttribute", "identifiers=nope", "attribute=read", "--json")
        #expect(missing.status == 5)
        #expect(missing.json?["code"] == "failureMessageNotFound")
    }
}
