#if os(Linux)
import Foundation
import FoundationNetworking
import Glibc
import EngineTestSupport
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

@MainActor
final class WKWebViewTests: XCTestCase {
    func testMessagePostedAtParseTimeArrivesBeforeDidFinish() async {
        let session = Session()
        let received = expectation(description: "the parse-time message reached the handler")
        session.collector.received = received
        await session.load(
            "<script>window.webkit.messageHandlers.bridge.postMessage({kind: 'ready', version: 1})</script>", in: self)
        await fulfillment(of: [received], timeout: 5)
        XCTAssertEqual(session.recorder.events, ["start", "commit", "message", "finish"])
        let body = session.collector.bodies.first as? [String: Any]
        XCTAssertEqual(body?["kind"] as? String, "ready")
        XCTAssertEqual((body?["version"] as? NSNumber)?.doubleValue, 1)
        XCTAssertEqual(session.collector.names, ["bridge"])
        XCTAssertEqual(session.collector.mainFrame, [true])
        session.tearDown()
    }

    func testNavigationCallbacksPassTheNavigationTheLoadReturned() async {
        let session = Session()
        let finished = expectation(description: "didFinish")
        session.recorder.finished = finished
        let navigation = session.webView.loadHTMLString("<p>x</p>", baseURL: URL(string: "https://example.test/"))
        await fulfillment(of: [finished], timeout: 10)
        XCTAssertEqual(session.recorder.navigations, [ObjectIdentifier(navigation!), ObjectIdentifier(navigation!)])
        XCTAssertEqual(session.webView.url?.absoluteString, "https://example.test/")
    }

    func testUnpreparedEnvironmentFailsEveryLoadInsteadOfCrashing() async {
        let failure = EngineEnvironmentError(
            code: .xvfbMissing, field: "Xvfb", rule: "not on PATH", remedy: "apt-get install xvfb")
        WKWebView.preparationFailureForTesting = failure
        defer { WKWebView.preparationFailureForTesting = nil }
        let session = Session()
        let failed = expectation(description: "didFailProvisionalNavigation with the environment error")
        session.recorder.failedProvisionally = failed
        session.webView.loadHTMLString("<p>x</p>", baseURL: nil)
        await fulfillment(of: [failed], timeout: 5)
        XCTAssertEqual(session.recorder.provisionalError as? EngineEnvironmentError, failure)
        do {
            _ = try await session.webView.evaluateJavaScript("1")
            XCTFail("scripts cannot run without an engine")
        } catch {
            XCTAssertEqual(error as? EngineEnvironmentError, failure)
        }
    }

    func testPageWithSyntaxErrorStillFinishes() async {
        let session = Session()
        await session.load("<script>function (</script><p>still here</p>", in: self)
        XCTAssertEqual(session.recorder.events.last, "finish")
        let text = try? await session.webView.evaluateJavaScript("document.querySelector('p').textContent")
        XCTAssertEqual(text as? String, "still here")
    }

    func testLoadOfClosedPortFailsProvisionallyWithCannotConnectToHost() async throws {
        let session = Session()
        let failed = expectation(description: "didFailProvisionalNavigation for a closed port")
        session.recorder.failedProvisionally = failed
        let refused = try LoopbackHTTPServer.refusedPort()
        defer { withExtendedLifetime(refused) {} }
        let port = refused.port
        session.webView.load(URLRequest(url: URL(string: "http://127.0.0.1:\(port)/")!))
        await fulfillment(of: [failed], timeout: 10)
        let error = try XCTUnwrap(session.recorder.provisionalError) as NSError
        XCTAssertEqual(error.domain, NSURLErrorDomain)
        XCTAssertEqual(error.code, NSURLErrorCannotConnectToHost)
        XCTAssertNotNil(error.userInfo[WebKitGTKErrorDomainKey] as? String)
        XCTAssertNotNil(error.userInfo[WebKitGTKErrorCodeKey] as? Int)
        XCTAssertEqual(error.userInfo["NSErrorFailingURLStringKey"] as? String, "http://127.0.0.1:\(port)/")
        XCTAssertFalse(session.recorder.events.contains("finish"), "a failed load must not also finish")
    }

    func testStoppingAProvisionalLoadFailsItOnceAsCancelled() async throws {
        // The engine module re-sends a request the engine cancelled on its own (an I/O cancel); a stop is reported
        // (in the engine's network domain), never re-sent.
        let server = try LoopbackHTTPServer(routes: ["/": .stall])
        defer { server.stop() }
        let session = Session()
        let failed = expectation(description: "didFailProvisionalNavigation after stopLoading")
        session.recorder.failedProvisionally = failed
        session.webView.load(URLRequest(url: server.url("/")))
        let requested = await Task.detached { server.waitForRequest("/", timeout: 10) }.value
        XCTAssertTrue(requested, "the engine never requested the page")
        session.webView.stopLoading()
        await fulfillment(of: [failed], timeout: 10)
        XCTAssertEqual((session.recorder.provisionalError as NSError?)?.code, NSURLErrorCancelled)
        XCTAssertEqual(session.recorder.events, ["start", "failProvisional"])
        XCTAssertEqual(server.requestedPaths, ["/"], "a stopped load was sent again")
    }

