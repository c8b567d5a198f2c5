import Foundation
import IntentProtocol

/// What the host says, from the language file's templates. A template names values in
/// braces: `{recipients}`, `{rideStatus.phase}`, `{estimatedPickupSeconds|minutes}`,
/// `{messages|count}`, `{items|summary}`, `{nextTriggerTime|when}` (a date in words,
/// relative to the clock), `{dateTime|day}` (its day alone), `{cancellationFee|fee}` (an
/// amount above zero, else none). `:1` after a filter (`{messages|count:1}`) says the value
/// only when it is 1, for the singular. `{notes|none}` is said as nothing, and only when the
/// value is an empty list: a search that found none ("{notes|none}I found no notes.");
/// `{status|is:completed}` likewise only when the value is that ("Nothing is done yet").
/// A template with a value missing is skipped for the next one in its list.
public struct Phrasebook: Sendable {
    let pack: LanguagePack
    /// The user's clock, which dates are shown relative to.
    let clock: UserClock

    /// A phrasebook for `pack`'s language, showing dates relative to `clock`.
    public init(pack: LanguagePack, clock: UserClock = .system) {
        self.pack = pack
        self.clock = clock
    }

    /// The language code.
    public var language: String { pack.language }

    /// Whether the language has a sentence for `key`.
    public func has(_ key: String) -> Bool { pack.say[key] != nil }

    /// One of the engine's sentences, filled in.
    public func say(_ key: String, _ values: [String: String] = [:]) -> String {
        let template = pack.say[key] ?? key
        return render(template, values.mapValues(JSONValue.string)) ?? template
    }

    /// `key`'s sentence for one case (`KEY.CASE`: "disambiguation.DeleteTasks.taskList" says
    /// "From which list: …?"), else `key`'s own.
    public func say(_ key: String, in specific: String, _ values: [String: String]) -> String {
        say(has("\(key).\(specific)") ? "\(key).\(specific)" : key, values)
    }

    /// `key`'s sentence for `intent` (`KEY.Intent`, with the request's `values`: "Should I
    /// send Kiki …"), else `key`'s own with `value` alone.
    public func say(_ key: String, for intent: String, value: String, _ values: [String: JSONValue]) -> String {
        var values = values
        values["value"] = .string(value)
        return pack.say["\(key).\(intent)"].flatMap { render($0, values) } ?? say(key, ["value": value])
    }

    /// The question for a parameter: the language's prompt, else the catalog's.
    public func prompt(for parameter: ParameterDefinition, of intent: String, _ values: [String: JSONValue]) -> String {
        first(pack.prompts["\(intent).\(parameter.name)"], values) ?? parameter.prompt
    }

    /// The confirmation question before handling an intent that needs the user's yes.
    public func summary(of intent: String, _ values: [String: JSONValue]) -> String {
        first(pack.summaries[intent], values) ?? first(pack.summaries["default"], values) ?? ""
    }

    /// The sentence for a handled intent.
    public func result(of intent: String, _ values: [String: JSONValue]) -> String {
        first(pack.results[intent], values) ?? first(pack.results["default"], values) ?? ""
    }

    /// An example request for `intent` to `app` ("Create a note called Gift ideas in
    /// Jotz"), for an app that gave none of its own; nil when the language has none.
    public func example(of intent: String, app: String) -> String? {
        pack.examples[intent].flatMap { render($0, ["app": .string(app)]) }
    }

    /// An unsupported reason (`offline`) in words, about `value` of `parameter` (a reason
    /// may say it as `{value}`, or as `{name}`: without a leading article, nor a last word
    /// the parameter's values never end with, "beach packing" for "the beach packing note").
    public func reason(_ name: String, value: String, of parameter: String? = nil, app: String? = nil) -> String? {
        var words = Token.split(value)[...]
        if let first = words.first, words.count > 1, pack.articles.contains(first.word) { words = words.dropFirst() }
        if let last = words.last, words.count > 1, let parameter, pack.words.notLast?[parameter]?.contains(last.word) == true { words = words.dropLast() }
        let bare = words.map(\.typed).joined(separator: " ")
        return pack.unsupportedReasons[name].map { render($0, ["value": .string(value), "name": .string(bare), "app": .string(app ?? "")]) ?? $0 }
    }

    /// The question that asks the user to confirm `value`: the one for `reason`
    /// (`listShouldBeCreated`: "There's no list called groceries. Should I make it?"), else
    /// "Did you mean …?". A value that is a number is also `{amount}`, for filters such as
    /// `fee` ("Tip ${amount|fee}?").
    public func confirmation(of value: String, reason: String?) -> String {
        let plain = pack.say["confirmValue"] ?? "{value}?"
        let template = reason.flatMap { pack.confirmationReasons[$0] } ?? plain
        let amount = Double(value).map(JSONValue.number) ?? .null
        return render(template, ["value": .string(value), "amount": amount]) ?? render(plain, ["value": .string(value)]) ?? template
    }

    /// A failure response code in words.
    public func responseCode(_ name: String) -> String? { pack.responseCodes[name] }

