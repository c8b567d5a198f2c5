import ArgumentParser
import IntentClient
import IntentProtocol

/// `intentctl authorize APP allow|deny|reset`
struct Authorize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Allow or deny an app's use of the assistant, or reset the decision (and the app's user vocabulary).",
        discussion: "A denied app's intents are refused and never reach its extension. Decisions survive restarts.")

    @Argument(help: "The app.") var app: String
    @Argument(help: "allow, deny or reset.") var decision: AuthorizationRequest.Decision
    @OptionGroup var connection: Connection

    func run() throws {
        let state = try connection.client().authorize(app: app, decision)
        print("\(state.app): \(StatusText.describe(state.status))")
    }
}

extension AuthorizationRequest.Decision: ExpressibleByArgument {}
