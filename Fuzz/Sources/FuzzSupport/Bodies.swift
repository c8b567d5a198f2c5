import IntentProtocol

/// Reads a JSON body as each type that travels in one, the way its receiver does, and
/// checks that what was read writes back to the same value.
public enum Bodies {
    /// What a message body is read as, by who receives it.
    public enum Kind: CaseIterable, Sendable {
        case registration, registered, stageRequest, submission, reply, update, vocabulary
        case authorization, utterance, outcome, hostStatus, lockState, turn
    }

    /// Reads `bytes` as a body of `kind`; errors are expected, crashes and broken round trips are not.
    public static func read(_ bytes: [UInt8], as kind: Kind) {
        switch kind {
        case .registration:
            if let registration = try? JSON.decode(Registration.self, from: bytes) {
                _ = registration.normalized()
                roundTrip(registration)
            }
        case .registered: roundTrip(try? JSON.decode(Registered.self, from: bytes))
        case .stageRequest: stageRequest(bytes)
        case .submission: roundTrip(try? JSON.decode(Submission.self, from: bytes))
        case .reply:
            // The host reads a reply as JSON first, then as what the stage expects.
            guard let json = try? JSONValue.parse(bytes) else { return }
            roundTrip(try? ResolveReply(json: json))
            roundTrip(try? IntentResponse(json: json))
            roundTrip(try? ErrorReply(json: json))
        case .update: roundTrip(try? JSON.decode(Update.self, from: bytes))
        case .vocabulary: roundTrip(try? JSON.decode(VocabularyRequest.self, from: bytes))
        case .authorization: roundTrip(try? JSON.decode(AuthorizationRequest.self, from: bytes))
        case .utterance: roundTrip(try? JSON.decode(Utterance.self, from: bytes))
        case .outcome: roundTrip(try? JSON.decode(Outcome.self, from: bytes))
        case .hostStatus: roundTrip(try? JSON.decode(HostStatus.self, from: bytes))
        case .lockState: roundTrip(try? JSON.decode(LockState.self, from: bytes))
        case .turn: roundTrip(try? JSON.decode(Turn.self, from: bytes))
        }
    }

    /// A REQUEST body read both ways: whole (the host's `StageRequest`) and lazily (an
    /// extension's `LazyStageRequest`). Both must accept the same bodies and agree on them.
    static func stageRequest(_ bytes: [UInt8]) {
        let whole = try? JSON.decode(StageRequest.self, from: bytes)
        let lazy = try? LazyStageRequest(bytes)
        Fuzzing.check((whole == nil) == (lazy == nil), "StageRequest read \(whole == nil ? "fails" : "succeeds"), LazyStageRequest \(lazy == nil ? "fails" : "succeeds")")
        guard let whole, let lazy else { return }
        Fuzzing.check(
            whole.sessionId == lazy.sessionId && whole.language == lazy.language && whole.intent == lazy.intent
                && whole.parameter == lazy.parameter && whole.required == lazy.required && whole.parameters == lazy.parameters(),
            "StageRequest and LazyStageRequest read different requests")
        roundTrip(whole)
    }

    /// Writing a value read from a body and reading it again gives the same value.
    static func roundTrip<T: Codable & Equatable>(_ value: T?) {
        guard let value else { return }
        guard let bytes = try? JSON.encode(value) else { return Fuzzing.check(false, "\(T.self) read but cannot be written") }
        let again: T
        do { again = try JSON.decode(T.self, from: bytes) } catch {
            return Fuzzing.check(false, "\(T.self) written as \(String(decoding: bytes, as: UTF8.self)) cannot be read back: \(error)")
        }
        Fuzzing.check(again == value, "\(T.self) changed on the way through \(String(decoding: bytes, as: UTF8.self))")
    }
}
