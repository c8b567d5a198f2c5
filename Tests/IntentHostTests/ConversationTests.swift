import Foundation
import Synchronization
import Testing
import Understanding
@testable import IntentHost
@testable import IntentProtocol

/// The host side of a conversation with the broker replaced: a world with MonkeyChat,
/// turns collected as they are delivered.
final class FakeDialogHost: DialogHost {
    let registration: Registration
    let turns = Mutex<[Turn]>([])

    init() throws {
        let manifest = catalogDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Extensions/Messaging/Manifest/Info.plist")
        registration = try Manifest(contentsOf: manifest).registration
    }

    func world() async -> DialogWorld {
        DialogWorld(
            apps: [DialogWorld.App(registration: registration, profile: AppProfile(registration), authorization: .authorized)],
            locked: false)
    }

    func authorize(bundle: String, _ status: AuthorizationStatus) async {}

    func deliver(_ turn: Turn, to address: ClientAddress) { turns.withLock { $0.append(turn) } }

    /// Waits for the `count`th turn.
    func turn(_ count: Int) async throws -> Turn {
        for _ in 0..<500 {
            if let turn = turns.withLock({ $0.count >= count ? $0[count - 1] : nil }) { return turn }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CancellationError()
    }
}

/// Refuses every stage while `locked`, like the broker's lock policy; else answers as
/// MonkeyChat would for known names.
final class LockableExtension: StageSender {
    let locked = Mutex(true)
    let inner = ScriptedExtension()

    func stage(app: String, intent: String, stage: Stage, body: [UInt8]) async -> StageReply {
        if locked.withLock({ $0 }) { return .refused(.requiresUnlock, "unlock first") }
        return await inner.stage(app: app, intent: intent, stage: stage, body: body)
    }
}

@Suite("Conversations")
struct ConversationTests {
    let pack: LanguagePack
    let catalog: Catalog

    init() throws {
        let root = catalogDirectory.deletingLastPathComponent()
        pack = try LanguagePack(contentsOf: root.appendingPathComponent("languages/en.json"))
        catalog = try Catalog(directory: catalogDirectory)
    }

    func engine(_ host: FakeDialogHost, _ sender: any StageSender, timeout: Duration = .seconds(5)) -> DialogEngine {
        DialogEngine(
            languages: ["en": pack], defaultLanguage: "en", catalog: catalog, host: host,
            driver: LifecycleDriver(sender: sender), timeout: timeout)
    }

    func address(_ n: UInt64) -> ClientAddress { ClientAddress(routingID: [1], requestID: RequestID(n)) }

    /// A conversation whose message waits for an unlock, with the device unlocked since.
    func askedToUnlock() async throws -> (FakeDialogHost, LockableExtension, DialogEngine, Turn) {
        let host = try FakeDialogHost()
        let ext = LockableExtension()
        let dialog = engine(host, ext)
        _ = dialog.hear(Utterance(text: "Send a message to Coco on MonkeyChat saying hi"), from: address(1))
        let asked = try await host.turn(1)
        #expect(asked.expecting == .unlock)
        ext.locked.withLock { $0 = false }
        return (host, ext, dialog, asked)
    }

    @Test("A stage refused while locked asks to unlock, then the same stage runs again")
    func unlockThenContinue() async throws {
        let (host, ext, dialog, asked) = try await askedToUnlock()
        _ = dialog.hear(Utterance(text: "done", sessionId: asked.sessionId), from: address(2))
        let last = try await host.turn(2)
        #expect(last.end == .completed)
        #expect(last.outcome?.outcome == .success)
        #expect(ext.inner.asked.withLock { $0.first } == "resolve recipients")
    }