    /// "A, B and C", or with `or`.
    public func list(_ items: [String], or: Bool = false) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(or ? pack.words.or : pack.words.and) " + last
    }

    /// Numbered choices: "1. Bobo the Great, 2. Bobo Jr. or 3. Little Bobo".
    public func numbered(_ options: [String]) -> String {
        list(options.enumerated().map { "\($0.offset + 1). \($0.element)" }, or: true)
    }

    /// A date as the language says it, relative to the user's clock ("tomorrow at 8:00 AM").
    public func spokenDate(_ value: JSONValue) -> String? { filtered(value, base: "when") }

    /// A value as words: a person's or place's name, a list joined, a number plainly.
    public func text(of value: JSONValue) -> String? {
        switch value {
        case .string(let s): return s
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .bool(let b): return b ? (pack.words.yes.first ?? "yes") : (pack.words.no.first ?? "no")
        case .array(let items):
            let texts = items.compactMap { text(of: $0) }
            return texts.isEmpty ? nil : list(texts)
        case .object(let o):
            for key in ["displayName", "name", "title", "content", "identifier"] {
                if let s = o[key]?.stringValue { return s }
            }
            return nil
        case .null: return nil
        }
    }

    private func first(_ templates: [String]?, _ values: [String: JSONValue]) -> String? {
        for template in templates ?? [] {
            if let text = render(template, values) { return text }
        }
        return nil
    }

    /// Fills `{path|filter}` placeholders; nil when one has no value. A value that ends
    /// a sentence's last word with a period ("Bobo Jr.") takes the template's own period.
    func render(_ template: String, _ values: [String: JSONValue]) -> String? {
        var out = ""
        var rest = Substring(template)
        func literal(_ text: Substring) {
            // "…can't use where to?." ends once.
            out += out.last.map(".?!".contains) == true && text.hasPrefix(".") ? text.dropFirst() : text
        }
        while let open = rest.firstIndex(of: "{") {
            literal(rest[..<open])
            guard let close = rest[open...].firstIndex(of: "}") else { return nil }
            let spec = rest[rest.index(after: open)..<close].split(separator: "|", maxSplits: 1).map(String.init)
            guard let path = spec.first else { return nil }
            if spec.count > 1, spec[1] == "none" {
                // Said only for a search that found nothing.
                guard case .array(let items)? = lookup(path, values, keepingEmpty: true), items.isEmpty else { return nil }
                rest = rest[rest.index(after: close)...]
                continue
            }
            if spec.count > 1, spec[1].hasPrefix(Self.isPrefix) {
                // Said only when the value is the text after "is:" (a list, its only item).
                let items = lookup(path, values).map { $0.arrayValue ?? [$0] }
                guard let items, items.count == 1, text(of: items[0]) == String(spec[1].dropFirst(Self.isPrefix.count)) else { return nil }
                rest = rest[rest.index(after: close)...]
                continue
            }
            guard let value = lookup(path, values) else { return nil }
            guard let text = filtered(value, spec.count > 1 ? spec[1] : nil), !text.isEmpty else { return nil }
            out += text
            rest = rest[rest.index(after: close)...]
        }
        literal(rest)
        return out
    }

    /// The value at `path` ("rideStatus.phase"); null and, unless `keepingEmpty`, an empty
    /// list are none.
    private func lookup(_ path: String, _ values: [String: JSONValue], keepingEmpty: Bool = false) -> JSONValue? {
        var parts = path.split(separator: ".").map(String.init)
        guard !parts.isEmpty else { return nil }
        var value = values[parts.removeFirst()]
        for part in parts { value = value?[part] }
        if case .null? = value { return nil }
        if !keepingEmpty, case .array(let items)? = value, items.isEmpty { return nil }
        return value
    }

    /// The filters a template may name, each also with `:1`, and `is:` with a value.
    static let filters: Set<String> = ["minutes", "count", "when", "summary", "fee", "word", "number", "none", "day", "gone", "short"]
    static let isPrefix = "is:"
    /// The most characters a text said back with `short` has.
    static let shortText = 60

    /// What is wrong with `template`'s braces, if anything: an unclosed one, or a filter
    /// the phrasebook does not have (said as the raw value, it would show seconds or JSON).
    static func problem(in template: String) -> String? {
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { return "a template has a { without its }: \(template.prefix(80))" }
            let spec = rest[rest.index(after: open)..<close].split(separator: "|", maxSplits: 1)
            if spec.count > 1, spec[1].hasPrefix(isPrefix) {
                // A value to say it for: some text, and no brace or bar ("{status|is:{x}}").
                let text = spec[1].dropFirst(isPrefix.count)
                guard !text.isEmpty, !text.contains(where: { "{|}".contains($0) }) else {
                    return "a template says \"\(spec[1].prefix(40))\" with no value, or a brace or bar in it, after is:"
                }
            } else if spec.count > 1 {
                let filter = spec[1].hasSuffix(":1") ? spec[1].dropLast(2) : spec[1]
                guard filters.contains(String(filter)) else {
                    return "a template names the filter \"\(spec[1].prefix(40))\", which is none of \(filters.sorted().joined(separator: ", ")) (each also with :1)"
                }
            }
            rest = rest[rest.index(after: close)...]
        }
        return nil
    }

    /// One item of a `summary`: a message with its sender, a ride option with its price, a
    /// note with what it says, a list with its tasks, a task checked off as such or with
    /// when its reminder is due.
    private func summarized(_ item: JSONValue) -> String? {
        guard let object = item.objectValue else { return text(of: item) }
        let name = text(of: item) ?? ""
        if let from = object["sender"].flatMap({ text(of: $0) }), let content = object["content"]?.stringValue {
            return "\(from): \u{201C}\(content)\u{201D}"
        }
        if let price = object["priceRange"]?.stringValue { return "\(name) (\(price))" }
        // A note: its title and what it says, its lines joined ("last.; pinata" as "last; pinata").
        if let content = object["content"]?.stringValue, !content.isEmpty, object["tasks"] == nil {
            let lines = content.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let joined = lines.enumerated().map { index, line in
                index < lines.count - 1 && line.hasSuffix(".") && !line.hasSuffix("..") ? String(line.dropLast()) : line
            }
            return "\(name): \u{201C}\(joined.joined(separator: "; "))\u{201D}"
        }
        if let tasks = object["tasks"]?.arrayValue {
            let titles = tasks.compactMap(summarized)
            return "\(name): " + (titles.isEmpty ? empty(object) : list(titles))
        }
        // A task checked off says so ("milk (done)"); one to do, when its reminder is due
        // ("call Mom (tomorrow at 5:00 PM)").
        if object["status"]?.stringValue == "completed" { return say("checkedOff", ["title": name]) }
        if has("withReminder"), let reminder = object["reminder"], let when = filtered(reminder, base: "when") {
            return say("withReminder", ["title": name, "when": when])
        }
        return name
    }

    /// The most tasks a list's count says; past it, an extension's count is none.
    static let mostTasksCounted = 1_000_000

    /// A list shown without tasks: none yet, or none of those asked for ("what's left" on a
    /// list all done is "all 3 done").
    private func empty(_ list: [String: JSONValue]) -> String {
        // Counts an extension sent: one that is no whole number of tasks a list could hold is none.
        func count(_ key: String) -> Int {
            list[key]?.numberValue.flatMap { Int(exactly: $0) }.flatMap { (0...Self.mostTasksCounted).contains($0) ? $0 : nil } ?? 0
        }
        let open = count("openTaskCount"), done = count("completedTaskCount")
        if open == 0, done > 0 { return done == 1 ? say("allDoneOne") : say("allDone", ["count": String(done)]) }
        if open > 0 { return say("noneDone", ["count": String(open)]) }
        return pack.say["empty"] ?? "-"
    }

    private func filtered(_ value: JSONValue, _ filter: String?) -> String? {
        if let filter, filter.hasSuffix(":1") {
            let text = filtered(value, base: String(filter.dropLast(2)))
            return text == "1" ? text : nil
        }
        return filtered(value, base: filter)
    }

    private func filtered(_ value: JSONValue, base filter: String?) -> String? {
        switch filter {
        case "minutes":
            // An extension's number: one too large for `Int` is not said.
            return value.numberValue.flatMap { let m = ($0 / 60).rounded(); return abs(m) < 1e15 ? String(max(1, Int(m))) : nil }
        case "count": return value.arrayValue.map { String($0.count) }
        // A number as said ("for {partySize|number:1} person" only for one).
        case "number": return value.numberValue.flatMap { text(of: .number($0)) }
        // A value of the catalog's ("notCompleted") as the language first says it ("not done").
        case "word": return value.stringValue.map { pack.values[$0]?.first ?? $0 }
        // An amount to pay, with its cents; none when nothing is to pay, so the template is skipped.
        case "fee": return value.numberValue.flatMap { $0 > 0 && $0 < 1e15 ? String(format: "%.2f", $0) : nil }
        // Text short enough to say back; none when longer, so the template is skipped.
        case "short": return value.stringValue.flatMap { $0.count <= Self.shortText && !$0.contains("\n") ? $0 : nil }
        case "when", "day":
            let dates = DateReader(pack: pack, clock: clock)
            return value.stringValue.flatMap { dates.spokenSpan($0) ?? dates.spoken($0, dayOnly: filter == "day") }
        // A day or stretch of days wholly gone, as `day` says it ("Nothing was due last
        // Friday"); none when any of it is to come, so the template is skipped.
        case "gone":
            guard let text = value.stringValue, let last = text.split(separator: "/").last.flatMap({ DateTimeText.instant(String($0)) }),
                last <= clock.now()
            else { return nil }
            return filtered(value, base: "day")
        case "summary":
            guard let items = value.arrayValue else { return text(of: value) }
            // Lists with their tasks, each a list of its own, are set apart ("camping: tent and
            // stove; party: chips and salsa"), not run into one list.
            if items.count > 1, let separator = pack.say["listsApart"], items.contains(where: { $0.objectValue?["tasks"] != nil }) {
                return items.compactMap(summarized).joined(separator: separator)
            }
            return list(items.compactMap(summarized))
        default: return text(of: value)
        }
    }
}
