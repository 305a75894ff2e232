#if os(Linux)
import Foundation
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

final class WKErrorTests: XCTestCase {
    func testCodesHaveApplesRawValues() {
        XCTAssertEqual(WKError.Code.unknown.rawValue, 1)
        XCTAssertEqual(WKError.Code.webContentProcessTerminated.rawValue, 2)
        XCTAssertEqual(WKError.Code.webViewInvalidated.rawValue, 3)
        XCTAssertEqual(WKError.Code.javaScriptExceptionOccurred.rawValue, 4)
        XCTAssertEqual(WKError.Code.javaScriptResultTypeIsUnsupported.rawValue, 5)
        XCTAssertEqual(WKError.Code.javaScriptInvalidFrameTarget.rawValue, 12)
        XCTAssertEqual(WKError.Code.credentialNotFound.rawValue, 17)
    }

    func testBridgesToNSErrorInWKErrorDomain() {
        let error =
            WKError.javaScriptException(
                engineMessage: "about:blank:8:46: Error: Invalid native message", domain: "WebKitJavascriptError",
                code: 699) as NSError
        XCTAssertEqual(error.domain, "WKErrorDomain")
        XCTAssertEqual(error.code, 4)
        XCTAssertEqual(error.userInfo[WKJavaScriptExceptionMessage] as? String, "Error: Invalid native message")
        XCTAssertEqual(error.userInfo[WKJavaScriptExceptionLineNumber] as? NSNumber, 8)
        XCTAssertEqual(error.userInfo[WKJavaScriptExceptionColumnNumber] as? NSNumber, 46)
        XCTAssertEqual((error.userInfo[WKJavaScriptExceptionSourceURL] as? URL)?.absoluteString, "about:blank")
        XCTAssertTrue(error.localizedDescription.contains("Invalid native message"))
    }

    func testExceptionTextWithColonsInTheSourceURL() {
        let text = ExceptionText("http://127.0.0.1:8080/page.html:12:3: TypeError: a: b")
        XCTAssertEqual(
            text,
            ExceptionText(sourceURL: "http://127.0.0.1:8080/page.html", line: 12, column: 3, message: "TypeError: a: b")
        )
    }

    func testExceptionTextWithoutPositionKeepsTheWholeMessage() {
        XCTAssertEqual(
            ExceptionText("Error: async boom"),
            ExceptionText(sourceURL: nil, line: nil, column: nil, message: "Error: async boom"))
    }
}

extension ExceptionText {
    init(sourceURL: String?, line: Int?, column: Int?, message: String) {
        self.init("")
        self.sourceURL = sourceURL
        self.line = line
        self.column = column
        self.message = message
    }
}
#endif
