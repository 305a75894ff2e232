#if os(Linux)
import CWebKitGTK
import Foundation
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

final class LoadErrorMappingTests: XCTestCase {
    func testNetworkFailuresMapToURLErrorCodes() {
        func code(_ domain: GQuark, _ value: UInt32) -> Int {
            LoadErrorMapping.map(domain: domain, code: Int32(value), message: "").1
        }
        let io = cwk_io_error_quark()
        XCTAssertEqual(code(io, G_IO_ERROR_CONNECTION_REFUSED.rawValue), NSURLErrorCannotConnectToHost)
        XCTAssertEqual(code(io, G_IO_ERROR_TIMED_OUT.rawValue), NSURLErrorTimedOut)
        XCTAssertEqual(code(cwk_resolver_error_quark(), G_RESOLVER_ERROR_NOT_FOUND.rawValue), NSURLErrorCannotFindHost)
        XCTAssertEqual(
            code(cwk_tls_error_quark(), G_TLS_ERROR_BAD_CERTIFICATE.rawValue), NSURLErrorServerCertificateUntrusted)
        XCTAssertEqual(code(cwk_tls_error_quark(), G_TLS_ERROR_MISC.rawValue), NSURLErrorSecureConnectionFailed)
        XCTAssertEqual(code(cwk_network_error_quark(), WEBKIT_NETWORK_ERROR_CANCELLED.rawValue), NSURLErrorCancelled)
    }

    func testPolicyErrorsKeepWebKitsDomain() {
        let (domain, code) = LoadErrorMapping.map(
            domain: cwk_policy_error_quark(), code: 102, message: "Frame load interrupted")
        XCTAssertEqual(domain, "WebKitErrorDomain")
        XCTAssertEqual(code, 102)
    }

    func testGenericTransportErrorsAreClassifiedByMessage() {
        XCTAssertEqual(
            LoadErrorMapping.classify("Could not connect: Connection refused"), NSURLErrorCannotConnectToHost)
        XCTAssertEqual(
            LoadErrorMapping.classify("Error resolving “nowhere.invalid”: Name or service not known"),
            NSURLErrorCannotFindHost)
        XCTAssertEqual(LoadErrorMapping.classify("Unacceptable TLS certificate"), NSURLErrorSecureConnectionFailed)
    }

    func testOriginalErrorIsKeptInUserInfo() {
        let error = LoadErrorMapping.nsError(
            domain: cwk_io_error_quark(), code: Int32(G_IO_ERROR_CONNECTION_REFUSED.rawValue), message: "refused",
            failingURL: "http://127.0.0.1:1/")
        XCTAssertEqual(error.userInfo[WebKitGTKErrorDomainKey] as? String, "g-io-error-quark")
        XCTAssertEqual(error.userInfo[WebKitGTKErrorCodeKey] as? Int, Int(G_IO_ERROR_CONNECTION_REFUSED.rawValue))
        XCTAssertEqual(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL, URL(string: "http://127.0.0.1:1/"))
    }
}
#endif
