import Foundation
import IntentProtocol
import Testing

/// `intentctl chat` the way people use it: in a real terminal (a pseudo-terminal of
/// tmux), with line editing, follow-up questions, history, Ctrl-C, Ctrl-D and updates
/// that arrive while the user types.
@Suite("Chat in a real terminal", .serialized)
struct ChatTerminalTests {
    /// `intentctl chat` against `host`, in a terminal whose locale comes from `locale`
    /// (`nil`: none set at all, as in a bare login).
    static func chat(_ host: TestHost, locale: String?) throws -> TerminalSession {
        let environment = locale.map { "env -u LC_ALL -u LC_CTYPE LANG=\($0)" } ?? "env -u LANG -u LC_ALL -u LC_CTYPE"
        let terminal = try TerminalSession("\(environment) \(Products.url("intentctl").path) chat --state-dir \(host.state.path)")
        try terminal.waitFor("Say what you need")
        return terminal
    }

    /// A host with MonkeyChat (and `arguments`), and `intentctl chat` against it in a UTF-8 terminal.
    static func monkeyChat(_ arguments: [String] = []) throws -> (TestHost, TerminalSession) {
        let host = try TestHost(["--extensions", "messaging"] + arguments)
        do {
            try host.waitFor(["MonkeyChat"])
            return (host, try chat(host, locale: "C.UTF-8"))
        } catch {
            host.stop()
            host.removeState()
            throw error
        }
    }

    /// Asks to message Coco, and waits for the first question (MonkeyChat's authorization).
    static func askToMessageCoco(_ terminal: TerminalSession) throws {
        try terminal.typeLine("Send a message to Coco on MonkeyChat")
        try terminal.waitFor("Allow it?")
    }

    @Test(
        "A follow-up question, the up arrow, Ctrl-C and Ctrl-D work in a terminal, with or without a UTF-8 locale",
        arguments: [nil, "C", "C.UTF-8"])
    func followUpsHistoryAndKeys(locale: String?) throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        let terminal = try Self.chat(host, locale: locale)

        try Self.askToMessageCoco(terminal)
        // The first follow-up question: its prompt is not ASCII, which used to crash libedit.
        try terminal.typeLine("yes")
        try terminal.waitFor("What do you want to say to Coco?")
        try terminal.typeLine("bring bananas")
        try terminal.waitFor("OK, I sent “bring bananas” to Coco.")

        // Ctrl-C drops the line being typed and gives a fresh prompt; nothing is sent.
        try terminal.type("Send a message to Kiki saying oops")
        try terminal.waitFor("> Send a message to Kiki saying oops")
        try terminal.press("C-c")
        try terminal.waitFor("saying oops^C")
        try terminal.waitUntil("a fresh prompt") { $0.split(separator: "\n").last == ">" }

        // The up arrow brings back the last line sent, ready to edit; Ctrl-C drops it again.
        try terminal.press("Up")
        try terminal.waitUntil("the last line again") { $0.split(separator: "\n").last == "> bring bananas" }
        try terminal.press("C-c")
        try terminal.waitFor("> bring bananas^C")
        try terminal.waitUntil("a fresh prompt") { $0.split(separator: "\n").last == ">" }

