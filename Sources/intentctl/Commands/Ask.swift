import ArgumentParser
import Foundation
import IntentClient
import IntentProtocol

/// `intentctl ask "TEXT" --answer ...`
struct Ask: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say one request in words, answering the host's questions from --answer.",
        discussion: """
            The host understands the request, asks what it needs (a value, a choice, yes or \
            no), and the answers are given in order. Exits like send; 3 if the host is still \
            waiting when the answers run out, 6 if the app stopped answering its handle (the \
            outcome is unknown: ask again with the --idempotency-key of the JSON outcome). \
            Answers left when the conversation ends are named on stderr.
              intentctl ask "Send a message to Kiki on MonkeyChat" --answer "bring bananas"
            """)

    @Argument(help: "The request, as a person would type it.")
    var text: String

    @Option(name: .customLong("answer"), help: "An answer to the next question; repeat for each.")
    var answers: [String] = []

    @Option(help: "The user's language (default: the host's).")
    var language: String?

    @Option(help: ArgumentHelp(
        "The idempotency key of the handle the request leads to: asked again with the same key, it is done once.",
        valueName: "KEY"))
    var idempotencyKey: String?

    @Flag(help: "Print send's JSON object plus the transcript instead of text.")
    var json = false

    @OptionGroup var connection: Connection

    func run() throws {
        let client = try connection.client()
        var transcript = Transcript()
        transcript.user(text)
        if let idempotencyKey, let problem = RequestAnnotation.problem(withKey: idempotencyKey) {
            throw ValidationError("--idempotency-key: \(problem)")
        }
        // The key of the handle the conversation may lead to, so that an answer that never
        // comes (the host went away) names it: asked again with it, it is done at most once.
        let key = idempotencyKey ?? RequestAnnotation.makeKey()
        var turn = try client.say(Utterance(text: text, language: language, idempotencyKey: key))
        transcript.host(turn)
        var pending = answers[...]
        while turn.end == nil, let answer = pending.popFirst() {
            transcript.user(answer)
            do {
                turn = try client.say(Utterance(text: answer, sessionId: turn.sessionId, language: language))
            } catch let error as ClientError {
                throw error.keyed(key)
            }
            transcript.host(turn)
        }
        if json {
            print(JSON.pretty(transcript.json))
        } else {
            print(transcript.text)
        }
        // Answers meant for questions that never came: the script and the conversation
        // went different ways (an app already allowed asks no "Allow it?").
        if !pending.isEmpty {
            let unused = pending.map { "“\($0)”" }.joined(separator: ", ")
            FileHandle.standardError.write(Data("intentctl: the conversation ended before \(pending.count == 1 ? "this answer was" : "these answers were") used: \(unused)\n".utf8))
        }
        let status = Exit.status(for: transcript.outcome)
        if status != 0 { throw ExitCode(status) }
    }
}
