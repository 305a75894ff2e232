import BridgeAssertions
import Foundation
import Testing

/// The same assertion inside a `@Test` records a Swift Testing issue at the caller's line (an XCTest failure
/// would be dropped there: no XCTest case is running).
@Suite("assertBridge in Swift Testing")
@MainActor
struct AssertBridgeInSwiftTestingTests {
    func fixture(_ name: String) -> URL {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!
    }

    @Test("a broken page records an issue at the caller's line, with the default timeout")
    func aBrokenPageRecordsAnIssue() async {
        let page = fixture("checkout-items-as-text.html")
        let line = #line + 2
        await withKnownIssue {
            await assertBridge(page: page, contract: checkoutContractURL())
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileName == "AssertBridgeInSwiftTestingTests.swift"
                && issue.comments.contains {
                    $0.rawValue.hasPrefix("FAIL: native did not receive the page's message")
                }
        }
    }

    @Test("expectBridge is the same assertion")
    func expectBridgeRecordsTheSameIssue() async {
        let page = fixture("checkout-items-as-text.html")
        await withKnownIssue {
            await expectBridge(page: page, contract: checkoutContractURL())
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("items: expected Integer, found String") }
        }
    }

    @Test("a passing page records nothing and returns the passing report")
    func aPassingPageRecordsNothing() async {
        let report = await expectBridge(page: fixture("checkout.html"), contract: checkoutContractURL())
        #expect(report.passed)
        #expect(report.sessions.count == 1)
    }
}