    @Test("A cancel from the client calls off the conversation at any question, whatever the text; without a session it is refused")
    func clientCancel() async throws {
        let (host, ext, dialog, asked) = try await askedToUnlock()
        _ = dialog.hear(Utterance(text: "done", sessionId: asked.sessionId, cancel: true), from: address(2))
        let last = try await host.turn(2)
        #expect(last.end == .cancelled && last.text == "OK, cancelled. Nothing was done.", "\(last)")
        #expect(!ext.inner.asked.withLock { $0 }.contains { $0.hasPrefix("handle") })
        guard case .error(.malformed, _) = dialog.hear(Utterance(text: "", cancel: true), from: address(3)) else {
            Issue.record("a cancel without a session was taken")
            return
        }
    }

    @Test("Work an app says is under way is said to be under way, not done")
    func inProgressIsNotDone() async throws {
        let host = try FakeDialogHost()
        let dialog = engine(host, ScriptedExtension(handle: ["code": "inProgress"]))
        _ = dialog.hear(Utterance(text: "Send a message to Coco on MonkeyChat saying hi"), from: address(1))
        let last = try await host.turn(1)
        #expect(last.end == .completed)
        #expect(last.text == "MonkeyChat is on it.")
    }

    @Test("\"Reply\" after several messages from one person goes to that person (asked first); after messages from two, to neither")
    func replyToOneSenderOfSeveralMessages() async throws {
        func message(_ id: String, from sender: String) -> JSONValue {
            ["identifier": .string(id), "content": "hi", "sender": ["displayName": .string(sender)], "dateSent": "2026-11-23T10:00:00Z"]
        }
        for (senders, toCoco) in [(["Coco", "Coco"], true), (["Coco", "Kiki"], false)] {
            let host = try FakeDialogHost()
            let messages = JSONValue.array(senders.enumerated().map { message("m-\($0.offset)", from: $0.element) })
            let dialog = engine(host, ScriptedExtension(handle: ["code": "success", "response": ["messages": messages]]))
            _ = dialog.hear(Utterance(text: "what did coco say on MonkeyChat?"), from: address(1))
            #expect(try await host.turn(1).end == .completed)
            _ = dialog.hear(Utterance(text: "reply ok will do"), from: address(2))
            let turn = try await host.turn(2)
            #expect((turn.text == "Send Coco “ok will do”?") == toCoco, "\(senders): \(turn.text)")
        }
    }

    @Test("An app's error is said with what it said, made printable and cut short; \"nothing was done\" only when the handle was never sent")
    func appErrorIsSaidWithItsWords() async throws {
        let host = try FakeDialogHost()
        let dialog = engine(host, ScriptedExtension(handle: ["error": "SQLite error 13: database or disk is full\u{1B}[2J"]))
        _ = dialog.hear(Utterance(text: "Send a message to Coco on MonkeyChat saying hi"), from: address(1))
        let last = try await host.turn(1)
        #expect(last.outcome?.code == "extensionError")
        // The handle was sent: whether anything was done is the app's word, not repeated as the host's.
        #expect(last.text.hasPrefix("Sorry, MonkeyChat couldn't do that. It said: “SQLite error 13: database or disk is full"), "\(last.text)")
        let confirming = try FakeDialogHost()
        let refusing = engine(confirming, ScriptedExtension(confirm: ["error": "the outbox is full"]))
        _ = refusing.hear(Utterance(text: "Send a message to Coco on MonkeyChat saying hi"), from: address(3))
        let early = try await confirming.turn(1)
        #expect(early.text == "Sorry, MonkeyChat couldn't do that, and nothing was done. It said: “the outbox is full”.", "\(early.text)")
        #expect(!last.text.unicodeScalars.contains("\u{1B}"), "\(last.text)")
        let long = try FakeDialogHost()
        let chatty = engine(long, ScriptedExtension(handle: ["error": .string(String(repeating: "x", count: 5000))]))
        _ = chatty.hear(Utterance(text: "Send a message to Coco on MonkeyChat saying hi"), from: address(2))
        #expect(try await long.turn(1).text.count < 300)
    }

