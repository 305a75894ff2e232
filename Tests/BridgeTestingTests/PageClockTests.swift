import XCTest

@testable import BridgeTesting

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// The page's virtual clock on the real engine: the page's timers and the time it reads move only when the check
/// advances them, in the order of their due times, whatever the machine's speed.
@MainActor
final class PageClockTests: XCTestCase {
    /// Loads `body` (a page's script) with the clock installed, `late` ms on every timer; returns the view once the
    /// load has finished and the messages the clock and the page's bridge posted.
    @MainActor
    final class Page: NSObject, WKNavigationDelegate, WKScriptMessageHandler {
        let webView: WKWebView
        var finished: XCTestExpectation?
        var clockMessages: [[String: Any]] = []
        var bridgeMessages: [Any] = []
        var bridgeMessage: XCTestExpectation?

        init(late: Double) {
            let configuration = WKWebViewConfiguration()
            configuration.userContentController.addUserScript(
                WKUserScript(
                    source: PageClock.userScript(late: late), injectionTime: .atDocumentStart, forMainFrameOnly: true))
            webView = WKWebView(frame: .zero, configuration: configuration)
            super.init()
            configuration.userContentController.add(self, name: PageClock.handlerName)
            configuration.userContentController.add(self, name: "bridge")
            webView.navigationDelegate = self
        }

        func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) { finished?.fulfill() }

