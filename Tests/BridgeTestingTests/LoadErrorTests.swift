import BridgeTesting
import Foundation
import XCTest

/// Load errors classified by cause, and the host a failure names instead of the page.
final class LoadErrorTests: XCTestCase {
    func error(_ code: Int) -> NSError {
        NSError(domain: NSURLErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: "engine text"])
    }

    func testEachNetworkFailureHasItsCause() {
        let expected: [(Int, LoadError.Cause)] = [
            (NSURLErrorCannotFindHost, .dns), (NSURLErrorDNSLookupFailed, .dns),
            (NSURLErrorCannotConnectToHost, .connectionRefused), (NSURLErrorTimedOut, .timeout),
            (NSURLErrorSecureConnectionFailed, .tls), (NSURLErrorServerCertificateUntrusted, .tls),
            (NSURLErrorServerCertificateHasBadDate, .tls), (NSURLErrorServerCertificateHasUnknownRoot, .tls),
            (NSURLErrorCancelled, .other),
        ]
        for (code, cause) in expected {
            XCTAssertEqual(LoadError.cause(of: error(code)), cause, "code \(code)")
            XCTAssertEqual(LoadError.isUnreachable(error(code)), cause != .other, "code \(code)")
        }
    }

    func testARedirectLoopAClosedConnectionAndANonHTTPReplyAreFailedFetches() {
        let expected: [(Int, LoadError.Cause)] = [
            (NSURLErrorHTTPTooManyRedirects, .redirectLoop), (NSURLErrorNetworkConnectionLost, .connectionLost),
            (NSURLErrorBadServerResponse, .badResponse), (NSURLErrorCannotParseResponse, .badResponse),
        ]
        for (code, cause) in expected {
            XCTAssertEqual(LoadError.cause(of: error(code)), cause, "code \(code)")
            XCTAssertTrue(LoadError.isUnreachable(error(code)), "code \(code)")
        }
    }

    func testBeforeAResponseAnyNetworkErrorButACancellationIsAFailedFetch() {
        // The engine reports some transport failures (a crashed network process) only as an unknown network error.
        XCTAssertTrue(LoadError.isUnreachableBeforeAResponse(error(NSURLErrorUnknown)))
        XCTAssertTrue(LoadError.isUnreachableBeforeAResponse(error(NSURLErrorNetworkConnectionLost)))
        XCTAssertFalse(LoadError.isUnreachableBeforeAResponse(error(NSURLErrorCancelled)))
        XCTAssertFalse(LoadError.isUnreachableBeforeAResponse(NSError(domain: "WebKitErrorDomain", code: 102)))
    }

    func testAnErrorOutsideTheURLDomainIsNotAFailedFetch() {
        let policy = NSError(domain: "WebKitErrorDomain", code: NSURLErrorCannotFindHost)
        XCTAssertEqual(LoadError.cause(of: policy), .other)
        XCTAssertFalse(LoadError.isUnreachable(policy))
    }

    func testTheDescriptionHasTheCauseTheTextAndTheCode() {
        XCTAssertEqual(
            LoadError.describe(error(NSURLErrorCannotConnectToHost)),
            "connection refused: engine text (NSURLErrorDomain \(NSURLErrorCannotConnectToHost))")
    }

    func testTheHostKeepsAnExplicitPortAndDropsPathAndQuery() {
        XCTAssertEqual(LoadError.host(of: URL(string: "http://127.0.0.1:8080/a?token=x")!), "127.0.0.1:8080")
        XCTAssertEqual(LoadError.host(of: URL(string: "https://example.com/page#frag")!), "example.com")
    }
}
