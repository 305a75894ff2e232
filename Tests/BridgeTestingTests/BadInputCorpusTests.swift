import BridgeContract
import BridgeTesting
import XCTest

/// Every kind of bad page → native message on the real engine: each is rejected with its precise violation, or
/// dropped by the engine and then reported as "native did not receive the page's message"; never a crash, a hang
/// or a value in a log.
@MainActor
final class BadInputCorpusTests: XCTestCase {
    /// Long enough for a 10 MB body to cross the engine on a loaded 2-core machine.
    let corpusTimeout: TimeInterval = 60
    /// How long a check waits for a ready that a dropped message never becomes; all such checks run at once. The
    /// default: the same deadline bounds the load and native's sync, which must pass on a busy machine.
    let droppedTimeout = CheckConfiguration.defaultTimeout

    /// The default contract plus the page's `marker`, which closes each case so the test waits for events, not time.
    static let contract: BridgeContract = {
        var contract = BridgeContract.default
        contract.messages.append(
            MessageSpec(
                kind: "marker", direction: .pageToNative,
                fields: ["case": FieldSpec(.integer), "threw": FieldSpec(.boolean)]))
        return contract
    }()

    /// Posts every case in order, each followed by a marker saying whether `postMessage` threw.
    static func corpusPage(_ cases: [BadInput]) -> String {
        let makers = cases.map { "function () { return (\($0.body)); }" }.joined(separator: ",\n")
        return """
            <!doctype html><meta charset="utf-8"><body><script>
            \(Sentinel.declarations)
            var post = function (m) { window.webkit.messageHandlers.bridge.postMessage(m); };
            [\(makers)].forEach(function (make, i) {
              var threw = false;
              try { post(make()); } catch (e) { threw = true; }
              post({kind: "marker", "case": i, threw: threw});
            });
            </script></body>
            """
    }

    /// What reached native for one case, between its marker and the one before.
    enum Observed: Equatable, CustomStringConvertible {
        case rejected([BadInput.Expected])
        case ready
        case duplicateReady
        case message(String)
        /// Dropped by WebKit, as the diagnostics named it (`path: type`).
        case dropped(String)

        var description: String {
            switch self {
            case .dropped(let diagnosis): "dropped \(diagnosis)"
            case .rejected(let violations): "rejected \(violations)"
            case .ready: "ready"
            case .duplicateReady: "duplicate ready"
            case .message(let kind): "message \(kind)"
            }
        }
    }

    /// Runs the whole corpus in one page and returns what arrived for each case, and whether its post threw.
    func observeCorpus(_ cases: [BadInput]) async throws -> (
        observed: [[Observed]], threw: [Bool], session: BridgeSession
    ) {
        let session = BridgeSession(contract: Self.contract)
        let log = EventLog()
        log.attach(to: session)
        session.loadHTMLString(Self.corpusPage(cases))
        let done = await session.wait(timeout: corpusTimeout) { log.messages(ofKind: "marker").count == cases.count }
        let markers = log.messages(ofKind: "marker")
        XCTAssertTrue(
            done,
            "native did not receive the page's message: \(markers.count) of \(cases.count) case markers within \(corpusTimeout) s"
        )
        XCTAssertEqual(markers.map { $0["case"]?.intValue }, Array(cases.indices), "the markers came out of order")

        var observed: [[Observed]] = [[]]
        var threw: [Bool] = []
        var readies = 0
        for event in log.events {
            switch event {
            case .message(let message) where message.kind == "marker":
                threw.append(message["threw"]?.boolValue ?? false)
                observed.append([])
            case .rejected(let rejection):
                observed[observed.count - 1].append(
                    .rejected(rejection.violations.map { BadInput.Expected($0.path, $0.rule, $0.found) }))
            case .message(let message) where message.kind == "ready":
                readies += 1
                observed[observed.count - 1].append(readies == 1 ? .ready : .duplicateReady)
            case .message(let message): observed[observed.count - 1].append(.message(message.kind))
            case .dropped(let message): observed[observed.count - 1].append(.dropped(message.description))
            default: break
            }
        }
        return (Array(observed.prefix(cases.count)), threw, session)
    }

    func testEveryBadInputIsRejectedPreciselyOrDroppedAndOnlyStructureIsReported() async throws {
        let cases = BadInput.corpus
        XCTAssertGreaterThanOrEqual(cases.count, 40)
        let output = OutputCapture()
        let (observed, threw, session) = try await observeCorpus(cases)
        let reported = Sentinel.reported(by: session)
        session.tearDown()
        let logged = output.finish()
        XCTAssertNil(session.loadError, "page load did not finish: \(String(describing: session.loadError))")

        var readies = 0
        for (index, item) in cases.enumerated() where index < observed.count && index < threw.count {
            let seen = observed[index]
            XCTAssertFalse(threw[index], "case \(index) '\(item.name)': postMessage threw in the page")
            switch item.outcome {
            case .rejected(let expected):
                XCTAssertEqual(seen, [.rejected(expected)], "case \(index) '\(item.name)'")
            case .dropped(let diagnosis):
                // Never the handler; only the diagnostics, when WebKit could not clone it.
                XCTAssertEqual(seen, diagnosis.map { [.dropped($0)] } ?? [], "case \(index) '\(item.name)'")
            case .acceptedAsReady:
                XCTAssertEqual(seen, [readies == 0 ? .ready : .duplicateReady], "case \(index) '\(item.name)'")
                readies += 1
            }
        }
        XCTAssertEqual(Sentinel.leaks(in: reported), [], "a message value appeared in what the session reports")
        XCTAssertEqual(Sentinel.leaks(in: logged), [], "a message value was written to stdout or stderr")
    }

