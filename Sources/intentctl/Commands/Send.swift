import ArgumentParser
import Foundation
import IntentClient
import IntentProtocol

/// `intentctl send APP INTENT name=value ...`
struct Send: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run one structured intent through resolve, confirm and handle.",
        discussion: """
            Parameters are name=value (text; the host converts it to the catalog's type) or \
            name:=JSON (a typed value). Repeat a name for a list:
              intentctl send MonkeyChat SendMessage recipients=Bobo content="send more bananas"
            Exit status: 0 done, 3 needs input, 4 refused, 5 failed, 6 outcome unknown (the \
            handle may or may not have been done, or no answer came in --timeout: send it \
            again with the --idempotency-key it printed, and it is done at most once).
            """)

    @Argument(help: "The app, by name or alternative name (MonkeyChat).")
    var app: String

    @Argument(help: "The intent (SendMessage, or INSendMessageIntent).")
    var intent: String

    @Argument(help: "Parameters: name=value or name:=JSON.")
    var parameters: [String] = []

    @Option(help: "The user's language.")
    var language = "en"

    @Flag(help: "The user has confirmed (for intents that need confirmation before handle).")
    var confirm = false

    @Option(help: ArgumentHelp(
        "The handle's idempotency key (1 to 128 letters, digits, '-', '_', '.', ':'): a handle sent again with the same key is done once.",
        valueName: "KEY"))
    var idempotencyKey: String?

    @Option(help: ArgumentHelp(
        "A W3C traceparent for this request (00-TRACEID-PARENTID-FLAGS); the host makes one when absent. See intentctl logs --trace.",
        valueName: "TRACEPARENT"))
    var traceparent: String?

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @OptionGroup var connection: Connection

    func run() throws {
        let values = try Self.parse(parameters)
        if let idempotencyKey, let problem = RequestAnnotation.problem(withKey: idempotencyKey) {
            throw ValidationError("--idempotency-key: \(problem)")
        }
        if let traceparent, TraceParent.valid(traceparent) == nil {
            throw ValidationError("--traceparent: \"\(PeerNames.loggable(traceparent))\" is not a W3C traceparent (00-32 hex-16 hex-2 hex)")
        }
        var submission = Submission(parameters: values, language: language, confirmed: confirm ? true : nil, idempotencyKey: idempotencyKey)
        submission.traceparent = traceparent
        let outcome: Outcome
        do { outcome = try connection.client().submit(app: app, intent: intent, submission) } catch let error as ClientError {
            // No answer came to a request that may have been done: a script reading JSON gets
            // the key to send it again with, as an outcome (the error still goes to stderr).
            if json, let key = error.unsettledKey {
                var unknown = Outcome(
                    outcome: .failure, code: ErrorCode.outcomeUnknown.rawValue, app: app, intent: intent, sessionId: "", message: "\(error)")
                unknown.idempotencyKey = key
                print(JSON.pretty(unknown))
            }
            throw error
        }
        print(json ? JSON.pretty(outcome) : OutcomeText(outcome).description)
        let status = Exit.status(for: outcome)
        if status != 0 { throw ExitCode(status) }
    }

    /// Parses `name=value` and `name:=JSON`; a repeated name makes a list.
    static func parse(_ arguments: [String]) throws -> [String: JSONValue] {
        var values: [String: [JSONValue]] = [:]
        var order: [String] = []
        for argument in arguments {
            let value: JSONValue
            let name: String
            if let range = argument.range(of: ":=") {
                name = String(argument[..<range.lowerBound])
                let text = String(argument[range.upperBound...])
                do { value = try JSON.decode(JSONValue.self, from: Array(text.utf8)) } catch {
                    throw ValidationError("\(name):= needs a JSON value: \(error)")
                }
            } else if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = .string(String(argument[argument.index(after: equals)...]))
            } else {
                throw ValidationError("parameter \"\(argument)\" must be name=value or name:=JSON")
            }
            guard !name.isEmpty else { throw ValidationError("parameter \"\(argument)\" has no name") }
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(value)
        }
        return values.mapValues { $0.count == 1 ? $0[0] : .array($0) }
    }
}