        // Ctrl-D on an empty line leaves, with status 0.
        try terminal.press("C-d")
        let screen = try terminal.waitFor("TERMINAL-END-")
        #expect(screen.contains("TERMINAL-END-0"), "\(screen)")
        #expect(!screen.contains("crashed") && !screen.contains("Segmentation"), "\(screen)")
        let answers = screen.split(separator: "\n").filter { $0.hasPrefix("MonkeyChat:") || $0.hasPrefix("intentd:") }
        #expect(!answers.contains { $0.contains("Kiki") || $0.contains("oops") }, "a line dropped with Ctrl-C was answered:\n\(screen)")
    }

    @Test("Ctrl-C on an empty line at a question calls the request off; with words typed it drops them and the question stays")
    func interruptAtAQuestion() throws {
        let (host, terminal) = try Self.monkeyChat()
        defer { host.stop(); host.removeState() }
        try Self.askToMessageCoco(terminal)
        try terminal.type("ye")
        try terminal.press("C-c")
        try terminal.waitUntil("the typed words dropped, the question still open") { $0.split(separator: "\n").last == "…" }
        try terminal.press("C-c")
        try terminal.waitFor("OK, cancelled. Nothing was done.")
        try terminal.waitUntil("a prompt for a new request") { $0.split(separator: "\n").last == ">" }
        #expect(try !terminal.screen().contains("TERMINAL-END-"))
    }

    @Test("A question left unanswered past its time says so at once, and the line being typed stays, taken as a new request")
    func unansweredQuestionSaysSoAtOnce() throws {
        let (host, terminal) = try Self.monkeyChat(["--session-timeout", "2"])
        defer { host.stop(); host.removeState() }

        try Self.askToMessageCoco(terminal)
        try terminal.type("What can you")
        let screen = try terminal.waitUntil("the note at once, above the typed line under a fresh prompt", timeout: .seconds(10)) {
            $0.contains("(No answer within 2 s: intentd stopped waiting, so nothing was done.") && $0.split(separator: "\n").last == "> What can you"
        }
        #expect(!screen.contains("… What can you"), "\(screen)")
        try terminal.typeLine(" do?")
        let after = try terminal.waitFor("Here is what you can ask")
        #expect(!after.contains("I stopped waiting for an answer"), "the line was sent as the late answer:\n\(after)")
    }

    @Test("An answer typed slowly past the question's time is still taken: typing keeps the question waiting")
    func slowTypingKeepsTheQuestion() throws {
        let (host, terminal) = try Self.monkeyChat(["--session-timeout", "2"])
        defer { host.stop(); host.removeState() }
        try Self.askToMessageCoco(terminal)
        try terminal.typeLine("yes")
        try terminal.waitFor("What do you want to say to Coco?")
        // Five seconds of typing, a key every half second: more than twice the question's time.
        for character in "see you soon" {
            try terminal.type(String(character))
            Thread.sleep(forTimeInterval: 0.45)
        }
        try terminal.press("Enter")
        let screen = try terminal.waitFor("OK, I sent")
        #expect(screen.contains("OK, I sent “see you soon” to Coco."), "\(screen)")
        #expect(!screen.contains("No answer within"), "\(screen)")
    }

    @Test("The chat's own note wraps between words, as the host's answers do")
    func ownNoteWrapsBetweenWords() throws {
        let (host, terminal) = try Self.monkeyChat(["--session-timeout", "2"])
        defer { host.stop(); host.removeState() }
        try terminal.resize(columns: 60)
        try Self.askToMessageCoco(terminal)
        let screen = try terminal.waitUntil("the note, wrapped", timeout: .seconds(10)) { $0.contains("Say the request again.)") }
        #expect(screen.split(separator: "\n").contains("was done. Say the request again.)"), "\(screen)")
    }

    @Test("An answer to a question asked before the host restarted hears, in words, that nothing was done")
    func answerAfterARestart() throws {
        let (host, terminal) = try Self.monkeyChat()
        defer { host.stop(); host.removeState() }
        try Self.askToMessageCoco(terminal)
        host.stop()
        try host.startHost()
        try host.waitFor(["MonkeyChat"])
        try terminal.typeLine("yes")
        let screen = try terminal.waitUntil("an answer to the line", timeout: .seconds(20)) {
            $0.contains("intentd was restarted") || $0.contains("(unknownSession)") || $0.contains("intentd: the connection")
        }
        #expect(screen.contains("I no longer know what we were talking about (intentd was restarted), so nothing was done."), "\(screen)")
        #expect(!screen.contains("unknownSession"), "\(screen)")

        // With intentd stopped the chat says so and stays: it did not leave for the shell.
        host.stop()
        try terminal.typeLine("Send a message to Coco on MonkeyChat")
        let stopped = try terminal.waitFor("intentd is not running")
        #expect(!stopped.contains("TERMINAL-END-"), "\(stopped)")
        try terminal.typeLine("/lock")
        try terminal.waitUntil("a second answer that it is not running", timeout: .seconds(10)) {
            $0.components(separatedBy: "intentd is not running").count > 2
        }
        #expect(try !terminal.screen().contains("TERMINAL-END-"))
    }

    @Test("A long pasted line outside ASCII is taken whole, and one past what a line holds is dropped with a note: the chat goes on (libedit's readline layer corrupted its heap and crashed)")
    func longPastedLines() throws {
        let (host, terminal) = try Self.monkeyChat()
        defer { host.stop(); host.removeState() }
        let answers = { (screen: String) in screen.split(separator: "\n").filter { $0.hasPrefix("intentd: ") || $0.hasPrefix("MonkeyChat: ") }.count }
        // 2,550 characters, 3,300 bytes: the readline layer crashed from about 2,200 "é".
        try terminal.typeLine(String(repeating: "Bring the 🐒 café ", count: 150))
        try terminal.waitUntil("the answer to line 1", timeout: .seconds(20)) { answers($0) > 0 || $0.contains("TERMINAL-END-") }
        #expect(try !terminal.screen().contains("(A line holds at most"))
        try terminal.type(String(repeating: "plain ascii words ", count: 250))
        try terminal.waitFor("(A line holds at most 4,000 characters")
        try terminal.press("Enter")
        try terminal.waitUntil("the answer to line 2", timeout: .seconds(20)) { answers($0) > 1 || $0.contains("TERMINAL-END-") }
        // Keys that add much at once (yanking killed text back, a count) pass the limit too.
        try terminal.type(String(repeating: "é", count: 1_500))
        try terminal.press("C-a", "C-k", "C-y", "C-y", "C-y", "Escape", "6", "0", "0", "x", "Enter")
        try terminal.waitUntil("the answer to line 3", timeout: .seconds(20)) { answers($0) > 2 || $0.contains("TERMINAL-END-") }
        let screen = try terminal.screen()
        #expect(!screen.contains("TERMINAL-END-") && !screen.contains("crashed") && !screen.contains("malloc"), "\(screen)")
        try terminal.press("C-d")
        #expect(try terminal.waitFor("TERMINAL-END-").contains("TERMINAL-END-0"))
    }

    @Test("Pasted lines are one line, sent when Enter is pressed, not line by line as they arrive; keys with escapes still edit")
    func pastedLinesAreOneLine() throws {
        let (host, terminal) = try Self.monkeyChat()
        defer { host.stop(); host.removeState() }
        #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0)
        try terminal.paste("text kiki hey\nare you coming tonight?\n")
        try terminal.waitFor("> text kiki hey are you coming tonight?")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try !terminal.screen().contains("MonkeyChat:"), "nothing is sent before Enter")
        // An arrow key (an escape and more) after a paste is still a key: the line is edited.
        try terminal.press("Left", "BSpace", "Enter")
        try terminal.waitFor("MonkeyChat: OK, I sent “hey are you coming tonight” to Kiki.")
        // Ctrl-C right after a paste drops the line at once (the key reader does not wait
        // for another key after the paste's end mark).
        try terminal.paste("hello world")
        try terminal.waitFor("> hello world")
        try terminal.press("C-c")
        try terminal.waitFor("> hello world^C", timeout: .seconds(5))
        // A paste past what a line holds drops that line, and the rest of the paste is still
        // one line, not sent line by line.
        try terminal.paste(String(repeating: "word ", count: 820) + "\nwhat can you do\nsecond line")
        try terminal.waitFor("(A line holds at most 4,000 characters")
        try terminal.waitFor("what can you do second line")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try !terminal.screen().contains("Here is what you can ask"), "nothing of the paste is sent before Enter")
    }

    @Test("A yes typed ahead of the question it would answer is dropped, and the user told so: the ride is booked only by a yes typed after it")
    func yesTypedAheadAnswersNothing() throws {
        let host = try TestHost(["--extensions", "rides", "--pass-env", "INTENTD_RIDE_SECONDS_PER_STEP"], environment: ["INTENTD_RIDE_SECONDS_PER_STEP": "1000"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Zippy"])
        #expect(try host.ctl("authorize", "Zippy", "allow").status == 0)
        let terminal = try Self.chat(host, locale: "C.UTF-8")
        // Both lines reach the terminal at once, as lines pasted without paste marks do.
        try terminal.type("book a zippy x to golden gate park\ryes\r")
        try terminal.waitFor("Request a Zippy X from Current Location to Golden Gate Park?")
        try terminal.waitFor("(What was typed before this question was dropped: answer it now.)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try !terminal.screen().contains("is booked"), "the yes typed ahead booked the ride")
        try terminal.typeLine("yes")
        try terminal.waitFor("Your Zippy X to Golden Gate Park is booked.")
    }

    @Test("Killing the whole line (Ctrl-A, Ctrl-K) empties it and the chat goes on; Ctrl-Y brings it back")
    func killingTheLineKeepsTheChat() throws {
        let (host, terminal) = try Self.monkeyChat()
        defer { host.stop(); host.removeState() }
        try terminal.type("What can you do?")
        try terminal.press("C-a", "C-k")
        try terminal.waitUntil("an empty line") { $0.split(separator: "\n").last == ">" }
        try terminal.press("C-y", "Enter")
        try terminal.waitFor("Here is what you can ask")
        // A tab is a character of the line, as pasted text has them.
        try terminal.type("What can")
        try terminal.press("Tab")
        try terminal.typeLine("you do?")
        let screen = try terminal.waitUntil("a second answer") { $0.components(separatedBy: "Here is what you can ask").count > 2 }
        #expect(!screen.contains("TERMINAL-END-"), "\(screen)")
    }

    @Test("A chat whose terminal closes with a line half typed ends, rather than spinning")
    func terminalClosingEndsTheChat() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        // Hangups ignored, as under nohup: only the closed terminal says the input ended.
        let terminal = try TerminalSession("trap '' HUP; exec \(Products.url("intentctl").path) chat --state-dir \(host.state.path)")
        try terminal.waitFor("Say what you need")
        try terminal.type("abc")
        try terminal.waitFor("> abc")
        terminal.close()
        /// The chat processes of this host's state directory.
        func chats() -> [Int32] { ProcessTable.pids(commandLineContaining: "chat\0--state-dir\0\(host.state.path)") }
        let deadline = ContinuousClock.now + .seconds(10)
        while !chats().isEmpty, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(chats().isEmpty, "the chat went on after its terminal closed: \(chats())")
    }

    @Test("A chat stopped by SIGTERM while a line is typed gives the terminal back as it found it: lines, echo and unmarked pastes")
    func stoppedChatRestoresTheTerminal() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        // After the chat, the shell says how it ended, whether the terminal reads whole
        // lines again, and shows what is pasted next byte by byte (escapes as "^[").
        let terminal = try TerminalSession(
            "\(Products.url("intentctl").path) chat --state-dir \(host.state.path); echo CHAT-ENDED-$?; stty -a | grep -o -- '-*icanon'; cat -v")
        try terminal.waitFor("Say what you need")
        try terminal.type("abc")
        try terminal.waitFor("> abc")
        let chat = try #require(ProcessTable.pids(commandLineContaining: "chat\0--state-dir\0\(host.state.path)").first)
        kill(chat, SIGTERM)
        let screen = try terminal.waitFor("icanon")
        #expect(screen.contains("CHAT-ENDED-143"), "\(screen)")
        #expect(!screen.contains("-icanon"), "the terminal was left reading key by key: \(screen)")
        try terminal.paste("pasted here\n")
        let after = try terminal.waitUntil("the paste echoed and shown by cat") { $0.components(separatedBy: "pasted here").count > 2 }
        #expect(!after.contains("^[[200~"), "the terminal still marks pastes: \(after)")
    }

    @Test("A line being typed is laid out again when the terminal is resized, and editing it goes on where the cursor shows")
    func resizeWhileTyping() throws {
        let (host, terminal) = try Self.monkeyChat()
        defer { host.stop(); host.removeState() }
        let text = "add mop the kitchen floor, clean the bathroom, fold the laundry, change the bedsheets, water the plants"
        try terminal.type(text)
        try terminal.waitFor("water the plants")
        try terminal.resize(columns: 70)
        try terminal.press("C-a")
        try terminal.type("Z")
        // Drawn anew at 70 columns: the row under the prompt starts where 68 characters end.
        let screen = try terminal.waitUntil("the line laid out at the new width") { $0.hasSuffix(String(("Z" + text).dropFirst(68))) }
        #expect(screen.contains("> Z" + String(text.prefix(67))), "\(screen)")
    }

    @Test("History lasts from one chat to the next, also from the file an earlier version wrote")
    func historyLastsAcrossChats() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        // libedit's own format, with its escapes ("é" is two bytes past ASCII, "\M-C\M-)"),
        // and a line of 1,024 bytes, which libedit's own reader wrote past its buffer for.
        try ("_HiStOrY_V2_\n" + String(repeating: "x", count: 1_024) + "\ncaf\\M-C\\M-)\\040au\\040lait\nwhat\\040can\\040you\\040do?\n").write(
            to: host.state.appendingPathComponent("chat-history"), atomically: true, encoding: .utf8)
        var terminal = try Self.chat(host, locale: "C.UTF-8")
        try terminal.press("Up")
        try terminal.waitUntil("the line from the old file") { $0.split(separator: "\n").last == "> what can you do?" }
        try terminal.press("C-c")
        // Typed on once the line is dropped: keys that reach the chat before its Ctrl-C
        // handler ran would still join the old line (a busy machine did that once).
        try terminal.waitUntil("the line dropped") { $0.contains("> what can you do?^C") }
        try terminal.typeLine("Bring the 🐒 café")
        try terminal.waitFor("intentd:")
        try terminal.press("C-d")
        try terminal.waitFor("TERMINAL-END-")

        terminal = try Self.chat(host, locale: "C.UTF-8")
        try terminal.press("Up")
        try terminal.waitUntil("the last line of the chat before") { $0.split(separator: "\n").last == "> Bring the 🐒 café" }
        try terminal.press("Up")
        try terminal.waitUntil("the line before it") { $0.split(separator: "\n").last == "> what can you do?" }
        try terminal.press("Up")
        try terminal.waitUntil("the one before, outside ASCII") { $0.split(separator: "\n").last == "> café au lait" }
    }

    @Test("Ctrl-D at a question leaves saying nothing was done")
    func leavingAtAQuestion() throws {
        let (host, terminal) = try Self.monkeyChat()
        defer { host.stop(); host.removeState() }
        try Self.askToMessageCoco(terminal)
        try terminal.press("C-d")
        let screen = try terminal.waitFor("TERMINAL-END-")
        #expect(screen.contains("(Left while intentd waited for an answer: nothing was done.)") && screen.contains("TERMINAL-END-0"), "\(screen)")
    }

    @Test("What the host says is broken at spaces to the terminal's width, not in the middle of words")
    func longAnswersAreWrappedAtSpaces() throws {
        let host = try TestHost(["--extensions", "messaging,lists,rides"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat", "List-o-Mat", "Zippy"])
        let terminal = try TerminalSession(
            "env LANG=C.UTF-8 \(Products.url("intentctl").path) chat --state-dir \(host.state.path)", columns: 70)
        try terminal.waitFor("Say what you need")
        try terminal.typeLine("What can you do?")
        let screen = try terminal.waitFor("Zippy:")
        let lines = screen.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count < 70 }, "a line the terminal broke:\n\(screen)")
        // Every word of the answer is whole on one line.
        #expect(screen.contains("olives"), "\(screen)")
    }

    @Test("Emoji take two columns when what the host says is broken into lines: no word is cut by the terminal")
    func emojiAreWrappedByTheirWidth() throws {
        let host = try TestHost(["--extensions", "messaging"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        _ = try host.ctl(["authorize", "MonkeyChat", "allow"])
        let terminal = try TerminalSession(
            "env LANG=C.UTF-8 \(Products.url("intentctl").path) chat --state-dir \(host.state.path)", columns: 60)
        try terminal.waitFor("Say what you need")
        // Counted as one column each, a line of these runs past the edge in the middle of a word.
        let words = (1...12).map { "w\($0)🍌🍌🍌🍌🍌" }
        try terminal.typeLine("tell Coco on MonkeyChat " + words.joined(separator: " "))
        let screen = try terminal.waitFor("OK, I sent")
        let answer = String(screen[(screen.range(of: "MonkeyChat:")?.lowerBound ?? screen.startIndex)...])
        let shown = Set(answer.split(whereSeparator: \.isWhitespace).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\u{201C}\u{201D}")) })
        for word in words { #expect(shown.contains(word), "\(word) was cut:\n\(screen)") }
    }

    @Test("A ride update that arrives while the user types appears above the line being edited, which is drawn again")
    func updateWhileTyping() throws {
        let host = try TestHost(
            ["--extensions", "rides", "--pass-env", "INTENTD_RIDE_SECONDS_PER_STEP"], environment: ["INTENTD_RIDE_SECONDS_PER_STEP": "1"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["Zippy"])
        _ = try host.ctl("authorize", "Zippy", "allow")
        let terminal = try Self.chat(host, locale: "C.UTF-8")

        try terminal.typeLine("Get me a Zippy to the Ferry Building")
        try terminal.waitFor("It can pick you up")
        try terminal.typeLine("yes")
        try terminal.waitFor("is booked")
        func updates(_ screen: String) -> Int { screen.components(separatedBy: "Zippy · ride:").count - 1 }

        // A line that wraps over several rows is cleared whole before an update and drawn
        // again below it: no row of it is left behind.
        let shown = updates(try terminal.screen())
        try terminal.type("wrapped " + String(repeating: "please tell me ", count: 12))
        let wrapped = try terminal.waitUntil("an update while a wrapped line is typed", timeout: .seconds(20)) {
            updates($0) > shown && $0.hasSuffix("please tell me")
        }
        #expect(wrapped.components(separatedBy: "> wrapped please").count == 2, "a row of the edited line was left behind:\n\(wrapped)")
        try terminal.press("C-a", "C-k")
        let before = updates(try terminal.screen())

        try terminal.type("where is my ri")
        // The update stands on a line of its own; the half-typed line is drawn again below it
        // (a moment after the update: the screen is read once both are there).
        let screen = try terminal.waitUntil("an update while typing, and the edited line drawn again below it", timeout: .seconds(20)) {
            updates($0) > before && $0.split(separator: "\n").last == "> where is my ri"
        }
        let lines = screen.split(separator: "\n").map(String.init)
        #expect(lines.dropLast().last?.hasPrefix("Zippy · ride: Zippy Pool to Ferry Building: ") == true, "\(screen)")
        #expect(!lines.contains { $0.contains("where is my") && $0.contains("Zippy · ride:") }, "an update was written into the edited line:\n\(screen)")

        // What the user goes on typing completes the same line.
        try terminal.typeLine("de")
        try terminal.waitFor("Zippy: Your Zippy Pool to Ferry Building")

        // Each update is shown once: the car moving, or a rating given, changes the update
        // but not its words.
        try terminal.waitFor("Zippy · ride: Zippy Pool to Ferry Building: arrived", timeout: .seconds(30))
        _ = try host.ctl("send", "Zippy", "SendRideFeedback", "rating=5")
        Thread.sleep(forTimeInterval: 2)
        let rideLines = try terminal.lines().filter { $0.hasPrefix("Zippy · ride:") }
        #expect(rideLines.count == Set(rideLines).count, "an update was shown twice:\n\(rideLines.joined(separator: "\n"))")

    }

    @Test("A request whose answer is lost while intentd is paused is asked again with its key as it comes back, and done once")
    func lostAnswerIsAskedAgainOnce() throws {
        let (host, terminal) = try Self.monkeyChat()
        defer { terminal.close(); host.stop(); host.removeState() }
        #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0)
        let pid = try #require(host.process?.processIdentifier)
        kill(pid, SIGSTOP)
        try terminal.typeLine("on MonkeyChat tell Coco paused hello")
        try terminal.waitFor("Asking again as it comes back", timeout: .seconds(20))
        kill(pid, SIGCONT)
        try terminal.waitFor("OK, I sent “paused hello” to Coco.", timeout: .seconds(40))
        let found = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=paused hello", "--json")
        #expect(found.json?["response"]?["response"]?["messages"]?.arrayValue?.count == 1, "sent once: \(found.stdout)")
    }

    @Test("A request whose app gave no usable answer in time is said to be unknown; typed again, it keeps its key and is done once")
    func unknownOutcomeTypedAgainIsDoneOnce() throws {
        let (host, terminal) = try Self.monkeyChat(["--request-timeout", "1500"])
        defer { terminal.close(); host.stop(); host.removeState() }
        #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0)
        // MonkeyChat's store held by another writer: its handle cannot commit before its deadline.
        let store = host.state.appendingPathComponent("sandboxes/com.monkeychat.intents/monkeychat.sqlite").path
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", "import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10); c.execute('BEGIN EXCLUSIVE'); print('held', flush=True); time.sleep(4)", store]
        let said = Pipe()
        holder.standardOutput = said
        try holder.run()
        _ = said.fileHandleForReading.availableData
        try terminal.typeLine("on MonkeyChat tell Coco held up")
        try terminal.waitFor("Ask me again to find out", timeout: .seconds(20))
        holder.waitUntilExit()
        try terminal.typeLine("on MonkeyChat tell Coco held up")
        try terminal.waitFor("OK, I sent “held up” to Coco.", timeout: .seconds(20))
        let found = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=held up", "--json")
        #expect(found.json?["response"]?["response"]?["messages"]?.arrayValue?.count == 1, "sent once: \(found.stdout)")
        // Both handles went with one key (the host writes each down before it goes).
        let journal = try String(contentsOf: host.state.appendingPathComponent("handles.jsonl"), encoding: .utf8)
        let keys = journal.split(separator: "\n").filter { $0.contains("held up") }.compactMap { line in
            (try? JSON.decode(JSONValue.self, from: Array(line.utf8)))?["key"]?.stringValue
        }
        #expect(keys.count == 2 && Set(keys).count == 1, "\(journal)")
    }

    @Test("An answer lost while intentd is paused: the request is asked again from its start with its key and is the one done, once; a chat closed while asking again hands its key to the next chat")
    func lostAnswerStartsOverWithItsKey() throws {
        let (host, terminal) = try Self.monkeyChat()
        defer { terminal.close(); host.stop(); host.removeState() }
        #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0)
        let pid = try #require(host.process?.processIdentifier)
        try terminal.typeLine("send a message to kiki")
        try terminal.waitFor("What do you want to say to Kiki?")
        kill(pid, SIGSTOP)
        try terminal.typeLine("paused answer")
        try terminal.waitFor("Asking again from the start", timeout: .seconds(20))
        kill(pid, SIGCONT)
        // The paused host took the answer as it resumed: the request said again with its key
        // is that one, told with what it was done with.
        try terminal.waitFor("OK, I sent “paused answer” to Kiki.", timeout: .seconds(20))
        let answered = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=paused answer", "--json")
        #expect(answered.json?["response"]?["response"]?["messages"]?.arrayValue?.count == 1, "sent once: \(answered.stdout)")

        // A chat closed while it asks again (its terminal gone); the next chat says the same
        // words with that key.
        let leaving = try Self.chat(host, locale: "C.UTF-8")
        kill(pid, SIGSTOP)
        try leaving.typeLine("tell kiki left behind")
        try leaving.waitFor("Asking again", timeout: .seconds(20))
        leaving.close()
        kill(pid, SIGCONT)
        let next = try Self.chat(host, locale: "C.UTF-8")
        defer { next.close() }
        try next.typeLine("Tell Kiki   left behind")
        try next.waitFor("OK, I sent “left behind” to Kiki.")
        let left = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=left behind", "--json")
        #expect(left.json?["response"]?["response"]?["messages"]?.arrayValue?.count == 1, "sent once: \(left.stdout)")
    }
}

