import Foundation
import GRDB
import IntentProtocol
import Testing
import ZeroMQ

/// Zippy, launched by intentd with a fast simulated fleet (0.4 s a step), over real sockets.
@Suite("Ride booking", .serialized)
struct RideBookingTests {
    static let step = ["INTENTD_RIDE_SECONDS_PER_STEP": "0.4"]

    func host(_ extensions: String = "rides") throws -> TestHost {
        let host = try TestHost(["--extensions", extensions, "--pass-env", "INTENTD_RIDE_SECONDS_PER_STEP"], environment: Self.step)
        try host.waitFor(["Zippy"])
        return host
    }

    @discardableResult
    func send(_ host: TestHost, _ intent: String, _ parameters: String...) throws -> JSONValue {
        let result = try host.ctl(["send", "Zippy", intent] + parameters + ["--json"])
        return result.json ?? ["stderr": .string(result.stderr)]
    }

    /// Starts `intentctl watch Zippy --json` for `seconds`; returns the process and its output file.
    func watch(_ host: TestHost, seconds: Int) throws -> (Process, URL) {
        let output = host.state.appendingPathComponent("watch-\(UUID().uuidString).jsonl")
        let p = try TestHost.launch(
            Products.url("intentctl"), ["watch", "Zippy", "--json", "--for", String(seconds), "--state-dir", host.state.path],
            output: output, environment: [:])
        usleep(500_000)  // let the subscription reach the host before anything is published
        return (p, output)
    }

    func rideStatus(_ outcome: JSONValue) -> JSONValue? { outcome["response"]?["response"]?["rideStatus"] }

    @Test("Four RequestRide handles at once book one ride: the check for a ride under way and the booking are one write")
    func concurrentBookingsBookOneRide() throws {
        let host = try host()
        defer { host.stop(); host.removeState() }
        // Sent together on one connection: the host passes them on at once, and the
        // extension runs their handlers side by side.
        let client = try Flooder(host)
        for i in 0..<4 {
            let body = #"{"sessionId":"s","language":"en","intent":"RequestRide","parameters":{"dropOffLocation":"Ferry Building"},"idempotencyKey":"ride-key-\#(i)-0123456789"}"#
            try client.stage(count: 1, app: "Zippy", intent: "RequestRide", .handle, raw: body)
        }
        var codes: [String] = []
        var frames: [Message] = []
        for _ in 0..<4 {
            let n = try #require(try client.socket.receiveFrames(into: &frames, wait: true))
            guard case .result(_, let body) = try HostToClient(frames: frames[..<n]) else {
                codes.append("error")
                continue
            }
            codes.append(try JSON.decode(IntentResponse.self, from: body.bytes).code)
        }
        #expect(codes.filter { $0 == "success" }.count == 1, "\(codes)")
        #expect(codes.filter { $0 == "failureRequiringAppLaunchPreviousRideNeedsCompletion" }.count == 3, "\(codes)")
    }

    @Test("A party size or rating too large for a whole number is unsupported, and Zippy keeps running")
    func hugeNumbersAreUnsupported() throws {
        let host = try host()
        defer { host.stop(); host.removeState() }
        for (intent, parameter) in [("RequestRide", "partySize"), ("SendRideFeedback", "rating")] {
            for value in [1e300, -1e300, 7] {
                let request = StageRequest(sessionId: "s", language: "en", intent: intent, parameters: [parameter: .number(value)], parameter: parameter)
                let reply = try JSON.decode(ResolveReply.self, from: try host.client(timeout: .seconds(10)).stage(app: "Zippy", intent: intent, stage: .resolve, request))
                guard case .unsupported? = reply.results.first else {
                    Issue.record("\(intent).\(parameter) = \(value): \(reply.results)")
                    continue
                }
            }
        }
        #expect(try send(host, "ListRideOptions")["outcome"] == "success", "Zippy still answers")
    }

    @Test("A pickup time Zippy cannot keep is refused with its reason, not dropped: later than now, gone by, or a day without a time")
    func pickupTimeItCannotKeep() throws {
        let host = try host()
        defer { host.stop(); host.removeState() }
        let now = Date()
        let cases: [(String, String?)] = [
            (now.formatted(.iso8601), nil),
            (now.addingTimeInterval(10 * 60).formatted(.iso8601), "cannotBookAhead"),
            (now.addingTimeInterval(24 * 3600).formatted(.iso8601), "cannotBookAhead"),
            (now.addingTimeInterval(-30 * 60).formatted(.iso8601), "alreadyPast"),
            ("2026-11-24", "cannotBookAhead"),
        ]
        for (time, reason) in cases {
            let request = StageRequest(
                sessionId: "s", language: "en", intent: "RequestRide",
                parameters: ["dropOffLocation": "Ferry Building", "scheduledPickupTime": .string(time)], parameter: "scheduledPickupTime")
            let reply = try JSON.decode(
                ResolveReply.self, from: try host.client(timeout: .seconds(10)).stage(app: "Zippy", intent: "RequestRide", stage: .resolve, request))
            switch reply.results.first {
            case .success?: #expect(reason == nil, "\(time) was taken")
            case .unsupported(let said)?: #expect(said == reason, "\(time): \(String(describing: said))")
            default: Issue.record("\(time): \(reply.results)")
            }
        }
    }

