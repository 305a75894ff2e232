import BridgeContract
import EngineTestSupport
import XCTest

@testable import BridgeReports
@testable import BridgeTesting

/// The HTML report of real checks, read back from the DOM the real engine builds from it.
@MainActor
final class HTMLReportTests: XCTestCase {
    let timeout: TimeInterval = 10

    /// What the engine's DOM says about a rendered report.
    struct Diagram: Decodable {
        struct Arrow: Decodable {
            let from: String
            let event: String
            let index: Int
            let top: Double
            let lineLeft: Double
            let lineRight: Double
        }
        struct Failure: Decodable {
            let category: String
            let direction: String
            let remedy: String
        }
        let arrows: [Arrow]
        let steps: [String]
        let failing: [String]
        let failures: [Failure]
        let pageLane: Double
        let nativeLane: Double
        let summaryPages: [String]
        /// Each session's verdict and whether it starts unfolded, in document order.
        let sessions: [String]
        let csp: String?
        let resources: Int
        let external: Int
        let scripts: Int
    }

    /// Runs the real check on `html` (the bundled fixture or a broken variant).
    func check(_ html: String, timeout: TimeInterval = 10) async -> SessionReport {
        await BridgeCheck.run(CheckConfiguration(page: .html(html, baseURL: nil), timeout: timeout))
    }

    /// Loads `report` in the engine and reads the diagram of session `session` of the first page from its DOM.
    func diagram(of report: String, file: StaticString = #filePath, line: UInt = #line) async throws -> Diagram {
        let session = BridgeSession()
        defer { session.tearDown() }
        session.loadHTMLString(report)
        let finished = await session.wait(timeout: timeout) { session.loadResult != nil }
        XCTAssertTrue(finished, "the report did not finish loading within \(timeout) s", file: file, line: line)
        let script = """
            (() => {
              const center = (el) => { const r = el.getBoundingClientRect(); return r.left + r.width / 2; };
              const session = document.querySelector('.session');
              return JSON.stringify({
                arrows: [...session.querySelectorAll('.arrow')].map((el) => {
                  const line = el.querySelector('.line').getBoundingClientRect();
                  return { from: el.dataset.from, event: el.dataset.event, index: Number(el.dataset.index),
                           top: el.getBoundingClientRect().top, lineLeft: line.left, lineRight: line.right };
                }),
                steps: [...session.querySelectorAll('.step[data-index]')].map((el) => el.dataset.event),
                failing: [...session.querySelectorAll('.step.failing')].map((el) => el.dataset.event),
                failures: [...session.querySelectorAll('.failure')].map((el) => ({
                  category: el.dataset.category, direction: el.dataset.direction,
                  remedy: el.querySelector('.remedy').textContent })),
                pageLane: center(session.querySelector('.head.page')),
                nativeLane: center(session.querySelector('.head.native')),
                summaryPages: [...document.querySelectorAll('.summary .page-row')].map((el) => el.dataset.page),
                sessions: [...document.querySelectorAll('details.session')].map((el) =>
                  (el.dataset.passed === 'true' ? 'pass' : 'fail') + (el.open ? ' open' : ' folded')),
                csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? null,
                resources: performance.getEntriesByType('resource').length,
                // Links within the report (#page-2-session-1) load nothing.
                external: document.querySelectorAll(
                  '[src],[href]:not([href^="#"]),link,img,iframe,object,embed,svg image').length,
                scripts: document.scripts.length,
              });
            })()
            """
        switch await session.evaluate(script, timeout: timeout) {
        case .value(let value as String):
            return try JSONDecoder().decode(Diagram.self, from: Data(value.utf8))
        case .value(let value):
            throw Unexpected("the report's DOM query returned \(String(describing: value)), not JSON text")
        case .error(let error):
            throw Unexpected("the report's DOM query threw: \(javaScriptErrorText(error))")
        case .timedOut:
            throw Unexpected("the report's DOM query did not complete within \(timeout) s")
        }
    }

    struct Unexpected: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The report loads nothing: its policy forbids it, and it names no resource to load.
    func assertSelfContained(_ diagram: Diagram, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(diagram.csp, HTMLReport.contentSecurityPolicy, file: file, line: line)
        XCTAssertEqual(diagram.resources, 0, "the report requested resources", file: file, line: line)
        XCTAssertEqual(diagram.external, 0, "the report references external resources", file: file, line: line)
        XCTAssertEqual(diagram.scripts, 0, "the report carries a script", file: file, line: line)
    }

