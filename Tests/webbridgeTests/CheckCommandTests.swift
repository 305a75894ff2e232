import BridgeContract
import BridgeTesting
import Foundation
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `webbridge check` as a user runs it: transcripts, exit codes, formats, and no values in the output.
final class CheckCommandTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BridgeTestingTests/Fixtures/BridgeFixture.html")

    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Writes the fixture with `original` replaced by `replacement` and returns its path.
    func brokenFixture(_ original: String, _ replacement: String) throws -> String {
        let html = try String(contentsOf: Self.fixture, encoding: .utf8)
        XCTAssertTrue(html.contains(original), "the fixture changed: update this test")
        let url = scratch.appendingPathComponent("page-\(UUID().uuidString).html")
        try html.replacingOccurrences(of: original, with: replacement).write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func testBundledFixturePassesWithATimeline() throws {
        let result = try CLI.run(["check"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        for event in ["load started", "ready received", "didFinish", "sync sent", "accepted"] {
            XCTAssertTrue(result.stdout.contains(event), "timeline lacks '\(event)':\n\(result.stdout)")
        }
        XCTAssertTrue(result.stdout.contains("page → native  PASS"), result.stdout)
        XCTAssertTrue(result.stdout.contains("native → page  PASS"), result.stdout)
        XCTAssertTrue(result.stdout.contains("PASS: both directions of the bridge hold"), result.stdout)
    }

    func testVersionAsStringExitsOneAsNativeDidNotReceive() throws {
        let page = try brokenFixture("version: 1", #"version: "1""#)
        let result = try CLI.run(["check", "--page", page])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("native did not receive the page's message"), result.stdout)
        XCTAssertTrue(result.stdout.contains("version: expected Number 1, found String"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("native → page  PASS"), "the other direction still works:\n\(result.stdout)")
    }

    func testThrowingReceiverExitsOneAsPageDidNotAccept() throws {
        let page = try brokenFixture(
            "window.bridgeReceive = function (message) {",
            "window.bridgeReceive = function (message) {\n  throw new Error(\"Receiver refused\");")
        let result = try CLI.run(["check", "--page", page])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("page did not accept the native message: Error: Receiver refused"), result.stdout)
        XCTAssertTrue(result.stdout.contains("page → native  PASS"), result.stdout)
    }

    func testPageWithoutPostMessageExitsOneAsNativeDidNotReceive() throws {
        let page = try brokenFixture("window.webkit.messageHandlers.bridge.postMessage(", "void(")
        let result = try CLI.run(["check", "--page", page])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("native did not receive the page's message: no valid 'ready'; nothing arrived"),
            result.stdout)
    }

    func testJUnitHasOneTestCasePerDirection() throws {
        let page = try brokenFixture("version: 1", "version: true")
        let result = try CLI.run(["check", "--page", page, "--format", "junit"])
        XCTAssertEqual(result.status, 1)
        let cases = try JUnitCases(xml: Data(result.stdout.utf8))
        XCTAssertEqual(cases.names, ["session 1: page → native", "session 1: native → page"])
        XCTAssertEqual(cases.failureTypes, ["native did not receive the page's message"])
    }

    func testJSONReportsEverySessionOfARepeatedRun() throws {
        let result = try CLI.run(["check", "--repeat", "3", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try SchemaCheck.validReport(result.stdout)
        XCTAssertEqual(document["passed"] as? Bool, true)
        XCTAssertEqual((try SchemaCheck.onlyPage(document)["sessions"] as? [Any])?.count, 3)
    }

    func testValueRoundTripsAndNeverAppearsInTheOutput() throws {
        let secret = "SECRET-\u{2028}-'\"</script>-\(UUID().uuidString)"
        for format in ["text", "json", "junit", "html"] {
            let result = try CLI.run(["check", "--value", secret, "--format", format])
            XCTAssertEqual(result.status, 0, "\(format): \(result.stdout)\(result.stderr)")
            XCTAssertFalse(
                result.stdout.contains("SECRET") || result.stderr.contains("SECRET"), "\(format) output shows the value"
            )
        }
    }

    func testUsageErrorsExitTwoWithOneLine() throws {
        let cases: [([String], String)] = [
            (["check", "--bogus"], "unknown option --bogus"),
            (["check", "--timeout", "-1"], "--timeout must be a positive number of seconds"),
            (["check", "--repeat", "0"], "--repeat must be a positive integer"),
            (["check", "--format", "xml"], "--format must be text, json, junit or html"),
            (["check", "--page", "/nonexistent/page.html"], "--page /nonexistent/page.html: no such file"),
            (["check", "--url", "ftp://example.com/"], "--url must be an absolute http:// or https:// URL"),
            (["check", "stray"], "unexpected argument 'stray'"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
    }

    func testWithoutADisplayTheCheckStartsItsOwnXvfbAndPasses() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        let result = try CLI.run(["check"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("PASS: both directions of the bridge hold"), result.stdout)
    }

    func testAnUnreadablePageWithoutADisplayExitsTwo() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        let result = try CLI.run(
            ["check", "--page", scratch.appendingPathComponent("absent.html").path], environment: environment)
        XCTAssertEqual(result.status, 2, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("absent.html"), result.stderr)
    }

    func testADisplayThatCannotBeOpenedExitsThreeNamingTheRemedy() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = ":987"  // no X server answers there
        let result = try CLI.run(["check"], environment: environment)
        XCTAssertEqual(result.status, 3, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("GTK could not open the display"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Remedy: unset DISPLAY"), result.stderr)
    }

    func testTheHeaderNamesTheContractByItsNameOrItsFile() throws {
        let body = try String(contentsOf: XCTUnwrap(BridgeContract.defaultContractURL), encoding: .utf8)
        let unnamed = scratch.appendingPathComponent("checkout-bridge.json")
        try body.write(to: unnamed, atomically: true, encoding: .utf8)
        let named = scratch.appendingPathComponent("other.json")
        try body.replacingOccurrences(of: "{", with: #"{"name": "Checkout", "#, options: [], range: body.range(of: "{"))
            .write(to: named, atomically: true, encoding: .utf8)
        for (file, shown) in [(unnamed, "checkout-bridge"), (named, "Checkout")] {
            let result = try CLI.run(["check", "--contract", file.path])
            XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
            XCTAssertTrue(
                result.stdout.hasPrefix("webbridge check: BridgeFixture.html (bundled), contract '\(shown)' v1"),
                result.stdout)
        }
    }

    func testAContractWithoutANativeMessageIsRefusedBeforeTheRun() throws {
        let contract = scratch.appendingPathComponent("no-sync.json")
        try Data(
            #"{"version": 1, "handler": "bridge", "receiver": "window.bridgeReceive", "messages": [{"kind": "ready", "direction": "page-to-native", "fields": {"version": {"type": "constant", "value": 1}}}]}"#
                .utf8
        ).write(to: contract)
        let result = try CLI.run(["check", "--contract", contract.path])
        XCTAssertEqual(result.status, 2, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stderr.contains("declares no native-to-page message for the check to send"), result.stderr)
        XCTAssertTrue(result.stderr.contains("give the check a play"), result.stderr)
    }

    /// A request/response contract (native only answers) without a play is told the play that answers, and that
    /// play, pasted as the remedy gives it, makes the check pass on a page that sends the request.
    func testARequestResponseContractWithoutAPlayIsToldAPlayThatWorks() throws {
        let contract = scratch.appendingPathComponent("request-response.json")
        var document: [String: Any] = [
            "version": 1, "handler": "bridge", "receiver": "window.bridgeReceive", "requestID": ["field": "id"],
            "messages": [
                ["kind": "getToken", "direction": "page-to-native", "fields": [String: Any]()],
                [
                    "kind": "token", "direction": "native-to-page", "acknowledges": "getToken",
                    "fields": ["token": ["type": "string"], "expires": ["type": "integer"]],
                ],
            ],
        ]
        try JSONSerialization.data(withJSONObject: document).write(to: contract)
        let page = scratch.appendingPathComponent("request.html")
        try Data(
            """
            <!doctype html><title>request</title><script>
            window.bridgeReceive = function (message) { document.body.dataset.token = message.token; };
            window.webkit.messageHandlers.bridge.postMessage({kind: "getToken", id: "r1"});
            </script>
            """.utf8
        ).write(to: page)
        let refused = try CLI.run(["check", "--contract", contract.path, "--page", page.path])
        XCTAssertEqual(refused.status, 2, refused.stdout + refused.stderr)
        XCTAssertFalse(refused.stderr.contains("declares no native-to-page message"), refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains("every native-to-page message answers a request ('token' answers 'getToken')"),
            refused.stderr)
        let remedy = try XCTUnwrap(
            refused.stderr.firstMatch(of: /add "check": (\{.*\}) to the contract/)?.1, refused.stderr)
        document["check"] = try JSONSerialization.jsonObject(with: Data(remedy.utf8))
        try JSONSerialization.data(withJSONObject: document).write(to: contract)
        let fixed = try CLI.run(["check", "--contract", contract.path, "--page", page.path])
        XCTAssertEqual(fixed.status, 0, "the remedy's play did not work:\n\(fixed.stdout)\(fixed.stderr)")
    }

    /// A `--page` with ES modules fails at once naming `--serve` (it used to wait and report that nothing
    /// arrived); with `--serve` its folder the same page passes.
    func testAModulePageWithoutServeIsRefusedAtOnceNamingServe() throws {
        let folder = scratch.appendingPathComponent("module app")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fixture = try String(contentsOf: CheckCommandTests.fixture, encoding: .utf8)
        let script = try XCTUnwrap(fixture.firstMatch(of: /<script>([\s\S]*)<\/script>/)?.1)
        try String(script).write(to: folder.appendingPathComponent("main.js"), atomically: true, encoding: .utf8)
        let page = folder.appendingPathComponent("app.html")
        try #"<!doctype html><meta charset="utf-8"><body><SCRIPT defer Type='module' src="./main.js"></SCRIPT></body>"#
            .write(to: page, atomically: true, encoding: .utf8)
        let started = Date()
        let refused = try CLI.run(["check", "--page", page.path])
        XCTAssertEqual(refused.status, 2, refused.stdout + refused.stderr)
        XCTAssertTrue(refused.stderr.contains("the page loads ES modules"), refused.stderr)
        let remedy = "Remedy: serve its folder with the check: --serve \(folder.path) --page \(page.path)"
        XCTAssertTrue(refused.stderr.contains(remedy), refused.stderr)
        XCTAssertTrue(refused.stdout.isEmpty, "refused before any session ran: \(refused.stdout)")
        XCTAssertLessThan(Date().timeIntervalSince(started), CheckConfiguration.defaultTimeout, "not at once")
        // Served, it loads. Native answers ready rather than didFinish: on a busy machine WebKit can finish the load
        // before a deferred module has run (seen: sync at didFinish met no receiver, ready came 13 ms later).
        let play = folder.appendingPathComponent("after-ready.json")
        try Data(
            #"{"steps": [{"after": "ready", "send": "sync", "value": {"value": "ok"}, "accepted": {"expression": "document.body.dataset.received", "equals": "ok"}}]}"#
                .utf8
        ).write(to: play)
        let served = try CLI.run(["check", "--serve", folder.path, "--page", page.path, "--play", play.path])
        XCTAssertEqual(served.status, 0, served.stdout + served.stderr)
    }

    func testTheHelpShowsTheDefaultsTheCheckRunsWith() throws {
        let result = try CLI.run(["check", "--help"])
        XCTAssertEqual(result.status, 0)
        let defaults = CheckConfiguration(page: .html("", baseURL: nil))
        // The option's text with its wrapped lines, up to the next option.
        let lines = result.stdout.split(separator: "\n")
        let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  --timeout SECONDS") }, result.stdout)
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("  --") } ?? lines.endIndex
        let timeout = lines[start..<end].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        let shown = try XCTUnwrap(timeout.split(separator: "(default: ").last?.split(separator: ";").first)
        XCTAssertEqual(Double(shown), defaults.timeout, "the help's --timeout default is not the check's: \(timeout)")
        XCTAssertTrue(
            result.stdout.contains("the fixture style (default: \(defaults.value))"),
            "the --value default: \(result.stdout)")
    }

    func testAMisspeltOptionIsNamedWithTheOneMeant() throws {
        let result = try CLI.run(["check", "--timout", "3"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.hasPrefix("webbridge check: unknown option --timout; did you mean --timeout?\n"),
            result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    func testHelpDescribesEveryOption() throws {
        let result = try CLI.run(["check", "--help"])
        XCTAssertEqual(result.status, 0)
        for option in ["--page", "--url", "--contract", "--value", "--timeout", "--repeat", "--format"] {
            XCTAssertTrue(result.stdout.contains(option), "help lacks \(option)")
        }
    }

    /// The fixture check needs no network: it passes in a network namespace with no interface up.
    func testFixtureCheckPassesWithNoNetwork() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
            throw XCTSkip("unshare(1) is not installed, so the network cannot be taken away")
        }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-rn", "true"]
        try probe.run()
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else {
            throw XCTSkip("this machine does not allow network namespaces (unshare -rn failed)")
        }
        let result = try CLI.runWrapped(["/usr/bin/unshare", "-rn"], ["check"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }
}

/// The test cases of a JUnit document: their names and failure types.
struct JUnitCases {
    var names: [String] = []
    var failureTypes: [String] = []

    init(xml: Data) throws {
        let parser = XMLParser(data: xml)
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.propertyListReadCorrupt) }
        names = collector.names
        failureTypes = collector.failureTypes
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var names: [String] = []
        var failureTypes: [String] = []

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if element == "testcase", let name = attributes["name"] { names.append(name) }
            if element == "failure", let type = attributes["type"] { failureTypes.append(type) }
        }
    }
}

/// Strict by default: what the XCTest helpers fail, the CLI fails too, in the same category.
final class CheckCommandStrictnessTests: XCTestCase {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webbridge-strict-\(UUID().uuidString)")

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    func page(posting scripts: [String]) throws -> String {
        let receiver =
            #"window.bridgeReceive = function (m) { document.body.dataset.received = m.value; };"#
        let url = scratch.appendingPathComponent("page-\(UUID().uuidString).html")
        let posts = scripts.map { "window.webkit.messageHandlers.bridge.postMessage(\($0));" }.joined(separator: "\n")
        try Data("<!doctype html><body><script>\n\(receiver)\n\(posts)\n</script>".utf8).write(to: url)
        return url.path
    }

    func testAnUnknownMessageBeforeTheReadyExitsOne() throws {
        let page = try page(posting: [#"{kind: "hello"}"#, #"{kind: "ready", version: 1}"#])
        let result = try CLI.run(["check", "--page", page])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("FAIL: native did not receive the page's message"), result.stdout)
        XCTAssertTrue(result.stdout.contains("{kind: String}: kind: expected one of: ready"), result.stdout)
        XCTAssertFalse(result.stdout.contains("hello"), "a value reached the output: \(result.stdout)")
    }

    func testADoubleReadyExitsOne() throws {
        let page = try page(posting: [#"{kind: "ready", version: 1}"#, #"{kind: "ready", version: 1}"#])
        let result = try CLI.run(["check", "--page", page])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("duplicate 'ready': it arrived 2 times"), result.stdout)
    }

    func testLenientListsTheDoubleReadyAndPasses() throws {
        let page = try page(posting: [#"{kind: "ready", version: 1}"#, #"{kind: "ready", version: 1}"#])
        let result = try CLI.run(["check", "--page", page, "--lenient"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("also seen: duplicate ready × 1"), result.stdout)
    }
}
