import IntentClient
import IntentProtocol

/// The checks of batched stages (wire.md, section 5b), for an extension that declared
/// them: a batch must answer exactly as the same stages sent one by one, and a batch's
/// handle must be done once under its key. The batches go as STAGE requests, whose bodies
/// the host passes on unread.
extension ConformanceRun {
    func batchChecks(_ client: IntentClient, declared: Bool) {
        guard declared else {
            printLine("SKIP batched stages: the extension does not declare them (Registration stages)")
            return
        }
        for name in subject.registration.intentsSupported {
            guard let intent = catalog.intent(name) else { continue }
            check("a batch of \(name)'s resolves and confirm answers exactly as its stages one by one", answer {
                try sameAsOneByOne(client, intent)
            })
            let handled = "a batch that handles \(name) does it once under its idempotency key"
            let problem = answer { try handledOnce(client, intent) }
            if problem == Self.stoppedBeforeHandle {
                printLine("SKIP \(handled): the batch stopped before its handle with the sample values")
            } else {
                check(handled, problem)
            }
        }
    }

    private static let stoppedBeforeHandle = "stopped before handle"

    private func request(_ intent: IntentDefinition, _ parameters: [String: JSONValue]) -> StageRequest {
        StageRequest(sessionId: "conformance-batch-\(intent.name)", language: "en", intent: intent.name, parameters: parameters)
    }

    private func batch(_ intent: IntentDefinition, handle: Bool) -> StageBatch {
        StageBatch(
            resolve: intent.parameters.map { StageBatch.Resolve(parameter: $0.name, required: $0.isRequired, list: $0.isList) },
            confirm: true, handle: handle)
    }

    /// Runs the stages one by one as the host would, then as one batch, and compares.
    private func sameAsOneByOne(_ client: IntentClient, _ intent: IntentDefinition) throws -> String? {
        let start = SampleValues.parameters(of: intent)
        var parameters = start
        var expected: [JSONValue] = []
        var settled = true
        for parameter in intent.parameters {
            var one = request(intent, parameters)
            one.parameter = parameter.name
            one.required = parameter.isRequired
            let reply = try JSONValue.parse(try client.stage(app: bundle, intent: intent.name, stage: .resolve, one))
            expected.append(reply)
            let entry = StageBatch.Resolve(parameter: parameter.name, required: parameter.isRequired, list: parameter.isList)
            guard let results = try? ResolveReply(json: reply).results,
                StageBatch.continues(after: results, for: entry, given: parameters[parameter.name])
            else {
                settled = false
                break
            }
            _ = ResolvedValues.apply(results, to: parameter.name, list: parameter.isList, in: &parameters)
        }
        if settled {
            expected.append(try JSONValue.parse(try client.stage(app: bundle, intent: intent.name, stage: .confirm, request(intent, parameters))))
        }
        var batched = request(intent, start)
        batched.batch = batch(intent, handle: false)
        let answer = try client.stage(app: bundle, intent: intent.name, stage: .confirm, batched)
        guard let replies = try? BatchReply(json: JSONValue.parse(answer)).replies else {
            return "it answered the batch with \(ReplyCheck.excerpt(answer)), not a BatchReply"
        }
        guard replies == expected else {
            return "batched: \(ReplyCheck.excerpt(JSONValue.array(replies))); one by one: \(ReplyCheck.excerpt(JSONValue.array(expected)))"
        }
        return nil
    }

    /// Sends a batch with handle under a key, then the handle alone under the same key: a
    /// handle done once answers the second with the reply the batch gave.
    private func handledOnce(_ client: IntentClient, _ intent: IntentDefinition) throws -> String? {
        let key = "conformance-batch-\(intent.name)-1"
        var batched = request(intent, SampleValues.parameters(of: intent))
        let whole = batch(intent, handle: true)
        batched.batch = whole
        batched.idempotencyKey = key
        let answer = try client.stage(app: bundle, intent: intent.name, stage: .handle, batched)
        guard let replies = try? BatchReply(json: JSONValue.parse(answer)).replies else {
            return "it answered the batch with \(ReplyCheck.excerpt(answer)), not a BatchReply"
        }
        guard replies.count == whole.count, let handled = replies.last else { return Self.stoppedBeforeHandle }
        var again = request(intent, SampleValues.parameters(of: intent))
        again.idempotencyKey = key
        let second = try JSONValue.parse(try client.stage(app: bundle, intent: intent.name, stage: .handle, again))
        return second == handled ? nil : "the batch's handle answered \(ReplyCheck.excerpt(handled)), the same key alone \(ReplyCheck.excerpt(second))"
    }
}
