/// One domain of the catalog, as stored in `Protocols/domains/NAME.json`.
public struct Domain: Sendable, Hashable, Codable {
    /// The domain's name, such as `Messaging`.
    public var name: String
    /// What the domain covers.
    public var description: String
    /// The intents, each with its parameters and response codes.
    public var intents: [IntentDefinition]
    /// Named value lists used in responses, such as `ridePhase`, with SiriKit's numbers.
    public var enums: [String: [ResponseCode]]?
}

/// One intent: its parameters in resolution order and its response codes.
public struct IntentDefinition: Sendable, Hashable, Codable {
    /// The catalog name, such as `SendMessage` (SiriKit's `INSendMessageIntent`).
    public var name: String
    /// What it does.
    public var description: String
    /// Whether the user must confirm before handle (payments, rides).
    public var requiresUserConfirmation: Bool?
    /// Whether it only shows what there is and changes nothing (a search, a ride's
    /// status): the assistant may run it in passing while another request waits for an
    /// answer ("how much?" where a ride waits for its yes).
    public var readOnly: Bool?
    /// The parameters, in the order the host resolves them.
    public var parameters: [ParameterDefinition]
    /// The response codes with SiriKit's names and numbers.
    public var responseCodes: [ResponseCode]
    /// The JSON Schema of a successful handle's `response` (what the app reports).
    public var handleResponse: JSONValue?

    /// The parameter named `name`.
    public func parameter(_ name: String) -> ParameterDefinition? {
        parameters.first { $0.name == name }
    }

    /// Whether it only shows what there is (`readOnly`).
    public var isReadOnly: Bool { readOnly ?? false }

    /// The response code named `name`.
    public func responseCode(_ name: String) -> ResponseCode? {
        responseCodes.first { $0.name == name }
    }
}

/// One parameter of an intent.
public struct ParameterDefinition: Sendable, Hashable, Codable {
    /// The parameter's name, such as `recipients`.
    public var name: String
    /// The value type.
    public var type: ParameterType
    /// Whether the value is a list (each element resolved on its own).
    public var list: Bool?
    /// Whether the intent cannot be done without it.
    public var required: Bool?
    /// The question the assistant asks when the value is needed.
    public var prompt: String
    /// For `enum` parameters: the allowed values.
    public var values: [String]?
    /// The typed reasons an extension may give with `unsupported`, with SiriKit's numbers.
    public var unsupportedReasons: [ResponseCode]?
    /// The typed reasons an extension may give with `confirmationRequired`, with SiriKit's
    /// numbers (`listShouldBeCreated`).
    public var confirmationReasons: [ResponseCode]?
    /// Whether the value is any words at all, new text the user makes up (what a message
    /// says, a task's title), rather than the name of something: a conversation takes
    /// whatever is said to its question as the answer, even words that read as a request.
    public var freeText: Bool?
    /// Where a conversation takes the value from when the user does not say it: what the
    /// app last showed the same client ("mark them as read" after a search), from one
    /// response member or from any of several.
    public var from: ShownSources?
    /// Other requests, as `Intent.parameter`, whose value answers this parameter's question
    /// when said in its place: `CreateTaskList.title` for a task's list, so "a new list
    /// called Costco" where the list was asked for is that list (and the items stay).
    public var answeredBy: [String]?
    /// Parameters of other intents of the same app, as `Intent.parameter`, whose value the
    /// user gave in this client's last conversation with the app, taken when this one is not
    /// said: `RequestRide.dropOffLocation` has `ListRideOptions.dropOffLocation`, so "book a
    /// Zippy Pool" after asking what a ride to Union Square costs goes there.
    public var carriedFrom: [String]?
    /// The type of user vocabulary whose terms name this parameter's values
    /// (`notebookItemTitle` for a list's title): a term the app serving the intent taught,
    /// said whole for the value, helps pick among that intent's readings (not between intents).
    public var vocabulary: String?
    /// For `dateTime`: a day or time said without which ("on Monday", "March 3rd", "at 9")
    /// is the last one, not the next: what a search of what was sent is asked.
    public var past: Bool?
    /// For `dateTime`: the value may also be a range of time, "START/END" (the start in
    /// it, the end not), when the user says one ("this week"), as SiriKit's
    /// `INDateComponentsRange`.
    public var range: Bool?

    /// Whether the value is a list.
    public var isList: Bool { list ?? false }
    /// Whether the value is required.
    public var isRequired: Bool { required ?? false }
    /// Whether the value is free text.
    public var isFreeText: Bool { freeText ?? false }
    /// Whether a date said is the last such, not the next.
    public var isPast: Bool { past ?? false }
    /// Whether the value may be a range of time.
    public var isRange: Bool { range ?? false }
}

/// The places a parameter's value may be taken from when shown: one `ShownValues`, or
/// several (a task from a search's `tasks`, or from its lists' `taskLists.tasks`). Written
/// as one object or as an array of them.
public struct ShownSources: Sendable, Hashable, Codable {
    /// Each place, the first that holds values winning.
    public var references: [ShownValues]

    /// The places `references` name.
    public init(_ references: [ShownValues]) { self.references = references }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let one = try? container.decode(ShownValues.self) {
            references = [one]
        } else {
            references = try container.decode([ShownValues].self)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if references.count == 1 { try container.encode(references[0]) } else { try container.encode(references) }
    }

    /// Whether one of the places is in `intent`'s response.
    public func shows(_ intent: String) -> Bool { references.contains { $0.intent == intent } }
}

/// Values taken from an earlier response: `field` of each object in the response member
/// `list` of the intent `intent` (`SearchForMessages`, `messages`, `identifier`).
public struct ShownValues: Sendable, Hashable, Codable {
    /// The intent whose response shows them.
    public var intent: String
    /// The response member: an array of objects, or a path to arrays inside such objects
    /// (`taskLists.tasks`: the tasks of every list shown), taken together.
    public var list: String
    /// The member of each object that is the value; empty when each is the value itself
    /// (`AddTasks`'s `targetTaskList`, a title).
    public var field: String

    /// Names `field` of each object in `list` of `intent`'s response.
    public init(intent: String, list: String, field: String) {
        self.intent = intent
        self.list = list
        self.field = field
    }
}

/// The value types a parameter can have.
public enum ParameterType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Text.
    case string
    /// A `Person`; a plain string becomes its display name.
    case person
    /// A whole number.
    case integer
    /// Any number.
    case number
    /// true or false.
    case boolean
    /// ISO 8601 date and time text.
    case dateTime
    /// One of the parameter's `values`.
    case `enum`
    /// A place: an object with `name`, and `latitude` and `longitude` when known.
    case location
}

/// A named code with SiriKit's number and what it means for the lifecycle.
public struct ResponseCode: Sendable, Hashable, Codable {
    /// The name, such as `failureRequiringAppLaunch`.
    public var name: String
    /// SiriKit's number.
    public var value: Int
    /// What the code means to the host: `ready`, `inProgress`, `success`, `failure`
    /// or `unspecified`. Absent for unsupported reasons.
    public var kind: Kind?

    /// What a response code means to the host.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case unspecified, ready, inProgress, success, failure
    }
}