    @Test("A ride is confirmed, booked, watched through every phase to completion, and rated; the rating pushes no update")
    func fullRide() throws {
        let host = try host()
        defer { host.stop(); host.removeState() }
        let unconfirmed = try send(host, "RequestRide", "dropOffLocation=Ferry Building", "rideOptionName=van")
        #expect(unconfirmed["code"] == "userConfirmationRequired", "the host asks the user before handle")
        #expect(unconfirmed["resolutions"]?.arrayValue?.first?["results"]?.arrayValue?.first?["value"]?["name"] == "Current Location",
            "a missing pickup defaults to the current location")

        let (watcher, output) = try watch(host, seconds: 6)
        let booked = try send(host, "RequestRide", "dropOffLocation=Ferry Building", "rideOptionName=van", "partySize=3", "--confirm")
        #expect(booked["outcome"] == "success")
        let id = try #require(rideStatus(booked)?["rideIdentifier"]?.stringValue)
        #expect(rideStatus(booked)?["rideOption"] == "Zippy Van")

        let early = try send(host, "SendRideFeedback", "rideIdentifier=\(id)", "rating=5")
        #expect(early["outcome"] == "failure", "feedback waits for the ride to end")

        watcher.waitUntilExit()
        let updates = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSON.decode(Update.self, from: Array($0.utf8)) }
            .filter { $0.payload["rideIdentifier"]?.stringValue == id }
        let phases = updates.compactMap { $0.payload["phase"]?.stringValue }
        #expect(phases.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
            == ["received", "confirmed", "approachingPickup", "pickup", "ongoing", "completed"])
        let etas = updates.compactMap { $0.payload["estimatedPickupSeconds"]?.numberValue }
        #expect(etas.count >= 2 && etas == etas.sorted(by: >), "the ETA counts down: \(etas)")

        // Feedback on the ride that ended is no news of it: no update is pushed.
        let (afterwards, afterwardsOutput) = try watch(host, seconds: 3)
        let rated = try send(host, "SendRideFeedback", "rideIdentifier=\(id)", "rating=5", "tip=2.5")
        #expect(rated["outcome"] == "success")
        afterwards.waitUntilExit()
        let pushedAfterwards = try String(contentsOf: afterwardsOutput, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSON.decode(Update.self, from: Array($0.utf8)) }
            .filter { $0.payload["rideIdentifier"]?.stringValue == id }
        #expect(pushedAfterwards.isEmpty, "a rating pushed the ride again: \(pushedAfterwards.count) updates")
        #expect(rideStatus(try send(host, "GetRideStatus"))?["rating"] == 5)
        #expect(try send(host, "SendRideFeedback", "rideIdentifier=\(id)", "rating=9")["code"] == "unsupported")
        let unnamed = try send(host, "SendRideFeedback", "rating=4", "tip=1")
        #expect(unnamed["outcome"] == "success", "feedback without a ride goes to the last one completed: \(unnamed)")
        #expect(rideStatus(try send(host, "GetRideStatus"))?["rating"] == 4)
        // Feedback that gives nothing asks for the stars and erases nothing; a tip alone
        // keeps the rating.
        let empty = try send(host, "SendRideFeedback")
        #expect(empty["code"] == "needsValue" && empty["outcome"] == "needsUserInput", "\(empty)")
        #expect(try send(host, "SendRideFeedback", "tip=3")["outcome"] == "success")
        #expect(rideStatus(try send(host, "GetRideStatus"))?["rating"] == 4)
        #expect(rideStatus(try send(host, "GetRideStatus"))?["tip"] == 3)
        let asked = try host.ctl("ask", "rate it", "--answer", "yes", "--answer", "5")
        #expect(asked.stdout.contains("How many stars, from 1 to 5?"), "\(asked.stdout)")
        // The words say which ride the feedback went to, and what was sent.
        #expect(asked.stdout.contains("Thanks, I sent your feedback on your Zippy Van ride to Ferry Building: 5 of 5 stars."), "\(asked.stdout)")
        #expect(rideStatus(try send(host, "GetRideStatus"))?["rating"] == 5)
    }

    @Test("A ride can be cancelled before pickup but not after; then a new one can be booked")
    func cancellation() throws {
        let host = try host()
        defer { host.stop(); host.removeState() }
        let first = try #require(rideStatus(try send(host, "RequestRide", "dropOffLocation=Union Square", "--confirm"))?["rideIdentifier"]?.stringValue)
        #expect(try send(host, "CancelRide", "rideIdentifier=\(first)", "--confirm")["outcome"] == "success")
        #expect(rideStatus(try send(host, "GetRideStatus"))?["phase"] == "cancelled")

        let second = try #require(rideStatus(try send(host, "RequestRide", "dropOffLocation=Home", "--confirm"))?["rideIdentifier"]?.stringValue)
        usleep(2_400_000)  // past pickup (step 5)
        let late = try send(host, "CancelRide", "rideIdentifier=\(second)", "--confirm")
        #expect(late["outcome"] == "failure")
        #expect(try send(host, "CancelRide", "rideIdentifier=ride-nope", "--confirm")["code"] == "unsupported")
    }

    @Test("No service outside the coverage area, and one ride at a time")
    func refusals() throws {
        let host = try host()
        defer { host.stop(); host.removeState() }
        // A place outside the area is refused where it is resolved, with why.
        for intent in ["RequestRide", "ListRideOptions"] {
            let outside = try send(host, intent, "dropOffLocation=Airport", "--confirm")
            let reasons = (outside["resolutions"]?.arrayValue ?? []).flatMap { $0["results"]?.arrayValue ?? [] }.compactMap { $0["reason"]?.stringValue }
            #expect(outside["code"] == "unsupported" && reasons == ["outsideArea"], "\(intent): \(outside)")
        }
        #expect(try send(host, "RequestRide", "dropOffLocation=Ferry Building", "--confirm")["outcome"] == "success")
        #expect(try send(host, "RequestRide", "dropOffLocation=Home", "--confirm")["code"] == "failureRequiringAppLaunchPreviousRideNeedsCompletion")
        #expect(try send(host, "RequestRide", "dropOffLocation=Narnia", "--confirm")["code"] == "unsupported")
        let options = try send(host, "ListRideOptions", "dropOffLocation=Home")
        #expect(options["response"]?["response"]?["rideOptions"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
            == ["Zippy Pool", "Zippy X", "Zippy Van"], "the options come from the app's vocabulary file")
    }

    @Test("A cancelled ride and a ride in progress both survive the extension being killed; the ride continues where it was")
    func rideSurvivesRestart() throws {
        let host = try host()
        defer { host.stop(); host.removeState() }
        let cancelled = try #require(rideStatus(try send(host, "RequestRide", "dropOffLocation=Home", "--confirm"))?["rideIdentifier"]?.stringValue)
        #expect(try send(host, "CancelRide", "rideIdentifier=\(cancelled)", "--confirm")["outcome"] == "success")
        let id = try #require(rideStatus(try send(host, "RequestRide", "dropOffLocation=Golden Gate Park", "--confirm"))?["rideIdentifier"]?.stringValue)
        usleep(900_000)
        let pid = try #require(try host.client().status().extensions.first?.processIdentifiers.first)
        try host.killAndWaitForRestart("Zippy", pid: pid)
        let status = rideStatus(try send(host, "GetRideStatus"))
        #expect(status?["rideIdentifier"] == .string(id))
        #expect(status?["phase"] != "received", "time kept running while the extension was down")
        usleep(3_000_000)
        #expect(rideStatus(try send(host, "GetRideStatus"))?["phase"] == "completed")
        #expect(try send(host, "SendRideFeedback", "rideIdentifier=\(id)", "rating=4", "tip=1")["outcome"] == "success")

        // The cancelled ride is still cancelled in Zippy's own database.
        let path = host.state.appendingPathComponent("sandboxes/com.zippy.rides.intents/zippy.sqlite").path
        var configuration = Configuration()
        configuration.readonly = true
        let rides = try DatabaseQueue(path: path, configuration: configuration)
        #expect(try rides.read { try Bool.fetchOne($0, sql: "SELECT cancelled FROM ride WHERE identifier = ?", arguments: [cancelled]) } == true)
        #expect(try rides.read { try Int.fetchOne($0, sql: "SELECT rating FROM ride WHERE identifier = ?", arguments: [id]) } == 4)
    }

    @Test("RequestRide and CancelRide wait for an unlock; status shows all three extensions")
    func lockAndStatus() throws {
        let host = try host("messaging,lists,rides")
        defer { host.stop(); host.removeState() }
        let status = try host.waitFor(["MonkeyChat", "List-o-Mat", "Zippy"])
        #expect(status.extensions.first { $0.appName == "Zippy" }?.intentsRestrictedWhileLocked == ["RequestRide", "CancelRide"])
        #expect(try host.ctl("lock").status == 0)
        #expect(try send(host, "RequestRide", "dropOffLocation=Home", "--confirm")["code"] == "requiresUnlock")
        #expect(try send(host, "ListRideOptions")["outcome"] == "success")
        let text = try host.ctl("status").stdout
        for name in ["MonkeyChat", "List-o-Mat", "Zippy"] { #expect(text.contains(name)) }
    }
}
