import IntentProtocol
import ZeroMQ

/// What each client's conversations were last shown, for the parameters the catalog fills
/// from an earlier response (`ParameterDefinition.from`): after "show my messages from
/// Bobo", "mark them as read" means those messages. One response per client connection
/// (and the key it proved), for five minutes, and only from the app that answered it;
/// bounded in clients, values and bytes, since the values are an extension's. With it, the
/// last answer each client was given, for "say that again", and what the user last asked
/// an app for, for the parameters that carry it over (`ParameterDefinition.carriedFrom`).
struct ShownResults {
    /// One client's last response that some parameter takes values from.
    struct Shown: Sendable {
        let app: String
        let intent: String
        let values: [ShownValues: [String]]
        let at: ContinuousClock.Instant

        /// The values `reference` names, shown by `app` within `ShownResults.lifetime` of `now`;
        /// nil when the last such response showed none.
        func values(for reference: ShownValues, app: String, now: ContinuousClock.Instant) -> [String]? {
            guard app == self.app, reference.intent == intent, at.duration(to: now) <= ShownResults.lifetime else { return nil }
            return values[reference]
        }
    }

    /// The last answer a client was given, for "say that again": kept as it was shown, with
    /// the app and intent it was about, if any.
    struct Answer: Sendable {
        let app: String?
        let intent: String?
        let text: String
        let at: ContinuousClock.Instant

        /// The answer, if given within `ShownResults.lifetime` of `now`.
        func current(at now: ContinuousClock.Instant) -> Answer? { at.duration(to: now) <= ShownResults.lifetime ? self : nil }
    }

    /// What the user gave an app's intent in a client's last conversation that did it: the
    /// values of the parameters some other parameter is carried from (`carriedFrom`), and
    /// what the request said in passing of the intents they are carried into ("how much
    /// would a Zippy Van be?": `RequestRide.rideOptionName`).
    struct Asked: Sendable {
        let app: String
        let intent: String
        let values: [String: JSONValue]
        var mentioned: [IntentParameterName: JSONValue] = [:]
        let at: ContinuousClock.Instant

        /// What was asked, if asked within `ShownResults.lifetime` of `now`.
        func current(at now: ContinuousClock.Instant) -> Asked? { at.duration(to: now) <= ShownResults.lifetime ? self : nil }

        /// The value of `source` the user gave `app` within `ShownResults.lifetime` of `now`, if any.
        func value(of source: IntentParameterName, app: String, now: ContinuousClock.Instant) -> JSONValue? {
            guard app == self.app, at.duration(to: now) <= ShownResults.lifetime, source.intent == intent else { return nil }
            return values[source.parameter]
        }

        /// The value of `target` said in passing to `app` within `ShownResults.lifetime` of `now`, if any.
        func mentioned(_ target: IntentParameterName, app: String, now: ContinuousClock.Instant) -> JSONValue? {
            guard app == self.app, at.duration(to: now) <= ShownResults.lifetime else { return nil }
            return mentioned[target]
        }
    }

    /// A client: its connection, and the key it proved (CURVE), so that a connection
    /// reusing a routing id that another key's connection had hears nothing of it.
    struct Client: Hashable, Sendable {
        let routingID: RoutingID
        let key: String?
    }

    static let lifetime = Duration.seconds(300)
    static let maximumClients = 256
    static let maximumValues = 64
    static let maximumValueBytes = 256
    /// The most bytes of an answer kept to say again (a list of 64 tasks is far fewer).
    static let maximumAnswerBytes = 16_384
    /// The most bytes of one value the user gave that is kept to carry over (a place is far fewer).
    static let maximumAskedBytes = 1_024

    /// The references in the catalog, by the intent whose response they read.
    private let references: [String: [ShownValues]]
    /// The parameters some parameter is carried from, by intent.
    private let carried: [String: Set<String>]
    /// The intents values are carried into (whose values said in passing are kept).
    private let carriedInto: Set<String>
    private var byClient: [Client: Kept] = [:]
    private var order: [Client] = []

    init(catalog: Catalog) {
        var references: [String: [ShownValues]] = [:]
        for intent in catalog.domains.flatMap(\.intents) {
            for reference in intent.parameters.flatMap({ $0.from?.references ?? [] }) where references[reference.intent]?.contains(reference) != true {
                references[reference.intent, default: []].append(reference)
            }
        }
        self.references = references
        var carried: [String: Set<String>] = [:]
        var carriedInto: Set<String> = []
        for intent in catalog.domains.flatMap(\.intents) {
            for source in intent.parameters.flatMap({ $0.carriedFrom ?? [] }) {
                guard let from = IntentParameterName(source) else { continue }
                carried[from.intent, default: []].insert(from.parameter)
                carriedInto.insert(intent.name)
            }
        }
        self.carried = carried
        self.carriedInto = carriedInto
    }

