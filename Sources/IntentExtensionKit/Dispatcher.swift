import Foundation

/// Turns one request into one reply body by calling the extension's handler.
struct Dispatcher<Extension: IntentExtension>: Sendable {
    let `extension`: Extension

    /// The reply body for a request: a `ResolveReply`, an `IntentResponse` or an `ErrorReply`.
    func reply(stage: Stage, body: [UInt8]) async -> [UInt8] {
        do {
            let request = try LazyStageRequest(body)
            let intent = Intent(request)
            guard let handler = `extension`.handler(for: intent) else {
                return ErrorReply(error: "this extension has no handler for \(intent.name)").serialized()
            }
            switch stage {
            case .resolve:
                guard let parameter = request.parameter else {
                    return ErrorReply(error: "a resolve request must name its parameter").serialized()
                }
                let results: [ResolutionResult]
                if let resolver = handler.resolvers[parameter] {
                    results = try await resolver.resolve(intent)
                } else {
                    results = Resolution.defaultResolution(intent[parameter], required: request.required ?? false)
                }
                return ResolveReply(results: results.map(Resolution.checked)).serialized()
            case .confirm:
                return try await handler.confirm(intent).serialized()
            case .handle:
                return try await handler.handle(intent).serialized()
            }
        } catch {
            return ErrorReply(error: "\(error)").serialized()
        }
    }
}

/// The SDK's resolution rules, shared by the dispatcher and the typed handlers.
package enum Resolution {
    /// Without a resolver: success with each given value; needsValue or notRequired if none.
    package static func defaultResolution(_ value: JSONValue?, required: Bool) -> [ResolutionResult] {
        guard let value else { return [required ? .needsValue : .notRequired] }
        let values = value.arrayValue ?? [value]
        return values.isEmpty ? [required ? .needsValue : .notRequired] : values.map { .success($0) }
    }

    /// Keeps disambiguations within 2 to 10 options, as the protocol requires.
    package static func checked(_ result: ResolutionResult) -> ResolutionResult {
        guard case .disambiguation(let options) = result else { return result }
        if options.count > ResolutionResult.maximumOptions { return .needsValue }
        if options.count == 1 { return .success(options[0]) }
        if options.isEmpty { return .needsValue }
        return result
    }

}