    @Test("An app's error is one line, and bounded in scalars too: it cannot pass a line off as the assistant's, nor grow by accents on one letter")
    func appErrorIsOneBoundedLine() {
        #expect(Conversation.shownError("bad\nintentd: all done\u{2028}ok") == "bad intentd: all done ok")
        let accents = "a" + String(repeating: "\u{301}", count: 10_000)
        #expect(accents.count == 1)
        #expect(Conversation.shownError(accents).unicodeScalars.count <= 4 * Conversation.errorShown + 2)
        #expect(Conversation.shownError("short") == "short")
    }

    @Test("A handle reply the host cannot read is said to be unknown, not a failure")
    func unreadableHandleReplyIsUnknown() async throws {
        let host = try FakeDialogHost()
        let dialog = engine(host, ScriptedExtension(handle: ["code": "sent"]))
        _ = dialog.hear(Utterance(text: "Send a message to Coco on MonkeyChat saying hi"), from: address(1))
        let last = try await host.turn(1)
        #expect(last.outcome?.code == "outcomeUnknown")
        #expect(last.text.contains("I don't know whether it did that"), "\(last.text)")
        // A client that gave the key is told to ask again: with that key it is done at most once.
        _ = dialog.hear(Utterance(text: "Send a message to Coco on MonkeyChat saying hi", idempotencyKey: "keyed-1"), from: address(2))
        let keyed = try await host.turn(2)
        #expect(keyed.text.contains("Ask me again to find out: it won't be done twice."), "\(keyed.text)")
    }

    @Test("Only the connection that started a conversation can answer it; to another its id names nothing")
    func answersComeFromTheConnectionThatStarted() async throws {
        let host = try FakeDialogHost()
        let ext = LockableExtension()
        let dialog = engine(host, ext)
        _ = dialog.hear(Utterance(text: "Send a message to Coco on MonkeyChat saying hi"), from: address(1))
        let asked = try await host.turn(1)
        ext.locked.withLock { $0 = false }
        let stranger = ClientAddress(routingID: [2], requestID: RequestID(9))
        guard case .error(.unknownSession, _) = dialog.hear(Utterance(text: "done", sessionId: asked.sessionId), from: stranger) else {
            Issue.record("another connection answered the conversation")
            return
        }
        _ = dialog.hear(Utterance(text: "done", sessionId: asked.sessionId), from: address(2))
        let last = try await host.turn(2)
        #expect(last.end == .completed)
        for _ in 0..<1000 where dialog.isActive(asked.sessionId) { try await Task.sleep(for: .milliseconds(10)) }
        guard case .error(.unknownSession, _) = dialog.hear(Utterance(text: "yes", sessionId: asked.sessionId), from: stranger) else {
            Issue.record("another connection heard how the conversation ended")
            return
        }
    }

    @Test("Silence past the deadline ends the session, and a late answer hears why")
    func silenceTimesOut() async throws {
        let host = try FakeDialogHost()
        let ext = LockableExtension()
        let dialog = engine(host, ext, timeout: .milliseconds(100))
        _ = dialog.hear(Utterance(text: "Send a message to Coco on MonkeyChat saying hi"), from: address(1))
        let asked = try await host.turn(1)
        for _ in 0..<1000 where dialog.isActive(asked.sessionId) { try await Task.sleep(for: .milliseconds(10)) }
        guard case .answer(let late) = dialog.hear(Utterance(text: "done", sessionId: asked.sessionId), from: address(2)) else {
            Issue.record("a late answer was taken")
            return
        }
        #expect(late.end == .timedOut)
        #expect(ext.inner.asked.withLock { $0.isEmpty })
    }

    @Test("An unknown session and an unknown language are errors, not new conversations")
    func unknownSessionAndLanguage() throws {
        let dialog = engine(try FakeDialogHost(), LockableExtension())
        guard case .error(.unknownSession, _) = dialog.hear(Utterance(text: "hi", sessionId: "nope"), from: address(1)) else {
            Issue.record("an unknown session was accepted")
            return
        }
        guard case .error(.unknownLanguage, _) = dialog.hear(Utterance(text: "hi", language: "xx"), from: address(2)) else {
            Issue.record("an unknown language was accepted")
            return
        }
    }
}