    func testNavigationResponseCarriesTheHTTPStatus() async throws {
        let server = try LoopbackHTTPServer(routes: ["/missing": .page(status: 404, html: "<p>missing</p>")])
        let session = Session()
        let finished = expectation(description: "didFinish for the 404 page")
        session.recorder.finished = finished
        session.webView.load(URLRequest(url: server.url("/missing")))
        await fulfillment(of: [finished], timeout: 10)
        let response = try XCTUnwrap(session.recorder.response?.response as? HTTPURLResponse)
        XCTAssertEqual(response.statusCode, 404)
        XCTAssertEqual(response.value(forHTTPHeaderField: "Cache-Control"), "no-store", "the server's own header")
        XCTAssertEqual(session.recorder.response?.isForMainFrame, true)
    }

    func testCancellingTheResponseFailsTheNavigation() async throws {
        let server = try LoopbackHTTPServer(routes: ["/": .page(status: 200, html: "<p>ok</p>")])
        let session = Session()
        session.recorder.responsePolicy = .cancel
        let failed = expectation(description: "didFailProvisionalNavigation after a cancelled response")
        session.recorder.failedProvisionally = failed
        session.webView.load(URLRequest(url: server.url("/")))
        await fulfillment(of: [failed], timeout: 10)
        let error = try XCTUnwrap(session.recorder.provisionalError) as NSError
        XCTAssertEqual(error.domain, "WebKitErrorDomain")
        XCTAssertEqual(error.code, 102)
    }

    func testThrowingScriptGivesJavaScriptExceptionWithMessageAndPosition() async throws {
        let session = Session()
        await session.load("<p>x</p>", in: self)
        do {
            _ = try await session.webView.evaluateJavaScript("1;\n  throw new Error('Invalid native message')")
            XCTFail("the script threw, so evaluateJavaScript must throw")
        } catch let error as WKError where error.code == .javaScriptExceptionOccurred {
            let error = error as NSError
            XCTAssertEqual(error.domain, WKErrorDomain)
            XCTAssertEqual(error.code, 4)
            XCTAssertEqual(error.userInfo[WKJavaScriptExceptionMessage] as? String, "Error: Invalid native message")
            XCTAssertEqual(error.userInfo[WKJavaScriptExceptionLineNumber] as? NSNumber, 2)
            // JSC reports the column at the end of the throwing expression.
            XCTAssertEqual(error.userInfo[WKJavaScriptExceptionColumnNumber] as? NSNumber, 44)
            XCTAssertTrue(error.localizedDescription.contains("Invalid native message"), error.localizedDescription)
        }
    }

    func testExceptionMatchesTheErrorCodePattern() async {
        let session = Session()
        await session.load("<p>x</p>", in: self)
        var matched = false
        do { _ = try await session.webView.evaluateJavaScript("null.x") } catch WKError.javaScriptExceptionOccurred {
            matched = true
        } catch {}
        XCTAssertTrue(matched, "catch WKError.javaScriptExceptionOccurred must match, as with Apple's bridged error")
    }

    func testCompletionHandlerFormDeliversResultOnMainThread() async {
        let session = Session()
        await session.load("<script>window.answer = 41</script>", in: self)
        let done = expectation(description: "evaluateJavaScript completion ran")
        session.webView.evaluateJavaScript("window.answer + 1") { result, error in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertNil(error)
            XCTAssertEqual(result as? NSNumber, 42)
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 5)
    }

    func testFunctionResultIsAnUnsupportedType() async {
        let session = Session()
        await session.load("<p>x</p>", in: self)
        do {
            _ = try await session.webView.evaluateJavaScript("(() => 1)")
            XCTFail("a function result cannot be converted")
        } catch {
            XCTAssertEqual((error as? WKError)?.code, .javaScriptResultTypeIsUnsupported)
        }
    }

