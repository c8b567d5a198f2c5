import IntentProtocol

extension LanguagePack {
    /// What the language cannot read of the catalog's intents, one line per intent: one
    /// whose patterns name parameters it does not have, and none of them one it has (a
    /// domain of one's own reusing an intent name the language reads, with parameters of its
    /// own, and no addition for them yet). No request fills its parameters; the host says so
    /// at start, so that the author adds patterns of their own with a language addition.
    public func unfitPatterns(in catalog: Catalog) -> [String] {
        let unfit = unreadParameters(in: catalog)
        return unfit.keys.sorted().map { name in
            let slots = (unfit[name] ?? []).sorted().map { "{\($0)}" }.joined(separator: ", ")
            let domain = catalog.domain(ofIntent: name).map { " (domain \($0))" } ?? ""
            return "the \(language) language's patterns for \(name) read \(slots), which \(name)\(domain) does not have, and none reads"
                + " a parameter it has: typed requests never fill them; add patterns for them with a language addition (--phrases)"
        }
    }

    /// The catalog's intents whose patterns here read none of their parameters but some
    /// they do not have, each with those: what `unfitPatterns` says, and what `intentctl new`
    /// writes phrases for.
    public func unreadParameters(in catalog: Catalog) -> [String: Set<String>] {
        var unfit: [String: Set<String>] = [:]
        var fitting: Set<String> = []
        for table in [intents, appVerbForms, pointedIntents, followUps] {
            for (name, patterns) in table {
                // One without parameters has nothing to fill.
                guard let intent = catalog.intent(name), !intent.parameters.isEmpty else { continue }
                for pattern in patterns {
                    let slots = pattern.slots.filter { !$0.hasPrefix("_") }
                    let missing = slots.filter { intent.parameter($0) == nil }
                    if missing.isEmpty, !slots.isEmpty { fitting.insert(name) }
                    unfit[name, default: []].formUnion(missing)
                }
            }
        }
        return unfit.filter { !$0.value.isEmpty && !fitting.contains($0.key) }
    }

    /// Whether the language has patterns for `intent`.
    public func reads(_ intent: String) -> Bool { intents[intent]?.isEmpty == false }

    /// The language's example request for `intent`, with `{app}` where the app's name goes.
    public func example(of intent: String) -> String? { examples[intent] }
}
