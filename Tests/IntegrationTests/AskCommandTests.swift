import Foundation
import IntentProtocol
import Testing
import ZeroMQ

/// `intentctl ask`, and what the host does with SAY messages it cannot take.
@Suite("Asking in words from scripts", .serialized)
struct AskCommandTests {
    @Test("ask --json prints send's object with the transcript of turns")
    func askJSON() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        _ = try host.ctl("authorize", "MonkeyChat", "allow")
        let result = try host.ctl("ask", "Send a message to Coco on MonkeyChat", "--answer", "the bananas are ripe", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json)
        #expect(json["outcome"] == "success")
        #expect(json["app"] == "MonkeyChat")
        #expect(json["intent"] == "SendMessage")
        #expect(json["end"] == "completed")
        #expect(json["response"]?["response"]?["message"]?["content"] == "the bananas are ripe")
        let transcript = try #require(json["transcript"]?.arrayValue)
        #expect(transcript.map { $0["speaker"]?.stringValue ?? "" } == ["user", "host", "user", "host"])
        #expect(transcript[1]["expecting"] == "value")
        #expect(transcript[1]["text"] == "What do you want to say to Coco?")
    }

    @Test("A request over 100 words is said to be too long, with how to send a long message; said as the answer to what a message says, it is sent whole")
    func longRequestsAndLongMessages() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        _ = try host.ctl("authorize", "MonkeyChat", "allow")
        let words = (0..<120).map { "word\($0)" }.joined(separator: " ")
        let long = try host.ctl("ask", "tell kiki that \(words)")
        #expect(long.stdout.contains("That's more than I read at once: say the request in at most 100 words."), "\(long.stdout)")
        let answered = try host.ctl("ask", "text kiki", "--answer", words, "--json")
        #expect(answered.json?["response"]?["response"]?["message"]?["content"]?.stringValue == words, "\(answered.stdout)")
    }

    @Test("ask exits 3 when the answers run out while the host still waits")
    func askRunsOutOfAnswers() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        _ = try host.ctl("authorize", "MonkeyChat", "allow")
        let result = try host.ctl("ask", "Send a message on MonkeyChat", "--json")
        #expect(result.status == 3)
        #expect(result.json?["outcome"] == "needsUserInput")
        #expect(result.json?["end"] == .null)
    }

    @Test("ask refuses a request to an app the user denied as send does: notAuthorized, exit 4")
    func askRefusesADeniedAppAsSendDoes() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        _ = try host.ctl("authorize", "MonkeyChat", "deny")
        let asked = try host.ctl("ask", "text Kiki hello", "--json")
        let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Kiki", "content=hello", "--json")
        #expect(asked.status == 4 && sent.status == 4, "ask \(asked.status), send \(sent.status)")
        #expect(asked.json?["outcome"] == "refused" && asked.json?["code"] == "notAuthorized", "\(asked.stdout)")
        #expect(asked.json?["code"] == sent.json?["code"])
        #expect(asked.json?["transcript"]?.arrayValue?.last?["text"]?.stringValue?.contains("MonkeyChat") == true)
    }

    @Test("A question the user is typing the answer to waits again from each typing note, and takes the answer after its first timeout")
    func typingKeepsTheQuestionWaiting() throws {
        let host = try TestHost(["--extensions", "messaging", "--session-timeout", "2"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        _ = try host.ctl("authorize", "MonkeyChat", "allow")
        let client = try host.client()
        let question = try client.say(Utterance(text: "Send a message to Coco on MonkeyChat"))
        #expect(question.expecting == .value && question.answerWithinSeconds == 2)
        // Typing for 4 s, a note a second: the question is the same, and waits about 2 s again.
        for _ in 0..<4 {
            Thread.sleep(forTimeInterval: 1)
            let kept = try client.say(Utterance(text: "", sessionId: question.sessionId, typing: true))
            #expect(kept.text == question.text && kept.end == nil && (1...2).contains(kept.answerWithinSeconds ?? 0), "\(kept)")
        }
        // Notes faster than once a second wait no longer, and never shorten the wait.
        let again = try client.say(Utterance(text: "", sessionId: question.sessionId, typing: true))
        #expect(again.end == nil && (1...2).contains(again.answerWithinSeconds ?? 0), "\(again)")
        let sent = try client.say(Utterance(text: "on my way", sessionId: question.sessionId))
        #expect(sent.end == .completed && sent.text.contains("on my way"), "\(sent)")
        // Without typing notes it ends at its time, and a typing note after that is told how it ended.
        let unanswered = try client.say(Utterance(text: "Send a message to Kiki on MonkeyChat"))
        Thread.sleep(forTimeInterval: 3)
        #expect(try client.say(Utterance(text: "", sessionId: unanswered.sessionId, typing: true)).end == .timedOut)
        // A typing note names the conversation it is for.
        do {
            _ = try client.say(Utterance(text: "", typing: true))
            Issue.record("a typing note without a session was taken")
        } catch {
            #expect("\(error)".contains("malformed"))
        }
    }

    @Test("A SAY with a bad body, an unknown session or an unknown language gets a clear error")
    func badUtterances() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        let client = try host.client()
        #expect(throws: Error.self) { try client.say(Utterance(text: "hi", sessionId: "no-such-session")) }
        do {
            _ = try client.say(Utterance(text: "hi", language: "xx"))
            Issue.record("an unknown language was accepted")
        } catch {
            #expect("\(error)".contains("unknownLanguage"))
        }
        do {
            _ = try client.say(Utterance(text: "hi", sessionId: "gone"))
        } catch {
            #expect("\(error)".contains("unknownSession"))
        }
        let raw = try Socket(try Context(), .dealer)
        try host.clientSecurity().apply(to: raw, endpoint: host.clientEndpoint)
        try raw.connect(host.clientEndpoint)
        try raw.send(try ClientMessage.say(RequestID(7), body: Body(Array("{not json".utf8))).frame())
        var poller = Poller()
        poller.add(raw)
        #expect(try poller.poll(timeout: 5000) > 0)
        let frames = try #require(try raw.receiveFrames(wait: false))
        guard case .error(_, let code, _)? = try? HostToClient(frames: frames[...]) else {
            Issue.record("no ERROR frame for a malformed SAY")
            return
        }
        #expect(code == "malformed")
        // Half a megabyte of words is answered at once, not matched for minutes.
        let long = String(repeating: "bananas ", count: 60_000)
        #expect(try client.say(Utterance(text: long)).end == .failed)
        // The host is still fine.
        #expect(try client.say(Utterance(text: "What can you do?")).end == .completed)
    }
}