    /// Every arrow runs from one lane to the other, in the timeline's order, top to bottom.
    func assertArrowsFollowTheTimeline(
        _ diagram: Diagram, _ report: SessionReport, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(
            diagram.steps, report.timeline.map(\.event.rawValue), "every timeline entry, in order", file: file,
            line: line)
        let pageToNative: Set<TimelineEntry.Event> = [
            .readyReceived, .messageReceived, .messageRejected, .messageDropped, .acknowledged,
        ]
        let nativeToPage: Set<TimelineEntry.Event> = [.sent, .syncSent, .replied]
        let expected = report.timeline.enumerated().compactMap { index, entry -> String? in
            if pageToNative.contains(entry.event) { return "page \(entry.event.rawValue) \(index)" }
            if nativeToPage.contains(entry.event) { return "native \(entry.event.rawValue) \(index)" }
            return nil
        }
        XCTAssertEqual(diagram.arrows.map { "\($0.from) \($0.event) \($0.index)" }, expected, file: file, line: line)
        let tops = diagram.arrows.map(\.top)
        XCTAssertEqual(tops, tops.sorted(), "arrows are drawn top to bottom in timeline order", file: file, line: line)
        XCTAssertEqual(Set(tops).count, tops.count, "two arrows overlap", file: file, line: line)
        for arrow in diagram.arrows {
            XCTAssertEqual(
                arrow.lineLeft, diagram.pageLane, accuracy: 2, "\(arrow.event) starts at the page lane", file: file,
                line: line)
            XCTAssertEqual(
                arrow.lineRight, diagram.nativeLane, accuracy: 2, "\(arrow.event) ends at the native lane", file: file,
                line: line)
        }
    }

    func testPassingFixtureDrawsTheReadyAndTheSyncWithoutAFailure() async throws {
        let report = await check(try FixtureVariant.fixture())
        XCTAssertTrue(report.passed, "the fixture must pass: \(report.failures)")
        let diagram = try await diagram(of: HTMLReport.render(.of(page: "BridgeFixture.html", [report])))
        assertSelfContained(diagram)
        assertArrowsFollowTheTimeline(diagram, report)
        XCTAssertEqual(diagram.arrows.map(\.event), ["ready received", "sync sent"])
        XCTAssertEqual(diagram.arrows.map(\.from), ["page", "native"])
        XCTAssertEqual(diagram.failures.count, 0)
        XCTAssertEqual(diagram.failing, [])
        XCTAssertEqual(diagram.sessions, ["pass open"], "a report's only session is shown unfolded")
    }

