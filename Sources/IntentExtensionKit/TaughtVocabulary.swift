import IntentProtocol

/// The user vocabulary this extension has taught the host, type by type as last sent, so
/// that it can teach it again when the user resets the app's vocabulary (wire.md, section
/// 19b): the host forgets it, while the terms still name the app's data.
struct TaughtVocabulary {
    /// The last replacement sent for each type, in the order the types were first taught.
    private(set) var requests: [VocabularyRequest] = []

    /// Notes a VOCABULARY body sent to the host.
    mutating func note(_ body: [UInt8]) {
        guard let request = try? JSON.decode(VocabularyRequest.self, from: body) else { return }
        if request.reset == true { requests.removeAll() }
        guard let set = request.set else { return }
        requests.removeAll { $0.set?.type == set.type }
        if !set.terms.isEmpty { requests.append(VocabularyRequest(set: set)) }
    }

    /// The bodies that teach it all again.
    var bodies: [[UInt8]] { requests.compactMap { try? JSON.encode($0) } }
}
