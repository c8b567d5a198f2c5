import ArgumentParser
import Foundation
import IntentClient
import IntentProtocol
import ZeroMQ

/// `intentctl chat`
struct Chat: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Talk to the host in words, one line at a time.",
        discussion: """
            Type a request ("Send a message to Kiki on MonkeyChat"); answer the host's \
            questions the same way. Each answer shows the app's name, and updates apps push \
            (a ride approaching) appear as they come. Line editing and history (kept in \
            STATE/chat-history) when on a terminal; a line holds at most 4,000 characters. A \
            question waits for its answer as long as the host says (30 s by default), and \
            the chat says when that has passed. Ctrl-C drops the line being typed; on an \
            empty line at a question it calls the request off. /lock and /unlock lock the \
            device, /quit or Ctrl-D ends.
            """)

    @Option(help: "The user's language (default: the host's).")
    var language: String?

    @Flag(help: "Do not show updates pushed by apps.")
    var noUpdates = false

    @OptionGroup var connection: Connection

    func run() throws {
        let client = try connection.client()
        let state = StateDirectory(explicit: connection.stateDirectory)
        let editor = LineEditor(historyFile: state.url.appendingPathComponent("chat-history").path)
        if !noUpdates { UpdatePrinter.start(endpoint: state.updatesEndpoint, security: try connection.security(), show: editor.show) }
        if editor.interactive {
            editor.show("Say what you need, or “What can you do?”. /unlock, /lock, /quit; Ctrl-D leaves.")
        }
        var session: String?
        var deadline: LineEditor.Deadline?
        /// What the open question waits for: a yes or no is answered only by what is typed after it.
        var expecting: Turn.Expectation?

        /// How long `turn`'s question waits, from now.
        func waits(_ turn: Turn) -> LineEditor.Deadline? {
            // A host's word, kept to what a clock can count: at most a day.
            turn.answerWithinSeconds.map { min(max($0, 0), 86_400) }.map { seconds in
                LineEditor.Deadline(
                    at: .now + .seconds(seconds),
                    note: "(No answer within \(Self.describe(seconds)): intentd stopped waiting, so nothing was done. Say the request again.)",
                    prompt: "> ", renewWithin: .seconds(min(10, seconds / 2)))
            }
        }

        /// While the user types an answer: asks the host to wait longer, and how long it now waits.
        func keepWaiting() -> LineEditor.Deadline? {
            guard let open = session, let turn = try? client.say(Utterance(text: "", sessionId: open, typing: true)), turn.end == nil else {
                return nil
            }
            // Kept for the next read too (after "/unlock", or an empty line).
            deadline = waits(turn)
            return deadline
        }

        /// The requests' keys: one whose outcome is unknown keeps its key when said again.
        var keys = ChatKeys(state: state)

        /// Says `utterance` and shows the host's turn; keeps the conversation open while it asks.
        func answer(_ utterance: Utterance) {
            var utterance = utterance
            if utterance.sessionId == nil { utterance.idempotencyKey = keys.start(utterance.text, to: client.endpoint) }
            do {
                show(try client.say(utterance))
            } catch ClientError.host(ErrorCode.unknownSession.rawValue, _) {
                // The host was restarted (or the session is gone): say it in the user's words.
                editor.show("intentd: I no longer know what we were talking about (intentd was restarted), so nothing was done. Say the request again.")
                session = nil
            } catch ClientError.host(let code, let message) {
                editor.show("intentd: \(message) (\(code))")
                session = nil
            } catch let error as ClientError where error.mayHaveBeenDone {
                // The answer was lost on the way: what was asked may still be done. The request
                // is said again from its start with its key (an answer is not: the conversation
                // may have moved on), and its key kept until it ends.
                session = nil
                guard let request = keys.lost() else { return }
                let from = utterance.sessionId == nil ? "" : " from the start"
                editor.show("intentctl: intentd \(ClientError.lost). Asking again\(from) as it comes back (done at most once)…")
                if let turn = Self.sayAgain(Utterance(text: request.text, language: language, idempotencyKey: request.key), client) {
                    show(turn)
                } else {
                    editor.show("intentctl: intentd still does not answer, so whether that was done is unknown. Say it again later: it is done at most once.")
                }
            } catch {
                // intentd stopped or went away: say so and go on (a conversation it held is gone).
                editor.show("intentctl: \(error)")
                session = nil
            }
        }

        /// Shows the host's turn, and keeps its conversation if it asks something.
        func show(_ turn: Turn) {
            editor.show(Transcript.Line(turn).shown)
            session = turn.end == nil ? turn.sessionId : nil
            expecting = session == nil ? nil : turn.expecting
            deadline = waits(turn)
            if let outcome = turn.outcome { keys.outcome(outcome.code) }
        }

        while true {
            let typed: String
            switch editor.read(
                prompt: session == nil ? "> " : "… ", deadline: session == nil ? nil : deadline, interruptible: session != nil,
                freshOnly: session != nil && expecting == .yesNo, keepWaiting: keepWaiting)
            {
            case .end:
                // Leaving with a question open: what waited for its answer is not done.
                if session != nil { editor.show("(Left while intentd waited for an answer: nothing was done.)") }
                return
            case .interrupted:
                // Ctrl-C on an empty line at a question calls the request off.
                if let open = session { answer(Utterance(text: "", sessionId: open, cancel: true)) }
                continue
            case .line(let line): typed = line
            case .lateLine(let line):
                // The host has ended the conversation: the line starts a new one.
                typed = line
                session = nil
            }
            let line = typed.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            editor.remember(line)
            switch line {
            case "/quit", "/exit": return
            case "/lock", "/unlock":
                do {
                    let locked = try client.setLocked(line == "/lock").locked
                    editor.show(locked ? "(device locked)" : "(device unlocked)")
                } catch {
                    // Not changed: say why and go on, as for a request.
                    editor.show("intentctl: \(error)")
                }
                continue
            default: break
            }
            answer(Utterance(text: line, sessionId: session, language: language))
        }
    }
}

