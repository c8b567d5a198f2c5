import IntentProtocol

extension LanguagePack {
    /// What the language reads that the catalog's intents cannot take, one line per
    /// intent: patterns naming a parameter that the catalog's intent of that name does not
    /// have (a domain of one's own reusing an intent name the language reads, with
    /// parameters of its own). Such a pattern reads no request for it; the host says so at
    /// start, so that the author adds patterns of their own with a language addition.
    public func unfitPatterns(in catalog: Catalog) -> [String] {
        var unfit: [String: Set<String>] = [:]
        for table in [intents, appVerbForms, pointedIntents, followUps] {
            for (name, patterns) in table {
                guard let intent = catalog.intent(name) else { continue }
                for pattern in patterns {
                    for slot in pattern.slots where !slot.hasPrefix("_") && intent.parameter(slot) == nil {
                        unfit[name, default: []].insert(slot)
                    }
                }
            }
        }
        return unfit.keys.sorted().map { name in
            let slots = (unfit[name] ?? []).sorted().map { "{\($0)}" }.joined(separator: ", ")
            let domain = catalog.domain(ofIntent: name).map { " (domain \($0))" } ?? ""
            return "the \(language) language's patterns for \(name) read \(slots), which \(name)\(domain) does not have:"
                + " they read no request for it; add patterns for its parameters with a language addition (--phrases)"
        }
    }
}