        func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
            if message.name == PageClock.handlerName, let body = message.body as? [String: Any] {
                clockMessages.append(body)
            } else {
                bridgeMessages.append(message.body)
                bridgeMessage?.fulfill()
            }
        }

        func evaluate(_ script: String) async throws -> Any? { try await webView.evaluateJavaScript(script) }

        /// Advances the clock; the time to the next timer (-1: none) and the anchors the page counted.
        func advance(_ milliseconds: Double) async throws -> (next: Double, anchors: Int) {
            let value = try await evaluate(PageClock.advance(milliseconds))
            let result = try XCTUnwrap(value as? [String: Any])
            let next = try XCTUnwrap(result["next"] as? NSNumber).doubleValue
            return (next, try XCTUnwrap(result["anchors"] as? NSNumber).intValue)
        }

        func tearDown() {
            webView.configuration.userContentController.removeAllScriptMessageHandlers()
        }
    }

    func load(_ script: String, late: Double = 0) async throws -> Page {
        let page = Page(late: late)
        let finished = expectation(description: "the page with the clock finished loading")
        page.finished = finished
        page.webView.loadHTMLString(
            "<!doctype html><body><script>\(script)</script></body>", baseURL: URL(string: "http://127.0.0.1/"))
        await fulfillment(of: [finished], timeout: 10)
        return page
    }

    func testNoTimerFiresUntilTheCheckAdvancesTheClock() async throws {
        let page = try await load("window.fired = []; setTimeout(function () { fired.push('zero'); }, 0);")
        defer { page.tearDown() }
        // An engine round trip after the load: a real zero-delay timer would have fired by now.
        let firedBefore = try await page.evaluate("fired.length") as? Int
        XCTAssertEqual(firedBefore, 0, "a timer fired on the machine's time")
        let (next, _) = try await page.advance(0)
        XCTAssertEqual(next, -1)
        let firedAfter = try await page.evaluate("fired.join(',')") as? String
        XCTAssertEqual(firedAfter, "zero")
    }

    func testTimersRunInTheOrderOfTheirDueTimesEachAtItsOwnTime() async throws {
        let page = try await load(
            """
            window.fired = [];
            const start = Date.now();
            function at(name) { return function () { fired.push(name + '@' + (Date.now() - start)); }; }
            setTimeout(at('c'), 30); setTimeout(at('a1'), 10); setTimeout(at('b'), 20); setTimeout(at('a2'), 10);
            const interval = setInterval(at('i'), 25);
            setTimeout(function () { clearInterval(interval); }, 60);
            """)
        defer { page.tearDown() }
        var (next, _) = try await page.advance(15)
        let firstFifteen = try await page.evaluate("fired.join(' ')") as? String
        XCTAssertEqual(firstFifteen, "a1@10 a2@10")
        XCTAssertEqual(next, 5, "the next timer (b at 20) is 5 ms after 15")
        (next, _) = try await page.advance(100)
        let allOfThem = try await page.evaluate("fired.join(' ')") as? String
        XCTAssertEqual(allOfThem, "a1@10 a2@10 b@20 i@25 c@30 i@50")
        XCTAssertEqual(next, -1, "the interval was cleared at 60")
    }

    func testThePagesTimeStandsStillBetweenAdvances() async throws {
        let page = try await load("window.t0 = Date.now(); window.p0 = performance.now(); window.d0 = +new Date();")
        defer { page.tearDown() }
        let still = try await page.evaluate("[Date.now() - t0, performance.now() - p0, +new Date() - d0]") as? [Int]
        XCTAssertEqual(still, [0, 0, 0], "the page's time moved with the machine's")
        _ = try await page.advance(1_500)
        let moved = try await page.evaluate("[Date.now() - t0, performance.now() - p0, +new Date() - d0]") as? [Int]
        XCTAssertEqual(moved, [1_500, 1_500, 1_500])
        let calledAsFunction = try await page.evaluate("typeof Date()") as? String
        XCTAssertEqual(calledAsFunction, "string", "Date() called as a function")
        let givenTime = try await page.evaluate("new Date(0).getTime()") as? Int
        XCTAssertEqual(givenTime, 0)
    }

    func testLateTimersFireTheirLatenessAfterTheirDelay() async throws {
        let page = try await load("window.fired = 0; setTimeout(function () { fired += 1; }, 0);", late: 50)
        defer { page.tearDown() }
        var (next, _) = try await page.advance(49)
        let firedAt49 = try await page.evaluate("fired") as? Int
        XCTAssertEqual(firedAt49, 0)
        XCTAssertEqual(next, 1)
        (next, _) = try await page.advance(1)
        let firedAt50 = try await page.evaluate("fired") as? Int
        XCTAssertEqual(firedAt50, 1)
    }

    func testTheClockTellsNativeOfANearerTimerAndCountsTheAnchors() async throws {
        let page = try await load(
            """
            setTimeout(function () {}, 40); setTimeout(function () {}, 70); setTimeout(function () {}, 10);
            window.webkit.messageHandlers.bridge.postMessage({kind: 'ready'});
            """)
        defer { page.tearDown() }
        XCTAssertEqual(page.clockMessages.compactMap { ($0["next"] as? NSNumber)?.intValue }, [40, 10])
        XCTAssertEqual(page.bridgeMessages.count, 1)
        let (_, anchors) = try await page.advance(0)
        XCTAssertEqual(anchors, 2, "the bridge message and the load event")
    }

    func testATimersExceptionIsThePagesUncaughtErrorAndTheOthersStillRun() async throws {
        let page = try await load(
            """
            window.fired = [];
            window.addEventListener('error', function (event) {
              window.webkit.messageHandlers.bridge.postMessage({uncaught: event.message});
            });
            setTimeout(function () { throw new Error('timer broke'); }, 5);
            setTimeout(function () { fired.push('after'); }, 6);
            """)
        defer { page.tearDown() }
        let uncaught = expectation(description: "the timer's exception reached the page's error event")
        page.bridgeMessage = uncaught
        _ = try await page.advance(10)
        let afterTheThrow = try await page.evaluate("fired.join(',')") as? String
        XCTAssertEqual(afterTheThrow, "after")
        // Thrown from an engine task of its own, after the advance.
        await fulfillment(of: [uncaught], timeout: 10)
        let body = page.bridgeMessages.first as? [String: Any]
        XCTAssertTrue((body?["uncaught"] as? String)?.contains("timer broke") == true, "\(String(describing: body))")
    }

    func testAPageThatSchedulesWithoutEndCannotHangAnAdvance() async throws {
        let page = try await load(
            "window.runs = 0; (function again() { runs += 1; setTimeout(again, 0); })();")
        defer { page.tearDown() }
        let (next, _) = try await page.advance(100)
        let counted = try await page.evaluate("runs")
        let runs = try XCTUnwrap(counted as? Int)
        // Zero-delay timers nested past five levels are clamped to 4 ms, as engines do, so time moves on: the
        // first call, five timers at 0 ms, then one every 4 ms up to 100.
        XCTAssertEqual(runs, 1 + 5 + 25, "runs within 100 ms")
        XCTAssertGreaterThanOrEqual(next, 0)
    }
}