    func testEveryBadInputMakesTheCheckSayNativeDidNotReceiveWithinTheTimeout() async throws {
        // One page per dropped input (nothing reaches native, so only the timeout can end its wait), and one page
        // posting every rejected input: all checks run at once, so the whole test costs about one timeout.
        let dropped = BadInput.corpus.filter { if case .dropped = $0.outcome { true } else { false } }
        let rejected = BadInput.corpus.filter { if case .rejected = $0.outcome { true } else { false } }
        XCTAssertGreaterThanOrEqual(dropped.count, 10)
        let allRejected = try FixtureVariant.replacingReady(
            with: Sentinel.declarations + "\n"
                + rejected.map { "window.webkit.messageHandlers.bridge.postMessage(\($0.body));" }.joined(
                    separator: "\n"))
        let pages = try dropped.map { try fixturePosting($0.body) } + [allRejected]

        let started = DispatchTime.now()
        let reports = await runChecksConcurrently(pages, timeout: droppedTimeout)
        let elapsed = secondsSince(started)
        XCTAssertEqual(reports.count, pages.count)
        XCTAssertLessThan(
            elapsed, 4 * droppedTimeout, "the checks hung: \(elapsed) s for a \(droppedTimeout) s timeout")

        let quiet = "nothing arrived on 'bridge' within \(BridgeCheck.seconds(droppedTimeout))"
        for (item, report) in zip(dropped, reports) {
            XCTAssertTrue(report.load.passed, "'\(item.name)': \(report.failures)")
            XCTAssertEqual(report.pageToNative.failure?.category, .nativeDidNotReceive, "'\(item.name)'")
            let detail = report.pageToNative.failure?.detail ?? ""
            if case .dropped(let diagnosis?) = item.outcome {
                // WebKit could not clone it: the check names where and what, and never says "nothing arrived".
                XCTAssertTrue(
                    detail.contains("WebKit could not clone what the page posted (\(diagnosis))"),
                    "'\(item.name)': \(detail)")
            } else {
                XCTAssertTrue(detail.hasSuffix(quiet), "'\(item.name)': \(detail)")
            }
            XCTAssertTrue(
                report.nativeToPage.passed,
                "'\(item.name)': the page should still accept the native message: \(report.failures)")
            XCTAssertEqual(report.extraMessages, [], "'\(item.name)'")
            XCTAssertEqual(
                Sentinel.leaks(in: Sentinel.reported(by: report)), [], "'\(item.name)': a value in the report")
        }

        let report = try XCTUnwrap(reports.last)
        XCTAssertTrue(report.load.passed, "\(report.failures)")
        let failure = try XCTUnwrap(report.pageToNative.failure, "a page posting only bad messages passed")
        XCTAssertEqual(failure.category, .nativeDidNotReceive)
        XCTAssertTrue(failure.detail.contains("what arrived instead: "), failure.detail)
        // Grouped by structure and violation: `rejected × N: …` stands for N of them.
        let listed = report.extraMessages.reduce(0) { total, line in
            let count = line.hasPrefix("rejected × ") ? Int(line.dropFirst(11).prefix { $0.isNumber }) ?? 1 : 1
            return total + count
        }
        XCTAssertEqual(listed, rejected.count, "every rejected message is listed, as structure")
        XCTAssertEqual(Sentinel.leaks(in: Sentinel.reported(by: report)), [], "a message value appeared in the report")
    }

    /// An own `__proto__` key (what `JSON.parse` makes of `"__proto__"`) becomes the clone's prototype; its fields
    /// must not appear as the body's own: `{"kind": "ready", "__proto__": {"version": 1}}` is not a ready.
    func testOwnProtoKeyDoesNotLendItsFieldsToTheBody() async throws {
        let session = BridgeSession()
        defer { session.tearDown() }
        session.loadHTMLString(try fixturePosting(#"JSON.parse('{"kind": "ready", "__proto__": {"version": 1}}')"#))
        let arrived = await session.wait(timeout: corpusTimeout) {
            session.first("ready") != nil || !session.rejections.isEmpty
        }
        XCTAssertTrue(arrived, "native did not receive the page's message within \(corpusTimeout) s")
        XCTAssertNil(session.first("ready"), "a body whose own fields lack version was accepted as a ready")
        let violations = session.rejections.flatMap(\.violations).map { BadInput.Expected($0.path, $0.rule, $0.found) }
        XCTAssertTrue(
            violations.contains(BadInput.Expected("version", .missingField, "Missing")), "\(violations)")
    }
}
