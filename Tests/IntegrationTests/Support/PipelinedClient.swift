import Foundation
import IntentProtocol
import ZeroMQ

/// Many requests in flight at once over one client connection, as a busy program sends
/// them; answers are matched to requests by id.
final class PipelinedClient {
    /// What the host answered one request.
    enum Answer: Equatable {
        case result([UInt8])
        case error(code: String, message: String)

        /// The RESULT body as an Outcome, for SUBMIT.
        var outcome: Outcome? {
            guard case .result(let body) = self else { return nil }
            return try? JSON.decode(Outcome.self, from: body)
        }

        /// The RESULT body as JSON, for STAGE.
        var json: JSONValue? {
            guard case .result(let body) = self else { return nil }
            return try? JSONValue.parse(body)
        }

        /// The code of an ERROR, or of a SUBMIT's Outcome.
        var code: String? {
            if case .error(let code, _) = self { return code }
            return outcome?.code
        }
    }

    private let peer: RawPeer
    private var next: UInt64 = 1

    init(_ host: TestHost) throws {
        peer = try RawPeer(endpoint: host.clientEndpoint, security: try host.clientSecurity())
    }

    /// Sends a SUBMIT; returns its request id.
    @discardableResult
    func submit(_ app: String, _ intent: String, _ submission: Submission) throws -> UInt64 {
        let id = take()
        try peer.send(.submit(RequestID(id), app: app, intent: intent, body: Body(try JSON.encode(submission))))
        return id
    }

    /// Sends a STAGE; returns its request id.
    @discardableResult
    func stage(_ app: String, _ intent: String, _ stage: Stage, _ request: StageRequest) throws -> UInt64 {
        let id = take()
        try peer.send(.stage(RequestID(id), app: app, intent: intent, stage, body: Body(try JSON.encode(request))))
        return id
    }

    /// Waits for the answers to `ids`, up to `limit`; returns those that came.
    func answers(to ids: [UInt64], within limit: Duration = .seconds(30)) throws -> [UInt64: Answer] {
        var answers: [UInt64: Answer] = [:]
        var poller = Poller()
        poller.add(peer.socket)
        let deadline = ContinuousClock.now + limit
        while answers.count < Set(ids).count, ContinuousClock.now < deadline {
            guard try poller.poll(timeout: 100) > 0 else { continue }
            while let frames = try peer.socket.receiveFrames(wait: false) {
                switch try? HostToClient(frames: frames[...]) {
                case .result(let id, let body)?: answers[id.value] = .result(body.bytes)
                case .error(let id, let code, let message)?: answers[id.value] = .error(code: code, message: message)
                default: break
                }
            }
        }
        return answers
    }

    /// Sends one request with `send` and waits for its answer.
    func ask(_ send: (PipelinedClient) throws -> UInt64) throws -> Answer? {
        let id = try send(self)
        return try answers(to: [id])[id]
    }

    private func take() -> UInt64 {
        defer { next += 1 }
        return next
    }
}
