import Foundation
import IntentProtocol
import Testing

/// The console in headless Chromium, against a real host with MonkeyChat, List-o-Mat and
/// Zippy launched in their sandboxes (Zippy's fleet at a second a step). Each test leaves
/// screenshots in `.build/console-screenshots/`.
@Suite("Console in a browser", .serialized)
struct ConsoleBrowserTests {
    static let apps = ["MonkeyChat", "List-o-Mat", "Zippy"]

    /// A host with the three apps and the console on a free port; the console's address.
    func host(extensions: String = "messaging,lists,rides", more: [String] = [], arguments: [String] = []) throws -> (TestHost, String) {
        let host = try TestHost(
            ["--extensions", extensions, "--http", "127.0.0.1:0", "--pass-env", "INTENTD_RIDE_SECONDS_PER_STEP"] + arguments,
            environment: ["INTENTD_RIDE_SECONDS_PER_STEP": "1"])
        do {
            try host.waitFor(Self.apps + more)
            let file = host.state.appendingPathComponent("console.url")
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                if let url = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !url.isEmpty {
                    return (host, url)
                }
                usleep(50_000)
            }
            throw TestError("the console never said where it listens\n\(host.hostLog)")
        } catch {
            // The caller's defer is not set up yet: stop the host here.
            host.stop()
            host.removeState()
            throw error
        }
    }

    /// The address the host wrote to STATE/console.url, or "" if it wrote none within 10 s.
    static func consoleURL(of host: TestHost) -> String {
        let file = host.state.appendingPathComponent("console.url")
        let deadline = ContinuousClock.now + .seconds(10)
        var url = ""
        while url.isEmpty && ContinuousClock.now < deadline {
            url = (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            usleep(50_000)
        }
        return url
    }

    /// Opens the console and waits until it shows the three apps.
    func open(_ url: String) throws -> Browser {
        let browser = try Browser()
        try browser.open(url)
        try browser.wait(for: "document.querySelectorAll('article.app').length >= 3")
        return browser
    }

    /// A host with the three apps (and `arguments`), its console open in a browser, for `body`.
    func withConsole(arguments: [String] = [], _ body: (TestHost, Browser) throws -> Void) throws {
        let (host, url) = try host(arguments: arguments)
        defer { host.stop(); host.removeState() }
        let browser = try open(url)
        defer { browser.close() }
        try body(host, browser)
    }

    /// Says `text` in the console's chat and waits for the host's next turn; returns its text.
    @discardableResult
    func say(_ browser: Browser, _ text: String) throws -> String {
        let before = try browser.eval("document.querySelectorAll('.turn.host').length").numberValue ?? 0
        try browser.type(text, into: "#utterance")
        try browser.wait(for: "document.querySelectorAll('.turn.host').length > \(Int(before))")
        return try browser.eval("[...document.querySelectorAll('.turn.host')].pop().textContent").stringValue ?? ""
    }

    @Test("The console opens with its token, shows all three apps and changes their authorization; without the token the page, its API and its websocket are refused")
    func tokenAndApps() throws {
        let (host, url) = try host()
        defer { host.stop(); host.removeState() }
        let token = try #require(url.split(separator: "=").last.map(String.init))
        let base = String(url.prefix(while: { $0 != "?" }))
        let mode = try FileManager.default.attributesOfItem(atPath: host.state.appendingPathComponent("console-token").path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the token file is the owner's alone")

        let browser = try Browser()
        defer { browser.close() }
        try browser.open(base)
        #expect(try browser.eval("document.body.innerText").stringValue?.contains("needs its token") == true)
        #expect(try browser.eval("document.querySelectorAll('article.app').length") == 0)
        try browser.screenshot("refused")
        let wrong = String(token.reversed())
        #expect(try browser.eval("fetch('/api/state').then(r => r.status)") == 401)
        #expect(try browser.eval("fetch('/api/state?token=\(wrong)').then(r => r.status)") == 401)
        // A wrong token, most often an old one, hears where the console's address is now.
        try browser.open(base + "?token=" + wrong)
        #expect(try browser.eval("document.body.innerText").stringValue?.contains("open the address in STATE/console.url") == true)
        #expect(try browser.eval("fetch('/api/lock', {method: 'POST', body: '{\"locked\": true}'}).then(r => r.status)") == 401)
        #expect(try browser.eval("fetch('/console.js').then(r => r.status)") == 401)
        let socket = """
            new Promise(done => { const w = new WebSocket('ws://' + location.host + '/ws?token=%@');
              w.onmessage = () => done('open'); w.onerror = () => done('refused'); setTimeout(() => done('silent'), 5000); })
            """
        #expect(try browser.eval(socket.replacingOccurrences(of: "%@", with: wrong)) == "refused")
        #expect(try host.client().status().locked == false, "the refused lock request changed nothing")

        try browser.open(url)
        try browser.wait(for: "document.querySelectorAll('article.app').length >= 3")
        #expect(try browser.eval(socket.replacingOccurrences(of: "%@", with: token)) == "open")
        // HEAD is answered as GET is, without the body, and refused as GET is without the token.
        let head = """
            Promise.all([fetch('/?token=\(token)', {method: 'HEAD'}), fetch('/?token=\(token)'), fetch('/console.js', {method: 'HEAD'})])
              .then(async ([h, g, refused]) => [h.status, h.headers.get('content-length') === g.headers.get('content-length'), (await h.text()).length, refused.status])
            """
        #expect(try browser.eval(head) == [200, true, 0, 401])
        let names = try browser.eval("[...document.querySelectorAll('article.app')].map(n => n.dataset.app).sort((a, b) => a < b ? -1 : 1)")
        #expect(names == .array(Self.apps.sorted().map { .string($0) }))
        let zippy = "document.querySelector('article.app[data-app=\"Zippy\"]')"
        #expect(try browser.eval("\(zippy).querySelector('.chip.restricted[data-intent=\"RequestRide\"]') !== null") == true)
        #expect(try browser.eval("\(zippy).textContent").stringValue?.contains("sandboxed") == true)
        #expect(try browser.eval("\(zippy).textContent").stringValue?.contains("running") == true)
        try browser.screenshot("apps")

        // Authorization is changed from the page, one button per decision, and the host keeps it.
        let decisions = "[data-authorize=\"Zippy\"]"
        try browser.click("\(decisions) button[data-decision=\"deny\"]")
        try browser.wait(for: "\(zippy).querySelector('[data-authorization]').dataset.authorization === 'denied'")
        #expect(try host.client().status().extensions.first { $0.appName == "Zippy" }?.authorization == .denied)
        #expect(try host.ctl("send", "Zippy", "GetRideStatus").status == 4, "a denied app's intents are refused")
        try browser.wait(for: "document.querySelector('\(decisions) button[data-decision=\"deny\"]').getAttribute('aria-pressed') === 'true'")

        // "Ask again" forgets what the app taught the assistant: it asks first, and the
        // question stays while the page takes its status every second.
        try browser.click("\(decisions) button[data-decision=\"reset\"]")
        try browser.wait(for: "document.querySelector('\(decisions) [data-decision=\"reset-confirmed\"]') !== null")
        _ = try browser.eval("new Promise(done => setTimeout(done, 2500))")
        #expect(try browser.eval("document.querySelector('\(decisions) [data-decision=\"reset-confirmed\"]') !== null") == true)
        #expect(try host.client().status().extensions.first { $0.appName == "Zippy" }?.authorization == .denied)
        try browser.click("\(decisions) [data-decision=\"reset-confirmed\"]")
        try browser.wait(for: "\(zippy).querySelector('[data-authorization]').dataset.authorization === 'notDetermined'")
        #expect(try host.client().status().extensions.first { $0.appName == "Zippy" }?.authorization == .notDetermined)
        // Not asked yet is no decision: no button shows as the current one.
        try browser.wait(for: "document.querySelector('\(decisions) button[data-decision=\"reset\"]') !== null")
        #expect(try browser.eval("[...document.querySelectorAll('\(decisions) button[aria-pressed=\"true\"]')].length") == 0)
        #expect(try browser.problems() == [])
    }

    @Test("Locking in the console refuses SendMessage, and a conversation asks to unlock, then sends once unlocked from the page")
    func lockToggle() throws {
        try withConsole { host, browser in
            #expect(try host.ctl("authorize", "MonkeyChat", "allow").status == 0)
            try browser.click("#lock")
            try browser.wait(for: "document.getElementById('lock').dataset.locked === 'true'")
            #expect(try host.client().status().locked, "the host is locked")
            try browser.wait(for: "document.querySelector('[data-app=\"MonkeyChat\"] .chip.refused[data-intent=\"SendMessage\"]') !== null")
            let refused = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Bobo the Great", "content=hello", "--json")
            #expect(refused.status == 4, "refused while locked")
            #expect(refused.json?["code"] == "requiresUnlock")

            #expect(try say(browser, "Send a message to Kiki on MonkeyChat saying bring bananas").contains("unlock your device first"))
            try browser.screenshot("locked")
            try browser.wait(for: "[...document.querySelectorAll('#choices button')].some(b => b.textContent === 'Unlock and continue')")
            try browser.click("#choices button")
            try browser.wait(for: "document.querySelector('.turn.host.completed') !== null")
            #expect(try browser.eval("document.querySelector('.turn.host.completed').textContent").stringValue?.contains("I sent") == true)
            try browser.wait(for: "document.getElementById('lock').dataset.locked === 'false'")
            #expect(try host.client().status().locked == false)

            try browser.click("#lock")
            try browser.wait(for: "document.getElementById('lock').dataset.locked === 'true'")
            try browser.click("#lock")
            try browser.wait(for: "document.getElementById('lock').dataset.locked === 'false'")
            let sent = try host.ctl("send", "MonkeyChat", "SendMessage", "recipients=Bobo the Great", "content=hello", "--json")
            #expect(sent.status == 0, "sent once unlocked: \(sent.stdout)")

            // Unlocked elsewhere while the conversation waits: the page offers only to continue.
            try browser.click("#lock")
            try browser.wait(for: "document.getElementById('lock').dataset.locked === 'true'")
            #expect(try say(browser, "Send a message to Kiki on MonkeyChat saying see you").contains("unlock your device first"))
            #expect(try host.ctl("unlock").status == 0)
            try browser.wait(for: "[...document.querySelectorAll('#choices button')].some(b => b.textContent === 'Continue')")
            try browser.click("#choices button")
            try browser.wait(for: "document.querySelectorAll('.turn.host.completed').length >= 2")
        }
    }

    @Test("A conversation in the console asks for permission, which Bobo, and ends with the message sent")
    func conversation() throws {
        try withConsole { host, browser in
            #expect(try say(browser, "MonkeyChat Bobo send more bananas").contains("Allow it?"))
            #expect(try say(browser, "yes").contains("Which one"))
            try browser.wait(for: "[...document.querySelectorAll('#choices button')].some(b => b.textContent === 'Bobo the Great')")
            try browser.click("#choices button:nth-child(2)")  // the numbered choices, as buttons
            try browser.wait(for: "document.querySelector('.turn.host.completed') !== null")
            let last = try browser.eval("document.querySelector('.turn.host.completed').textContent").stringValue ?? ""
            #expect(last.contains("I sent “send more bananas” to Bobo the Great"))
            try browser.wait(for: "document.querySelector('[data-app=\"MonkeyChat\"] [data-authorization]').dataset.authorization === 'authorized'")
            // The conversation's stages are counted in MonkeyChat's traffic.
            try browser.wait(for: "document.querySelector('#throughput polyline[data-app=\"MonkeyChat\"]') !== null")
            try browser.screenshot("conversation")

            usleep(4_000_000)  // past the gap that breaks a line: the next request's second stands alone
            let found = try host.ctl("send", "MonkeyChat", "SearchForMessages", "searchTerms=bananas", "--json")
            #expect(found.stdout.contains("Bobo the Great"), "MonkeyChat has the message")
            // Every second with a latency is drawn, one alone as a dot (a line of one point shows nothing).
            try browser.wait(for: "document.querySelector('#latency circle.sample[data-app=\"MonkeyChat\"]') !== null")
            try browser.wait(for: """
                state.traffic.filter((s) => (s.apps || []).some((a) => a.app === 'MonkeyChat' && a.meanMilliseconds != null)).length
                  === [...document.querySelectorAll('#latency polyline[data-app="MonkeyChat"]')].reduce((n, p) => n + p.getAttribute('points').split(' ').length, 0)
                    + document.querySelectorAll('#latency circle.sample[data-app="MonkeyChat"]').length
                """)
        }
    }

    @Test("A question left unanswered past its time says so in the page, its buttons go, and the next line starts a new request")
    func unansweredQuestion() throws {
        try withConsole(arguments: ["--session-timeout", "2"]) { _, browser in
            #expect(try say(browser, "MonkeyChat Bobo send more bananas").contains("Allow it?"))
            try browser.wait(for: "[...document.querySelectorAll('.turn.note')].some(n => n.textContent.includes('No answer within 2 s'))")
            #expect(try browser.eval("document.querySelectorAll('#choices button').length") == 0)
            try browser.screenshot("unanswered-question")
            #expect(try say(browser, "What can you do?").contains("Here is what you can ask"))
        }
    }

    @Test("A question the user is typing the answer to keeps waiting past its time, and takes the answer")
    func typingKeepsTheQuestion() throws {
        try withConsole(arguments: ["--session-timeout", "2"]) { _, browser in
            #expect(try say(browser, "MonkeyChat Bobo send more bananas").contains("Allow it?"))
            // Typed slowly, a key every 0.3 s for 5 s: more than twice the question's time.
            for _ in 0..<17 {
                _ = try browser.eval("(() => { const box = document.getElementById('utterance'); box.value = box.value ? box.value : 'y'; box.dispatchEvent(new Event('input')); return 0 })()")
                usleep(300_000)
            }
            #expect(try browser.eval("[...document.querySelectorAll('.turn.note')].some(n => n.textContent.includes('No answer within'))") == false)
            _ = try browser.eval("(() => { document.getElementById('utterance').value = ''; return 0 })()")
            let answer = try say(browser, "yes")
            try browser.screenshot("typing-keeps-the-question")
            #expect(!answer.contains("Allow it?") && !answer.contains("Sorry"), "\(answer)")
            #expect(answer.contains("Bobo"), "\(answer)")
        }
    }

    @Test("With the host gone, what is said gets an error and stays in the box, the next try too, and the apps show as last seen")
    func hostGone() throws {
        let (host, url) = try host()
        defer { host.removeState() }
        let browser = try open(url)
        defer { browser.close() }
        host.stop()
        try browser.wait(for: "document.body.classList.contains('offline')")
        #expect(try browser.eval("document.getElementById('connection').textContent").stringValue?.contains("as last seen") == true)
        for attempt in 1...2 {
            try browser.type("add milk to my grocery list", into: "#utterance")
            try browser.wait(for: "document.querySelectorAll('.turn.note').length >= \(attempt)")
            let last = try browser.eval("[...document.querySelectorAll('.turn.note')].pop().textContent").stringValue ?? ""
            #expect(last.contains("intentd cannot be reached"), "\(last)")
            #expect(try browser.eval("document.getElementById('utterance').value") == "add milk to my grocery list")
            _ = try browser.eval("document.getElementById('utterance').value = ''")
        }
        try browser.screenshot("host-gone")
    }

    @Test("Text past what the box holds is not dropped silently: the page says so")
    func fullBox() throws {
        try withConsole { _, browser in
            try browser.type(String(repeating: "a", count: 1_200), into: "#utterance")
            try browser.wait(for: "[...document.querySelectorAll('.turn.note')].some(n => n.textContent.includes('The box holds at most 1000 characters'))")
        }
    }

    @Test("Text from the conversation is shown as text, never run as markup")
    func escaping() throws {
        try withConsole { _, browser in
            let hostile = "<img src=x onerror=\"window.owned = 1\">Send <b>Kiki</b> a message on MonkeyChat"
            try say(browser, hostile)
            _ = try browser.eval("new Promise(done => setTimeout(done, 300))")
            #expect(try browser.eval("window.owned === undefined") == true)
            #expect(try browser.eval("document.querySelectorAll('#transcript img, #transcript b').length") == 0)
            #expect(try browser.eval("document.querySelector('.turn.user').textContent") == .string(hostile))
        }
    }

    @Test("An app name a hostile extension registers is shown as text, never run as markup")
    func hostileAppName() throws {
        let (host, url) = try host()
        defer { host.stop(); host.removeState() }
        var registration = try Manifests.monkeyChat()
        registration.appName = "<img src=x onerror=\"window.owned = 1\">Hostile"
        registration.alternativeAppNames = []
        registration.bundleIdentifier = "com.hostile.intents"
        let (_, peer) = try RawPeer.register(
            registration, at: host.extensionEndpoint, as: host.extensionSecurity(trustedFor: "com.hostile.intents"))
        defer { _ = peer }
        let browser = try open(url)
        defer { browser.close() }
        try browser.wait(for: "document.body.innerText.includes('Hostile')")
        _ = try browser.eval("new Promise(done => setTimeout(done, 300))")
        #expect(try browser.eval("window.owned === undefined") == true)
        #expect(try browser.eval("document.querySelectorAll('main img').length") == 0)
        try browser.screenshot("hostile")
    }

    @Test("A flood of large updates from a hostile extension leaves the page responsive, its transcript bounded, and its ride named for the app that sent it")
    func updateFlood() throws {
        try withConsole { host, browser in
            let (answer, peer) = try RawPeer.register(
                Registration(bundleIdentifier: "com.hostile.flood", appName: "Flood", usageDescription: "floods", intentsSupported: ["SearchForMessages"]),
                at: host.extensionEndpoint, as: host.extensionSecurity(trustedFor: "com.hostile.flood"))
            #expect(answer == "registered")
            let summary = String(repeating: "Zippy is here ", count: 4_000)
            let ride = Body(Array(#"{"rideIdentifier": "fake", "phase": "approachingPickup", "summary": "\#(summary)"}"#.utf8))
            for _ in 0..<1_500 { _ = try ExtensionMessage.update(topic: "ride", body: ride).send(on: peer.socket) }
            try browser.wait(for: "document.getElementById('ride-summary').textContent.startsWith('Flood: ')")
            _ = try browser.eval("new Promise(done => setTimeout(done, 1500))")
            let turns = try browser.eval("document.getElementById('transcript').childElementCount").numberValue ?? .infinity
            #expect(turns <= 200)
            let floodNotes = try browser.eval("[...document.querySelectorAll('#transcript .note')].filter(n => n.textContent.startsWith('Flood')).length")
            #expect(floodNotes.numberValue == 1, "a stream of updates from one app is one line")
            let longest = try browser.eval("Math.max(...[...document.querySelectorAll('#transcript .turn, #updates li')].map(n => n.textContent.length))")
            #expect((longest.numberValue ?? .infinity) < 400)
            #expect((try browser.eval("document.getElementById('ride-summary').textContent.length").numberValue ?? .infinity) < 400)
            // A phase named like a property every object has is shown as the app said it.
            let odd = Body(Array(#"{"rideIdentifier": "fake", "phase": "constructor", "summary": "odd"}"#.utf8))
            _ = try ExtensionMessage.update(topic: "ride", body: odd).send(on: peer.socket)
            try browser.wait(for: "document.getElementById('ride-phase').textContent === 'constructor'")
            // Still the user's: a conversation goes on as before.
            #expect(try say(browser, "what can you do").contains("MonkeyChat"))
            try browser.screenshot("update-flood")
        }
    }

    @Test("A ride requested in the console is drawn on Zippy's map, and the car moves toward the pickup")
    func ride() throws {
        let (host, url) = try host(extensions: "messaging,lists,rides,bench", more: ["Bench"])
        defer { host.stop(); host.removeState() }
        // A load test first (whole lifecycles, which the traffic charts count), so the page
        // shows its percentiles and its throughput.
        let bench = try host.ctl("bench", "--mode", "lifecycle", "--requests", "600", "--warmup", "20", "--quiet")
        #expect(bench.status == 0, "\(bench.stderr)")
        let browser = try open(url)
        defer { browser.close() }
        try browser.wait(for: "document.querySelector('#map .area') !== null")
        try browser.wait(for: "document.querySelector('#bench-chart polyline') !== null")

        #expect(try say(browser, "Get me a Zippy to the Ferry Building").contains("Allow it?"))
        #expect(try say(browser, "yes").contains("Request a Zippy"))
        #expect(try say(browser, "yes").contains("is booked"))
        try browser.wait(for: "document.getElementById('car') !== null")
        let first = try browser.eval("document.getElementById('car').getAttribute('cx') + ',' + document.getElementById('car').getAttribute('cy')")
        try browser.wait(
            for: "document.getElementById('car').getAttribute('cx') + ',' + document.getElementById('car').getAttribute('cy') !== \(String(decoding: first.serialized(), as: UTF8.self))")
        try browser.wait(for: "document.getElementById('ride-phase').textContent === 'driver on the way'")
        // The car is nearer the pickup than where it set out.
        let distance = """
            (() => { const c = document.getElementById('car'), p = document.querySelector('#map .pickup');
              return Math.hypot(c.getAttribute('cx') - p.getAttribute('cx'), c.getAttribute('cy') - p.getAttribute('cy')); })()
            """
        let start = try browser.eval("document.querySelector('#map .trail').getAttribute('points').split(' ')[0]").stringValue ?? ""
        let coordinates = start.split(separator: ",").compactMap { Double($0) }
        #expect(coordinates.count == 2)
        let startDistance = try browser.eval(
            "Math.hypot(\(coordinates.first ?? 0) - document.querySelector('#map .pickup').getAttribute('cx'), \(coordinates.last ?? 0) - document.querySelector('#map .pickup').getAttribute('cy'))")
        #expect((try browser.eval(distance).numberValue ?? .infinity) < (startDistance.numberValue ?? 0))
        try browser.wait(for: "document.querySelector('#throughput polyline[data-app=\"Zippy\"]') !== null")
        #expect(try browser.eval("document.querySelector('#throughput polyline[data-app=\"Bench\"]') !== null") == true)
        #expect(try browser.eval("document.querySelector('#bench-table').textContent").stringValue?.contains("600 of 600") == true)
        // No label on the map covers another: the car's, the ride's places and the landmarks.
        let overlapping = """
            (() => { const boxes = [...document.querySelectorAll('#map text:not(.caption)')].map((t) => [t.textContent, t.getBBox()]);
              const hit = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
              return boxes.flatMap(([n, a], i) => boxes.slice(i + 1).filter(([, b]) => hit(a, b)).map(([m]) => n + ' / ' + m)); })()
            """
        #expect(try browser.eval(overlapping) == [], "labels overlap on the map")
        // Three labels for points close together are set apart, not drawn over each other.
        let crowded = """
            (() => { const map = document.getElementById('map'), before = map.childNodes.length, label = labeller(map, 420, 360);
              label(200, 200, 8, 'Union Square', {}, 10); label(204, 202, 8, 'Ferry Building', {}, 12); label(198, 199, 12, 'car, pickup in 3 s', {}, 12);
              const added = [...map.childNodes].slice(before); const boxes = added.map((t) => t.getBBox()); added.forEach((t) => t.remove());
              const hit = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
              return boxes.some((a, i) => boxes.slice(i + 1).some((b) => hit(a, b))); })()
            """
        #expect(try browser.eval(crowded) == false, "labels of points close together overlap")
        try browser.screenshot("ride")
        #expect(try browser.problems() == [])
    }

    @Test("Served on another port than the one asked for, the console gets a new token; the address goes without it to an error stream that is no terminal")
    func takenPortRenewsTheToken() throws {
        let taken = try TCPListener()
        let host = try TestHost(["--extensions", "messaging", "--http", "127.0.0.1:\(taken.port)"], start: false)
        defer { host.stop(); host.removeState() }
        let old = String(repeating: "ab", count: 32)
        try (old + "\n").write(to: host.state.appendingPathComponent("console-token"), atomically: true, encoding: .utf8)
        try host.startHost()
        try host.waitFor(["MonkeyChat"])
        let url = Self.consoleURL(of: host)
        let token = try #require(url.split(separator: "=").last.map(String.init))
        #expect(!url.contains(":\(taken.port)/"), "\(url)")
        #expect(token != old, "a page or bookmark that goes on trying the old port would give the old token to whoever holds it")
        #expect(try String(contentsOf: host.state.appendingPathComponent("console-token"), encoding: .utf8).hasPrefix(token))
        #expect(host.hostLog.contains("has a new token"), "\(host.hostLog)")
        #expect(!host.hostLog.contains(token), "the token went to standard error, which is no terminal here")
    }

    @Test("An open page whose token the restarted host no longer takes says so, instead of reconnecting for ever")
    func refusedTokenIsSaid() throws {
        let port = try TCPListener().port  // free again once the listener is released
        let host = try TestHost(["--extensions", "messaging", "--http", "127.0.0.1:\(port)"])
        defer { host.stop(); host.removeState() }
        try host.waitFor(["MonkeyChat"])
        let url = Self.consoleURL(of: host)
        let browser = try Browser()
        defer { browser.close() }
        try browser.open(url)
        try browser.wait(for: "document.getElementById('connection').textContent === 'live'")
        // The host comes back on the same port with another token, as after the token file was lost.
        host.stop()
        try (String(repeating: "cd", count: 32) + "\n").write(to: host.state.appendingPathComponent("console-token"), atomically: true, encoding: .utf8)
        try host.startHost()
        try host.waitFor(["MonkeyChat"])
        try browser.wait(for: "document.getElementById('connection').textContent.includes('no longer accepted')")
        try browser.screenshot("token-refused")
    }

    @Test("The console listens on loopback only: intentd refuses any other address before it starts")
    func loopbackOnly() throws {
        let host = try TestHost(["--http", "0.0.0.0:8470"])
        defer { host.removeState() }
        host.process?.waitUntilExit()
        #expect(host.process?.terminationStatus != 0)
        #expect(host.hostLog.contains("is not a loopback address"))
        #expect(!FileManager.default.fileExists(atPath: host.state.appendingPathComponent("client.sock").path))
    }
}
