import IntentProtocol

/// One step of a lifecycle: resolving the intent's parameter at an index (catalog order),
/// confirm or handle.
enum StageStep: Hashable, Sendable {
    case resolve(Int)
    case confirm
    case handle

    /// The stage byte of the step sent alone.
    var stage: Stage {
        switch self {
        case .resolve: .resolve
        case .confirm: .confirm
        case .handle: .handle
        }
    }

    /// The parameter a resolve step resolves.
    func parameter(of intent: IntentDefinition) -> ParameterDefinition? {
        guard case .resolve(let index) = self, intent.parameters.indices.contains(index) else { return nil }
        return intent.parameters[index]
    }

    /// The step after this one in a batch.
    func next(in intent: IntentDefinition) -> StageStep? {
        switch self {
        case .resolve(let index): index + 1 < intent.parameters.count ? .resolve(index + 1) : .confirm
        case .confirm: .handle
        case .handle: nil
        }
    }
}
