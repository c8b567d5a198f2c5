import IntentProtocol

extension LanguagePack {
    /// What the language cannot read of the catalog's intents, one line per intent: one
    /// whose patterns name parameters it does not have, and none of them one it has (a
    /// domain of one's own reusing an intent name the language reads, with parameters of its
    /// own, and no addition for them yet). No request fills its parameters; the host says so
    /// at start, so that the author adds patterns of their own with a language addition.
    public func unfitPatterns(in catalog: Catalog) -> [String] {
        var unfit: [String: Set<String>] = [:]
        var fitting: Set<String> = []
        for table in [intents, appVerbForms, pointedIntents, followUps] {
            for (name, patterns) in table {
                guard let intent = catalog.intent(name) else { continue }
                for pattern in patterns {
                    let slots = pattern.slots.filter { !$0.hasPrefix("_") }
                    let missing = slots.filter { intent.parameter($0) == nil }
                    if missing.isEmpty, !slots.isEmpty { fitting.insert(name) }
                    unfit[name, default: []].formUnion(missing)
                }
            }
        }
        unfit = unfit.filter { !$0.value.isEmpty && !fitting.contains($0.key) }
        return unfit.keys.sorted().map { name in
            let slots = (unfit[name] ?? []).sorted().map { "{\($0)}" }.joined(separator: ", ")
            let domain = catalog.domain(ofIntent: name).map { " (domain \($0))" } ?? ""
            return "the \(language) language's patterns for \(name) read \(slots), which \(name)\(domain) does not have:"
                + " they read no request for it; add patterns for its parameters with a language addition (--phrases)"
        }
    }
}
