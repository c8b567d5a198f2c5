import IntentProtocol

/// What a lifecycle does where the user has a say: a SUBMIT records it in the outcome
/// (`RecordingAsker`), a conversation asks the user. `LifecycleDriver.drive` is the one
/// loop for both.
protocol LifecycleAsker {
    /// Why the asker ends a lifecycle before it is done: `Never` for one that never does.
    associatedtype Stop: Error

    /// A resolution result of `parameter` that is not settled: the value to resolve it
    /// again with, or nil to leave the result in the outcome. `said` is the value (or the
    /// list's element) the result is about; `asked` counts the values given for it so far.
    mutating func value(
        for result: ResolutionResult, of parameter: ParameterDefinition, _ run: Run, said: JSONValue?, asked: Int
    ) async throws(Stop) -> JSONValue?

    /// A stage refused because the device is locked (`refused`, the outcome if the run ends
    /// here): whether to send the same stage again. `asked` counts the times so far.
    mutating func unlock(_ refused: Outcome, asked: Int) async throws(Stop) -> Bool

    /// Whether to handle an intent that requires the user's confirmation, with the app's
    /// confirm response in hand.
    mutating func confirm(_ run: Run, _ response: IntentResponse) async throws(Stop) -> Bool
}

/// The asker of a SUBMIT: nobody to ask. What needs the user ends the lifecycle with
/// `needsUserInput`; the Submission's `confirmed` is the user's confirmation.
struct RecordingAsker: LifecycleAsker {
    typealias Stop = Never

    func value(
        for result: ResolutionResult, of parameter: ParameterDefinition, _ run: Run, said: JSONValue?, asked: Int
    ) async -> JSONValue? { nil }

    func unlock(_ refused: Outcome, asked: Int) async -> Bool { false }

    func confirm(_ run: Run, _ response: IntentResponse) async -> Bool { run.confirmed }
}