extension Chat {
    /// How long a new request whose answer was lost is said again, while intentd does not answer.
    static let retryFor = Duration.seconds(30)

    /// `utterance` (a new request, with its key) said again once a second until intentd
    /// answers, for at most `retryFor`: its turn, or nil if it never answered.
    static func sayAgain(_ utterance: Utterance, _ client: IntentClient) -> Turn? {
        let deadline = ContinuousClock.now + retryFor
        while ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 1)
            do { return try client.say(utterance) } catch let error as ClientError {
                switch error {
                case .notRunning, .notAnswering, .hostLost, .timeout: continue
                default: return nil
                }
            } catch {
                return nil
            }
        }
        return nil
    }

    /// "30 s", "2 min".
    static func describe(_ seconds: Double) -> String {
        seconds >= 120 && seconds.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(seconds / 60)) min" : "\(Int(seconds.rounded())) s"
    }
}

/// Prints pushed updates from a thread of its own while the conversation goes on; an
/// update that reads as the last one of its app and topic is not shown again (a ride's
/// car moving on the map, or a rating given, changes its update but not its words).
enum UpdatePrinter {
    /// How many apps' and topics' last lines are remembered; past it, all are forgotten.
    static let remembered = 256

    static func start(endpoint: String, security: ConnectionSecurity, show: @escaping @Sendable (String) -> Void) {
        if endpoint.hasPrefix("ipc://"), !FileManager.default.fileExists(atPath: String(endpoint.dropFirst(6))) { return }
        let thread = Thread {
            guard let socket = try? Socket(try Context(), .sub), (try? socket.subscribe([])) != nil,
                (try? security.apply(to: socket, endpoint: endpoint)) != nil, (try? socket.connect(endpoint)) != nil
            else { return }
            var last: [String: String] = [:]
            while true {
                guard let frames = try? socket.receiveFrames(wait: true), frames.count == 2,
                    let update = try? JSON.decode(Update.self, from: frames[1].bytes)
                else { continue }
                let key = "\(update.app) · \(update.topic)"
                let line = "\(key): \(Watch.describe(update.payload))"
                guard last[key] != line else { continue }
                if last.count >= remembered { last.removeAll() }
                last[key] = line
                show(line)
            }
        }
        thread.start()
    }
}