    /// What is kept for one client.
    private struct Kept {
        var shown: Shown?
        var answer: Answer?
        var asked: Asked?
    }

    /// The values at `path` in `response`: a member, or a path to arrays in its objects
    /// ("taskLists.tasks": the tasks of every list), taken together.
    static func members(_ path: String, of response: JSONValue) -> [JSONValue] {
        var found: [JSONValue] = [response]
        for member in path.split(separator: ".") {
            var next: [JSONValue] = []
            for value in found {
                guard let inner = value[String(member)] else { continue }
                if let items = inner.arrayValue { next.append(contentsOf: items) } else { next.append(inner) }
            }
            found = next
            // More than are kept is none kept: no need to look further.
            if found.count > maximumValues { break }
        }
        return found
    }

    /// What `client` was last shown, if anything.
    func shown(to client: Client) -> Shown? { byClient[client]?.shown }

    /// The last answer `client` was given, if any.
    func answer(to client: Client) -> Answer? { byClient[client]?.answer }

    /// What the user of `client` last asked an app for that some parameter carries over, if anything.
    func asked(by client: Client) -> Asked? { byClient[client]?.asked }

    /// Keeps what the user gave `app`'s `intent` (`values`, nil when it was not done) when
    /// another parameter is carried from one of them; it replaces what was kept before, and
    /// one not done (a trip outside the area, or called off) leaves nothing kept. One done
    /// that said none of them ("how much would a van be?" after the prices of a trip) is
    /// about what was kept, and leaves it. Of `mentioned`, what is said of the intents values
    /// are carried into is kept with them (replacing what was, when there is any). A value
    /// over `maximumAskedBytes` is not kept.
    mutating func record(
        asked values: [String: JSONValue]?, mentioned: [IntentParameterName: JSONValue] = [:], app: String?, intent: String?,
        for client: Client, now: ContinuousClock.Instant
    ) {
        guard let intent, let names = carried[intent] else { return }
        guard let values, let app else {
            update(client) { $0.asked = nil }
            return
        }
        let said = mentioned.filter { carriedInto.contains($0.key.intent) && $0.value.serialized().count <= Self.maximumAskedBytes }
        // None of them said: about the trip kept.
        if !values.keys.contains(where: names.contains), let before = byClient[client]?.asked, before.app == app, before.intent == intent {
            if !said.isEmpty { update(client) { $0.asked?.mentioned = said } }
            return
        }
        let kept = values.filter { names.contains($0.key) && $0.value.serialized().count <= Self.maximumAskedBytes }
        update(client) { $0.asked = Asked(app: app, intent: intent, values: kept, mentioned: said, at: now) }
    }

    /// Keeps `text`, the last answer of a conversation about `app`'s `intent` (if any), as the
    /// last answer `client` was given, when it is not too long to keep.
    mutating func record(answer text: String, app: String?, intent: String?, for client: Client, now: ContinuousClock.Instant) {
        guard text.utf8.count <= Self.maximumAnswerBytes else { return }
        update(client) { $0.answer = Answer(app: app, intent: intent, text: text, at: now) }
    }

    /// Changes what is kept for `client`, the oldest client forgotten past `maximumClients`.
    private mutating func update(_ client: Client, _ change: (inout Kept) -> Void) {
        if byClient[client] == nil {
            order.append(client)
            if order.count > Self.maximumClients { byClient[order.removeFirst()] = nil }
        }
        change(&byClient[client, default: Kept()])
    }

    /// Keeps what `outcome` showed `client`, if a parameter reads it; it replaces what that
    /// client was shown before. One that failed or found nothing shows nothing, and so does
    /// one with more values than are kept: "them" is then asked about, never a part of them.
    mutating func record(_ outcome: Outcome, for client: Client, now: ContinuousClock.Instant) {
        guard let wanted = references[outcome.intent] else { return }
        var values: [ShownValues: [String]] = [:]
        for reference in wanted where outcome.outcome == .success {
            let items = Self.members(reference.list, of: .object(outcome.response?.response ?? [:]))
            guard !items.isEmpty, items.count <= Self.maximumValues else { continue }
            // A member, or a path into one ("sender.displayName").
            let path = reference.field.split(separator: ".").map(String.init)
            let found = items.compactMap { item in path.reduce(Optional(item)) { $0?[$1] }?.stringValue }
                .filter { !$0.isEmpty && $0.utf8.count <= Self.maximumValueBytes }
            if found.count == items.count { values[reference] = found }
        }
        update(client) { $0.shown = Shown(app: outcome.app, intent: outcome.intent, values: values, at: now) }
    }
}