    func testRejectedReadyIsTheFailingStepWithItsCategoryAndRemedy() async throws {
        // A strict rejection decides page → native at once.
        let report = await check(try FixtureVariant.posting(#"{kind: "ready", version: "1"}"#))
        let failure = try XCTUnwrap(report.pageToNative.failure, "the broken ready must fail page → native")
        let diagram = try await diagram(of: HTMLReport.render(.of(page: "broken.html", [report])))
        assertSelfContained(diagram)
        assertArrowsFollowTheTimeline(diagram, report)
        XCTAssertEqual(diagram.failing, ["message rejected"])
        XCTAssertEqual(diagram.failures.map(\.category), [FailureCategory.nativeDidNotReceive.rawValue])
        XCTAssertEqual(diagram.failures.map(\.direction), ["page-to-native"])
        XCTAssertEqual(
            diagram.failures.first?.remedy, TerminalText.line(SessionText.collapsingRepeats(failure.detail)))
    }

    func testThrowingReceiverMarksNotAcceptedAsTheFailingStep() async throws {
        let report = await check(try FixtureVariant.throwingReceiver())
        XCTAssertNotNil(report.nativeToPage.failure, "the throwing receiver must fail native → page")
        let diagram = try await diagram(of: HTMLReport.render(.of(page: "throws.html", [report])))
        assertSelfContained(diagram)
        assertArrowsFollowTheTimeline(diagram, report)
        XCTAssertEqual(diagram.failing, ["not accepted"])
        XCTAssertEqual(diagram.failures.map(\.category), [FailureCategory.pageDidNotAccept.rawValue])
        XCTAssertTrue(diagram.failures.first?.remedy.contains("Receiver refused") == true, "\(diagram.failures)")
    }

    func testAMessageThatNeverArrivedGetsAMissingStepAfterTheTimeline() async throws {
        let report = await check(try FixtureVariant.replacingReady(with: ""))
        XCTAssertNotNil(report.pageToNative.failure, "a page without a ready must fail page → native")
        let diagram = try await diagram(of: HTMLReport.render(.of(page: "silent.html", [report])))
        assertArrowsFollowTheTimeline(diagram, report)
        XCTAssertEqual(diagram.failing, ["missing"])
        XCTAssertEqual(diagram.failures.map(\.direction), ["page-to-native"])
        XCTAssertEqual(diagram.failures.map(\.category), [FailureCategory.nativeDidNotReceive.rawValue])
    }

    func testARefusedConnectionMarksTheLoadFailure() async throws {
        let refused = try LoopbackHTTPServer.refusedPort()
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(refused.port)/"))
        let report = await BridgeCheck.run(CheckConfiguration(page: .url(url)))
        XCTAssertEqual(report.load.failure?.category, .pageUnreachable, "\(report.failures)")
        let diagram = try await diagram(of: HTMLReport.render(.of(page: "page at 127.0.0.1", [report])))
        assertSelfContained(diagram)
        assertArrowsFollowTheTimeline(diagram, report)
        XCTAssertEqual(diagram.failing, ["load failed"])
        XCTAssertEqual(diagram.failures.map(\.direction), ["load"])
        XCTAssertEqual(diagram.failures.map(\.category), [FailureCategory.pageUnreachable.rawValue])
    }

    nonisolated func testANoticeIsShownAboveTheSummaryAsText() {
        let rendered = HTMLReport.render(.of(page: "p.html", []), HTMLReport.Options(notice: "interrupted <by> SIGINT"))
        XCTAssertTrue(rendered.contains("<p class=\"notice\">interrupted &lt;by&gt; SIGINT</p>"), rendered)
    }

    func testMarkupInAPageErrorStaysText() async throws {
        // The page throws an error whose message is markup: the report shows it, the engine never parses it.
        let html = try FixtureVariant.throwingReceiver().replacingOccurrences(
            of: "Receiver refused",
            with: #"\u003cimg src=x\u003e\u003cscript\u003edocument.title='pwned'\u003c/script\u003e"#)
        let report = await check(html)
        let detail = try XCTUnwrap(report.nativeToPage.failure?.detail)
        XCTAssertTrue(detail.contains("<img src=x>"), "the check should carry the page's error text: \(detail)")
        let rendered = HTMLReport.render(.of(page: "<b>hostile</b>.html", [report]))
        XCTAssertFalse(rendered.contains("<img"), "markup from the page reached the report unescaped")
        let diagram = try await diagram(of: rendered)
        assertSelfContained(diagram)
        XCTAssertTrue(diagram.failures.first?.remedy.contains("<img src=x>") == true, "\(diagram.failures)")
        XCTAssertEqual(diagram.summaryPages, ["<b>hostile</b>.html"])
    }

    func testSeveralPagesEachGetARowAndASection() async throws {
        let passing = await check(try FixtureVariant.fixture())
        let broken = await check(try FixtureVariant.throwingReceiver())
        let rendered = HTMLReport.render(.of([("a.html", [passing, passing]), ("b.html", [broken])]))
        let diagram = try await diagram(of: rendered)
        assertSelfContained(diagram)
        // The failed page first; a.html's two identical sessions drawn once.
        XCTAssertEqual(diagram.summaryPages, ["b.html", "a.html"])
        XCTAssertEqual(diagram.sessions, ["fail open", "pass folded"], "failures stand out")
        XCTAssertEqual(rendered.components(separatedBy: "<details class=\"session\"").count - 1, 2)
        XCTAssertTrue(
            rendered.contains(
                "<td class=\"num\" data-category=\"\(FailureCategory.pageDidNotAccept.rawValue)\">1</td>"), rendered)
    }

    nonisolated func testATallyThatOmittedFailuresShowsALowerBound() {
        let failed = SessionReport(
            load: .pass("didFinish"), pageToNative: .fail(BridgeFailure(.nativeDidNotReceive, "no ready")),
            nativeToPage: .notRun("no ready"), timeline: [], extraMessages: [])
        var tally = BridgeReport()
        for _ in 0..<(BridgeReport.keptFirst + BridgeReport.keptFailures + 5) { tally.add(failed) }
        let rendered = HTMLReport.render(.of(page: "p.html", tally))
        XCTAssertTrue(
            rendered.contains(
                "data-category=\"\(HTMLReport.escape(FailureCategory.nativeDidNotReceive.rawValue))\">≥ \(tally.kept.count)<"
            ),
            "the count of kept failures is a lower bound when some were omitted")
        XCTAssertTrue(rendered.contains("5 further sessions are counted above"), "omitted sessions are said")
    }

    // MARK: The header, the order, repeats, load failures, labels and owners

    /// Loads `report` in the engine and returns what `expression` (JavaScript, evaluating to a JSON-able value)
    /// reads from its DOM, as JSON text decoded to Foundation values.
    func query<T>(_ report: String, _ expression: String, as type: T.Type) async throws -> T {
        let session = BridgeSession()
        defer { session.tearDown() }
        session.loadHTMLString(report)
        let finished = await session.wait(timeout: timeout) { session.loadResult != nil }
        XCTAssertTrue(finished, "the report did not finish loading within \(timeout) s")
        switch await session.evaluate("JSON.stringify(\(expression))", timeout: timeout) {
        case .value(let value as String):
            guard let read = try JSONSerialization.jsonObject(with: Data(value.utf8)) as? T else {
                throw Unexpected("the DOM query returned \(value), not a \(T.self)")
            }
            return read
        case .value(let value): throw Unexpected("the DOM query returned \(String(describing: value))")
        case .error(let error): throw Unexpected("the DOM query threw: \(javaScriptErrorText(error))")
        case .timedOut: throw Unexpected("the DOM query did not complete within \(timeout) s")
        }
    }

    func testTheHeaderNamesThePageTheDateToolContractTimeoutAndEngine() async throws {
        let report = await check(try FixtureVariant.fixture())
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let run = RunReport(
            pages: [BridgeReport(page: "checkout.html", sessions: [report])],
            contract: RunReport.Contract(name: "bridge", version: 3), startedAt: date, timeout: 2.5,
            engine: EngineEnvironment.engineVersion)
        let rendered = HTMLReport.render(run, HTMLReport.Options(title: "checkout.html"))
        let read = try await query(
            rendered,
            """
            { title: document.title, heading: document.querySelector('h1').textContent,
              meta: Object.fromEntries([...document.querySelectorAll('dd[data-meta]')]
                .map((el) => [el.dataset.meta, el.textContent])) }
            """, as: [String: Any].self)
        XCTAssertEqual(read["title"] as? String, "checkout.html — webbridge check report")
        XCTAssertEqual(read["heading"] as? String, "checkout.html")
        let meta = try XCTUnwrap(read["meta"] as? [String: String])
        XCTAssertEqual(meta["date"], "2027-01-15T08:00:00Z")
        XCTAssertEqual(meta["tool"], WebBridgeVersion.tool)
        XCTAssertEqual(meta["contract"], "'bridge' v3")
        XCTAssertEqual(meta["timeout"], "2.5 s")
        let engine = try XCTUnwrap(meta["engine"])
        XCTAssertTrue(engine.range(of: #"^WebKit(GTK)? \d+\.\d+"#, options: .regularExpression) != nil, engine)
    }

    func testFailedPagesComeFirstAndEachSummaryRowLinksToItsDiagram() async throws {
        let passing = await check(try FixtureVariant.fixture())
        let broken = await check(try FixtureVariant.throwingReceiver())
        // 50 pages, one failed at position 40: it leads the summary and its row leads to its failure.
        let pages = (1...50).map { (page: "p\($0).html", sessions: [$0 == 40 ? broken : passing]) }
        let read = try await query(
            HTMLReport.render(.of(pages)),
            """
            [...document.querySelectorAll('.summary .page-row')].slice(0, 2).map((row) => {
              const href = row.querySelector('a').getAttribute('href');
              const target = document.querySelector(href);
              return { page: row.dataset.page, href,
                       target: target ? target.tagName + ' ' + (target.dataset.passed ?? '') : null,
                       failureInside: !!(target && target.querySelector('.failure')) };
            })
            """, as: [[String: Any]].self)
        XCTAssertEqual(read.map { $0["page"] as? String }, ["p40.html", "p1.html"])
        XCTAssertEqual(read.first?["href"] as? String, "#page-40-session-1")
        XCTAssertEqual(read.first?["target"] as? String, "DETAILS false", "the failed row leads to the failed session")
        XCTAssertEqual(read.first?["failureInside"] as? Bool, true)
        XCTAssertEqual(read.last?["href"] as? String, "#page-1")
        XCTAssertEqual(read.last?["target"] as? String, "SECTION true")
    }

    func testIdenticalRepeatedSessionsAreDrawnOnceWithTheirCount() async throws {
        var tally = BridgeReport()
        for _ in 1...5 { tally.add(await check(try FixtureVariant.fixture())) }
        XCTAssertEqual(tally.kept.count, 5)
        let read = try await query(
            HTMLReport.render(.of(page: "p.html", tally)),
            """
            [...document.querySelectorAll('details.session')].map((el) =>
              el.dataset.count + ' ' + el.querySelector('summary').textContent)
            """, as: [String].self)
        XCTAssertEqual(read, ["5 sessions 1, 2, 3, 4, 5 (5 identical) PASS"])
    }

    func testA404IsDrawnAsTheResponseThatFailedNotAMissingDidFinish() async throws {
        let server = try LoopbackHTTPServer(routes: [:])
        defer { server.stop() }
        let report = await BridgeCheck.run(CheckConfiguration(page: .url(server.url("/missing"))))
        XCTAssertEqual(report.load.failure?.category, .pageUnreachable, "\(report.failures)")
        let rendered = HTMLReport.render(.of(page: "page at 127.0.0.1", [report]))
        let diagram = try await diagram(of: rendered)
        assertArrowsFollowTheTimeline(diagram, report)
        XCTAssertEqual(diagram.failing, ["response"], "the 404 response is the failing step")
        XCTAssertFalse(rendered.contains("didFinish never came"), "a 404 is drawn as a missing didFinish")
        XCTAssertFalse(rendered.contains(#"data-event="missing""#))
        XCTAssertEqual(diagram.failures.map(\.direction), ["load"])
    }

    func testALabelThatCarriesARemedyIsNeverCut() async throws {
        let html = try FixtureVariant.posting(
            #"{kind: "ready", version: "1", aRatherLongFieldNameThatTheContractDoesNotDeclare: 1}"#)
        let report = await check(html)
        let note = try XCTUnwrap(report.timeline.first { $0.event == .messageRejected }?.note)
        XCTAssertGreaterThan(note.count, HTMLReport.labelLimit, "the note must be longer than a label's limit")
        XCTAssertTrue(note.hasSuffix("lenient mode ignores it."), note)
        let labels = try await query(
            HTMLReport.render(.of(page: "p.html", [report])),
            "[...document.querySelectorAll('.step[data-event=\"message rejected\"] .note')].map((el) => el.textContent)",
            as: [String].self)
        XCTAssertEqual(labels, [note], "the label with its remedies is shown whole")
    }

    func testEachFailureSaysInWordsWhichSideOwnsIt() async throws {
        let broken = await check(try FixtureVariant.throwingReceiver())
        let server = try LoopbackHTTPServer(routes: [:])
        defer { server.stop() }
        let missing = await BridgeCheck.run(CheckConfiguration(page: .url(server.url("/missing"))))
        let read = try await query(
            HTMLReport.render(.of([("broken.html", [broken]), ("missing", [missing])])),
            "[...document.querySelectorAll('.failure')].map((el) => el.dataset.category + ': ' + el.querySelector('.owner').textContent)",
            as: [String].self)
        XCTAssertEqual(
            read,
            [
                "page did not accept the native message: Owner: the web page. It did not take the native app's message as the contract says it must.",
                "page not deployed / request failed: Owner: the web page's server. The page could not be fetched; the native app is not involved.",
            ])
    }
}