    func testUndefinedResultIsAnErrorFromTheAsyncFormAndNilFromTheCompletionForm() async throws {
        let session = Session()
        await session.load("<p>x</p>", in: self)
        do {
            let result: Any = try await session.webView.evaluateJavaScript("undefined")
            XCTFail("Apple's async import traps on a nil result; here it must throw, got \(type(of: result))")
        } catch {
            XCTAssertEqual((error as? WKError)?.code, .javaScriptResultTypeIsUnsupported)
            XCTAssertTrue(error.localizedDescription.contains("completion-handler form"))
        }
        let completed = expectation(description: "the completion form answers undefined with nil and no error")
        session.webView.evaluateJavaScript("undefined") { value, error in
            XCTAssertNil(value)
            XCTAssertNil(error)
            completed.fulfill()
        }
        await fulfillment(of: [completed], timeout: 5)
        let inWorld = try await session.webView.evaluateJavaScript("undefined", in: nil, contentWorld: .page)
        XCTAssertNil(inWorld)
    }

    func testCallAsyncJavaScriptPassesArgumentsAndAwaitsPromises() async throws {
        let session = Session()
        await session.load("<p>x</p>", in: self)
        let result =
            try await session.webView.callAsyncJavaScript(
                "return await new Promise(r => setTimeout(() => r([count + 1, name, missing, typeof when, flag, when.getTime()]), 0))",
                arguments: [
                    "count": 41, "name": "a\"b\n", "missing": NSNull(), "when": Date(timeIntervalSince1970: 2),
                    "flag": true,
                ],
                contentWorld: .page) as? [Any]
        XCTAssertEqual(result?[0] as? NSNumber, 42)
        XCTAssertEqual(result?[1] as? String, "a\"b\n")
        XCTAssertTrue(result?[2] is NSNull)
        XCTAssertEqual(result?[3] as? String, "object")
        XCTAssertEqual((result?[4] as? NSNumber).map { String(cString: $0.objCType) }, "c")
        XCTAssertEqual(result?[5] as? NSNumber, 2000)
        let nothing = try await session.webView.callAsyncJavaScript("const x = 1", contentWorld: .page)
        XCTAssertNil(nothing)
    }

    func testCallAsyncJavaScriptRejectionIsAJavaScriptException() async {
        let session = Session()
        await session.load("<p>x</p>", in: self)
        do {
            _ = try await session.webView.callAsyncJavaScript("throw new TypeError('nope')", contentWorld: .page)
            XCTFail("a rejected body must throw")
        } catch {
            XCTAssertEqual((error as? WKError)?.code, .javaScriptExceptionOccurred)
            XCTAssertEqual((error as NSError).userInfo[WKJavaScriptExceptionMessage] as? String, "TypeError: nope")
        }
    }

    func testCallAsyncJavaScriptRefusesUnsupportedArguments() async {
        let session = Session()
        await session.load("<p>x</p>", in: self)
        do {
            _ = try await session.webView.callAsyncJavaScript(
                "return 1", arguments: ["bad": URL(string: "https://x.test")!], contentWorld: .page)
            XCTFail("a URL argument is not allowed")
        } catch {
            XCTAssertEqual((error as? WKError)?.code, .javaScriptExceptionOccurred)
            XCTAssertTrue(
                ((error as NSError).userInfo[WKJavaScriptExceptionMessage] as? String ?? "").hasPrefix(
                    "Function argument values must be"))
        }
    }

    func testKilledWebProcessReportsTerminationAndNextSessionWorks() async throws {
        let session = Session()
        await session.load("<p>x</p>", in: self)
        let pids = WebProcesses.descendants()
        XCTAssertFalse(pids.isEmpty, "no WebKitWebProcess found below this process")
        let terminated = expectation(description: "webViewWebContentProcessDidTerminate after SIGKILL")
        session.recorder.terminated = terminated
        for pid in pids { kill(pid, SIGKILL) }
        await fulfillment(of: [terminated], timeout: 10)
        // The dead view may answer with a result or an error, but it must answer.
        let answered = expectation(description: "a script on the dead view completed")
        session.webView.evaluateJavaScript("1") { _, _ in answered.fulfill() }
        await fulfillment(of: [answered], timeout: 10)
        let next = Session()
        let received = expectation(description: "a fresh session after the crash gets its message")
        next.collector.received = received
        await next.load("<script>webkit.messageHandlers.bridge.postMessage('alive')</script>", in: self)
        await fulfillment(of: [received], timeout: 5)
        XCTAssertEqual(next.collector.bodies.first as? String, "alive")
    }

    func testRequestTimeoutFailsProvisionallyWithTimedOut() async throws {
        // A listener that never answers: the connection opens, no response comes.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listen(fd, 8)
        let session = Session()
        let failed = expectation(description: "didFailProvisionalNavigation with a timeout")
        session.recorder.failedProvisionally = failed
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/")!)
        request.timeoutInterval = 0.5
        session.webView.load(request)
        await fulfillment(of: [failed], timeout: 10)
        XCTAssertEqual((session.recorder.provisionalError as NSError?)?.code, NSURLErrorTimedOut)
    }
}
#endif
