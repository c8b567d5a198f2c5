import Foundation
import Testing
@testable import IntentProtocol

@Suite("Catalog and manifest")
struct CatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let catalog: Catalog

    init() throws { catalog = try Catalog(directory: Self.root.appendingPathComponent("Protocols/domains")) }

    @Test("The Messaging domain loads with its intents, parameters in order and SiriKit's codes")
    func messagingDomainLoads() throws {
        let send = try #require(catalog.intent("SendMessage"))
        #expect(send.parameters.map(\.name) == ["recipients", "content", "groupName", "serviceName"])
        #expect(send.parameter("recipients")?.isList == true)
        #expect(send.parameter("content")?.isRequired == true)
        #expect(send.responseCode("failureMessageServiceNotAvailable")?.value == 6)
        #expect(send.responseCode("success")?.kind == .success)
        #expect(send.parameter("recipients")?.unsupportedReasons?.first { $0.name == "noValidHandle" }?.value == 4)
        #expect(catalog.intent("SearchForMessages") != nil)
        #expect(catalog.intent("SetMessageAttribute")?.parameter("attribute")?.values?.contains("played") == true)
        #expect(catalog.domain(ofIntent: "SendMessage") == "Messaging")
    }

    @Test("A parameter of another intent is named Intent.parameter: two names and one dot, nothing else")
    func intentParameterNames() {
        #expect(IntentParameterName("ListRideOptions.dropOffLocation") == IntentParameterName(intent: "ListRideOptions", parameter: "dropOffLocation"))
        #expect(IntentParameterName("ListRideOptions.dropOffLocation")?.description == "ListRideOptions.dropOffLocation")
        for bad in ["", ".", "ListRideOptions", "ListRideOptions.", ".dropOffLocation", "A.b.c"] {
            #expect(IntentParameterName(bad) == nil, "\(bad)")
        }
    }

    @Test("SiriKit class names map to catalog names")
    func sirikitNamesAreAccepted() {
        #expect(Catalog.canonicalIntentName("INSendMessageIntent") == "SendMessage")
        #expect(Catalog.canonicalIntentName("SendMessage") == "SendMessage")
        #expect(catalog.intent("INSearchForMessagesIntent")?.name == "SearchForMessages")
    }

    @Test("A domain that defines an intent twice is refused")
    func duplicateIntentsAreRefused() throws {
        let messaging = try #require(catalog.domains.first)
        #expect(throws: CatalogError.self) { try Catalog(domains: [messaging, messaging]) }
    }

    @Test("Only a dateTime parameter may look back (past) or take a range", arguments: [\ParameterDefinition.past, \ParameterDefinition.range])
    func dateMembersOnlyOnDates(member: WritableKeyPath<ParameterDefinition, Bool?> & Sendable) throws {
        var messaging = try #require(catalog.domains.first { $0.name == "Messaging" })
        let search = try #require(messaging.intents.firstIndex { $0.name == "SearchForMessages" })
        #expect(messaging.intents[search].parameter("dateTime")?[keyPath: member] == true)
        let senders = try #require(messaging.intents[search].parameters.firstIndex { $0.name == "senders" })
        messaging.intents[search].parameters[senders][keyPath: member] = true
        #expect(throws: CatalogError.self) { try Catalog(domains: [messaging]) }
    }

    @Test("A value is carried only from a parameter of another intent of its domain of the same type, into an intent the user confirms")
    func carriedFromNamesAParameterOfItsType() throws {
        let rides = try #require(catalog.domains.first { $0.name == "RideBooking" })
        #expect(catalog.intent("RequestRide")?.parameter("dropOffLocation")?.carriedFrom == ["ListRideOptions.dropOffLocation"])
        let request = try #require(rides.intents.firstIndex { $0.name == "RequestRide" })
        let drop = try #require(rides.intents[request].parameters.firstIndex { $0.name == "dropOffLocation" })
        for source in [
            "ListRideOptions", "ListRideOptions.", ".dropOffLocation", "A.b.c", "ListRideOptions.nowhere", "RequestRide.partySize",
            "RequestRide.pickupLocation", "SomeOtherDomainsIntent.place",
        ] {
            var changed = rides
            changed.intents[request].parameters[drop].carriedFrom = [source]
            #expect(throws: CatalogError.self, "\(source)") { try Catalog(domains: [changed]) }
        }
        var unconfirmed = rides
        unconfirmed.intents[request].requiresUserConfirmation = nil
        #expect(throws: CatalogError.self) { try Catalog(domains: [unconfirmed]) }
    }

    @Test("An intent defined in two catalog folders is refused with both files named")
    func duplicateAcrossFoldersNamesTheFiles() throws {
        let domains = Self.root.appendingPathComponent("Examples/domains")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: domains.appendingPathComponent("workouts.json"), to: copy.appendingPathComponent("workouts.json"))
        do {
            _ = try Catalog(directories: [domains, copy])
            Issue.record("two definitions of StartWorkout were taken")
        } catch let error as CatalogError {
            #expect("\(error)".contains(domains.appendingPathComponent("workouts.json").path), "\(error)")
            #expect("\(error)".contains(copy.appendingPathComponent("workouts.json").path), "\(error)")
        }
    }

    @Test("A misspelled member of a domain file is refused, naming it and the member meant: it would turn off a confirmation or a required value", arguments: [
        ("\"requiresUserConfirmation\"", "\"requiresUserConfirmaton\"", "has the member \"requiresUserConfirmaton\"", "did you mean \"requiresUserConfirmation\"?"),
        ("\"required\"", "\"requried\"", "has the member \"requried\"", "did you mean \"required\"?"),
        ("\"responseCodes\"", "\"responsecodes\"", "has the member \"responsecodes\"", "did you mean \"responseCodes\"?"),
        ("\"type\": \"location\"", "\"type\": \"locaton\"", "has the type \"locaton\"", "did you mean \"location\"?"),
        ("\"kind\": \"success\"", "\"kind\": \"sucess\"", "has the kind \"sucess\"", "did you mean \"success\"?"),
    ])
    func misspelledMembersAreRefused(member: String, typo: String, said: String, hint: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOf: Self.root.appendingPathComponent("Protocols/domains/ride-booking.json"), encoding: .utf8)
        #expect(text.contains(member))
        try text.replacingOccurrences(of: member, with: typo).write(to: folder.appendingPathComponent("ride-booking.json"), atomically: true, encoding: .utf8)
        do {
            _ = try Catalog(directory: folder)
            Issue.record("\(typo) was taken")
        } catch let error as CatalogError {
            #expect("\(error)".contains(said), "\(error)")
            #expect("\(error)".contains(hint), "\(error)")
            #expect("\(error)".contains("ride-booking.json"), "\(error)")
        }
    }

    @Test("A domain file that is not JSON is refused with the line and column, as an editor counts them")
    func syntaxErrorsSayTheLine() throws {
        let text = "{\"name\": \"Café\", \"description\": \"d\",\n  \"intents\": [\n    {\"name\" \"Y\"}\n  ]\n}\n"
        do {
            _ = try Catalog.domain(Array(text.utf8), from: "bad.json")
            Issue.record("a file that is not JSON was taken")
        } catch let error as CatalogError {
            #expect("\(error)".hasSuffix("(line 3, column 13)"), "\(error)")
        }
    }

    @Test("A value of the wrong type in a domain file is said as where it is and what it must be, in JSON's words")
    func wrongTypesSayWhatTheyMustBe() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Protocols/domains/ride-booking.json"), encoding: .utf8)
        let wrong = text.replacingOccurrences(of: "\"requiresUserConfirmation\": true", with: "\"requiresUserConfirmation\": \"yes\"")
        #expect(wrong != text)
        do {
            _ = try Catalog.domain(Array(wrong.utf8), from: "rides.json")
            Issue.record("a string was taken for a boolean")
        } catch let error as CatalogError {
            #expect("\(error)".firstMatch(of: /^rides.json: intents\[\d+\]\.requiresUserConfirmation must be true or false \(found a string\)$/) != nil, "\(error)")
        }
    }

    @Test("A domain file an editor began with a UTF-8 byte order mark is read as without it")
    func byteOrderMarkIsIgnored() throws {
        let bytes = try Array(Data(contentsOf: Self.root.appendingPathComponent("Protocols/domains/ride-booking.json")))
        #expect(try Catalog.domain([0xEF, 0xBB, 0xBF] + bytes, from: "rides.json") == Catalog.domain(bytes, from: "rides.json"))
    }

    @Test("An intent without a ready code is refused: confirm could never let it be done")
    func anIntentNeedsAReadyCode() throws {
        let done = ResponseCode(name: "success", value: 3, kind: .success)
        let intent = IntentDefinition(name: "ListOrders", description: "d", parameters: [], responseCodes: [done])
        do {
            _ = try Catalog(domains: [Domain(name: "Coffee", description: "d", intents: [intent])])
            Issue.record("an intent without ready was taken")
        } catch let error as CatalogError {
            #expect("\(error)".contains("ListOrders has no response code of kind ready"), "\(error)")
        }
    }

    @Test("A check made after reading names the file, and the intent's name printable")
    func checksNameTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = #"{"name": "D", "description": "d", "intents": [{"name": "Do\u001b[2JIt", "description": "d", "parameters": [], "responseCodes": [{"name": "success", "value": 3, "kind": "success"}]}]}"#
        try text.write(to: folder.appendingPathComponent("doit.json"), atomically: true, encoding: .utf8)
        do {
            _ = try Catalog(directory: folder)
            Issue.record("an intent without ready was taken")
        } catch let error as CatalogError {
            #expect("\(error)".hasPrefix(folder.appendingPathComponent("doit.json").path + ": "), "\(error)")
            #expect(!"\(error)".unicodeScalars.contains("\u{1B}"), "\(error)")
        }
    }

    @Test("Every member a domain's types write is one a domain file may have")
    func everyMemberIsKnown() throws {
        let code = ResponseCode(name: "ready", value: 1, kind: .ready)
        let parameter = ParameterDefinition(
            name: "p", type: .dateTime, list: true, required: true, prompt: "When?", values: ["a"], unsupportedReasons: [code],
            confirmationReasons: [code], freeText: true, from: ShownSources([ShownValues(intent: "I", list: "l", field: "f")]),
            answeredBy: ["I.p"], carriedFrom: ["I.p"], past: true)
        let intent = IntentDefinition(
            name: "I", description: "d", requiresUserConfirmation: true, readOnly: true, parameters: [parameter], responseCodes: [code],
            handleResponse: ["type": "object"])
        let domain = Domain(name: "D", description: "d", intents: [intent], enums: ["e": [code]])
        let written = try JSONValue.parse(Array(try JSONEncoder().encode(domain)))
        #expect(DomainFileMembers.problem(in: written) == nil)
        for file in try FileManager.default.contentsOfDirectory(at: Self.root.appendingPathComponent("Protocols/domains"), includingPropertiesForKeys: nil) {
            #expect(DomainFileMembers.problem(in: try JSONValue.parse(Array(try Data(contentsOf: file)))) == nil, "\(file.lastPathComponent)")
        }
    }

    @Test("Values are converted to the catalog's types, with clear errors")
    func parametersAreCoerced() throws {
        let send = try #require(catalog.intent("SendMessage"))
        let coerced = try send.coerce(["recipients": "Bobo", "content": "hi"])
        #expect(coerced["recipients"] == [["displayName": "Bobo"]])
        #expect(coerced["content"] == "hi")
        #expect(throws: ParameterError.self) { try send.coerce(["colour": "red"]) }
        #expect(throws: ParameterError.self) { try send.coerce(["content": ["a", "b"]]) }

        let mark = try #require(catalog.intent("SetMessageAttribute"))
        #expect(try mark.coerce(["attribute": "FLAGGED"])["attribute"] == "flagged")
        do {
            _ = try mark.coerce(["attribute": "purple"])
        } catch {
            #expect(error.description.contains("expects one of read, unread"))
        }
    }

    @Test("Dates must be ISO 8601, numbers finite, places named or located")
    func stricterTypes() throws {
        let search = try #require(catalog.intent("SearchForMessages"))
        #expect(try search.coerce(["dateTime": "2026-11-22T09:30:00Z"])["dateTime"] == "2026-11-22T09:30:00Z")
        #expect(try search.coerce(["dateTime": "2026-11-22"])["dateTime"] == "2026-11-22")
        #expect(throws: ParameterError.self) { try search.coerce(["dateTime": "next tuesday-ish"]) }
        for bad in ["2026-11-22junk", " 2026-11-22", "2026-11-22T09:30:00", "2026-02-30", "2026-11-22T25:00:00Z", "2026-13-01"] {
            #expect(throws: ParameterError.self, "\(bad)") { try search.coerce(["dateTime": .string(bad)]) }
        }
        for good in ["2024-02-29", "2026-11-22T09:30:00.250+01:00", "2026-11-22T23:59:60Z"] {
            #expect(throws: Never.self, "\(good)") { try search.coerce(["dateTime": .string(good)]) }
        }
        // A range where the parameter takes one (`range`): two values, the first earlier.
        let week = "2026-11-22T00:00:00-08:00/2026-11-29T00:00:00-08:00"
        #expect(try search.coerce(["dateTime": .string(week)])["dateTime"] == .string(week))
        #expect(try search.coerce(["dateTime": "2026-11-22/2026-11-23"])["dateTime"] == "2026-11-22/2026-11-23")
        for bad in ["2026-11-29T00:00:00Z/2026-11-22T00:00:00Z", "2026-11-22/2026-11-22", "2026-11-22/", "/2026-11-22", "2026-11-22/x", "2026-11-22/2026-11-23/2026-11-24"] {
            #expect(throws: ParameterError.self, "\(bad)") { try search.coerce(["dateTime": .string(bad)]) }
        }
        let add = try #require(catalog.intent("AddTasks"))
        #expect(throws: ParameterError.self, "no range where the parameter takes none") {
            try add.coerce(["temporalEventTrigger": .string(week)])
        }
        let whole = ParameterDefinition(name: "n", type: .integer, prompt: "")
        #expect(try whole.coerce("2.0") == 2 && whole.coerce(" 3 ") == 3, "a whole number written as JSON would take it")
        for bad in ["2.5", "2.", ".0", "0x10", "two", "1e3", "nan"] {
            #expect(throws: ParameterError.self, "\(bad)") { try whole.coerce(.string(bad)) }
        }
        let number = ParameterDefinition(name: "n", type: .number, prompt: "")
        #expect(throws: ParameterError.self) { try number.coerce("nan") }
        #expect(throws: ParameterError.self) { try number.coerce("inf") }
        let place = ParameterDefinition(name: "p", type: .location, prompt: "")
        #expect(try place.coerce(["latitude": 1, "longitude": 2]) == ["latitude": 1, "longitude": 2])
        #expect(throws: ParameterError.self) { try place.coerce(["colour": "red"]) }
    }

    @Test("The MonkeyChat manifest reads as a registration, SiriKit names normalised")
    func manifestParses() throws {
        let manifest = try Manifest(contentsOf: Self.root.appendingPathComponent("Extensions/Messaging/Manifest/Info.plist"))
        let r = manifest.registration
        #expect(r.bundleIdentifier == "com.monkeychat.intents")
        #expect(r.appName == "MonkeyChat")
        #expect(r.intentsSupported == ["SendMessage", "SearchForMessages", "SetMessageAttribute"])
        #expect(r.intentsRestrictedWhileLocked == ["SendMessage", "SearchForMessages"])
        #expect(r.alternativeAppNames.first == AlternativeAppName(name: "Monkey Chat", pronunciation: "monkey chat"))
        #expect(!r.usageDescription.isEmpty)
    }

    @Test("A manifest without IntentsSupported is refused with the missing key named")
    func manifestWithoutIntentsIsRefused() {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>x</string><key>CFBundleDisplayName</key><string>X</string>
            <key>NSExtension</key><dict><key>NSExtensionAttributes</key><dict/></dict></dict></plist>
            """
        do {
            _ = try Manifest(data: Data(plist.utf8))
            Issue.record("accepted a manifest without intents")
        } catch {
            #expect("\(error)".contains("IntentsSupported"))
        }
    }

    @Test("A manifest or vocabulary that is not a property list is refused as one, with its name")
    func brokenPropertyListIsRefused() {
        let unterminated = Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleIdentifier</key>"#.utf8)
        #expect(throws: ManifestError.self) { try Manifest(data: unterminated, source: "Info.plist") }
        do { _ = try Manifest(data: unterminated, source: "Info.plist") } catch {
            #expect("\(error)".contains("Info.plist is not a property list"))
        }
        do { _ = try AppVocabulary(data: unterminated, source: "AppIntentVocabulary.plist") } catch {
            #expect("\(error)".contains("AppIntentVocabulary.plist is not a property list"))
        }
    }

    @Test("Manifest values are read by their property-list type: a string is not a boolean, a number not a name")
    func manifestValuesKeepTheirTypes() throws {
        func manifest(network: String, supported: String) throws -> Manifest {
            try Manifest(data: Data("""
                <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
                <key>CFBundleIdentifier</key><string> org.example.x </string><key>CFBundleName</key><string>X</string>
                <key>INAlternativeAppNames</key><array><dict><key>INAlternativeAppName</key><string>Ex</string></dict></array>
                <key>NSExtension</key><dict><key>NSExtensionAttributes</key><dict>
                <key>IntentsSupported</key><array>\(supported)</array>\(network)</dict></dict></dict></plist>
                """.utf8))
        }
        let plain = try manifest(network: "<key>IntentdNetworkAccess</key><true/>", supported: "<string>INSendMessageIntent</string>")
        #expect(plain.networkAccess)
        #expect(plain.registration.bundleIdentifier == "org.example.x")
        #expect(plain.registration.intentsSupported == ["SendMessage"])
        #expect(plain.registration.alternativeAppNames == [AlternativeAppName(name: "Ex")])
        #expect(throws: ManifestError.self) {
            try manifest(network: "<key>IntentdNetworkAccess</key><string>true</string>", supported: "<string>SendMessage</string>")
        }
        #expect(throws: ManifestError.self) {
            try manifest(network: "<key>IntentdNetworkAccess</key><integer>1</integer>", supported: "<string>SendMessage</string>")
        }
        #expect(throws: ManifestError.self) { try manifest(network: "", supported: "<string>SendMessage</string><integer>7</integer>") }
    }

    @Test("Zippy's vocabulary reads its ride options and example phrases")
    func vocabularyParses() throws {
        let vocabulary = try AppVocabulary(contentsOf: Self.root.appendingPathComponent("Extensions/Rides/Manifest/AppIntentVocabulary.plist"))
        #expect(!vocabulary.parameterVocabularies.isEmpty)
        #expect(vocabulary.parameterVocabularies.allSatisfy { !$0.items.isEmpty && $0.parameterNames.allSatisfy { !$0.hasPrefix("IN") } })
        #expect(!vocabulary.intentPhrases.isEmpty)
    }

    @Test("The state directory follows flag, then environment, then XDG, then home")
    func stateDirectoryOrder() {
        #expect(StateDirectory(explicit: "/a", environment: ["INTENTD_STATE_DIR": "/b"]).path == "/a")
        #expect(StateDirectory(environment: ["INTENTD_STATE_DIR": "/b", "XDG_STATE_HOME": "/c"]).path == "/b")
        #expect(StateDirectory(environment: ["XDG_STATE_HOME": "/c"]).path == "/c/intentd")
        #expect(StateDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.local/state/intentd")
        #expect(StateDirectory(explicit: "/s").clientEndpoint == "ipc:///s/client.sock")
    }

    @Test("An executable's manifest is found in its SwiftPM resource bundle first, else in Manifest/ beside it")
    func manifestBesideExecutable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-beside-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("Manifest/Info.plist")
        let bundled = folder.appendingPathComponent("pkg_Notes.resources/Manifest/Info.plist")
        let executable = folder.appendingPathComponent("Notes")
        #expect(Manifest.file(beside: executable) == nil)
        for file in [plain, bundled] {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("<plist/>".utf8).write(to: file)
        }
        #expect(Manifest.file(beside: executable)?.path == bundled.path)
        #expect(Manifest.file(beside: folder.appendingPathComponent("Other"))?.path == plain.path)
    }
}
