import Foundation
import XCTest

@testable import XcodeRunner

final class SchemeFileTests: XCTestCase {
    func scheme(_ name: String) throws -> SchemeFile {
        try SchemeFile(data: Realdata.data("xcscheme/" + name), source: name)
    }

    func testEveryRealSchemeParsesWithItsTestables() throws {
        // Testable target names read off the files with grep.
        let expected: [String: [String]] = [
            "alamofire_Alamofire_iOS.xcscheme": ["Alamofire iOS Tests"],
            "bacons_NoBlueprintID.xcscheme": ["NoBlueprintIDTests"],
            "bacons_RunnableWithoutBuildableReference.xcscheme": [],
            "bacons_iOS.xcscheme": ["iOSTests"],
            "ecmaswift_ECMASwift.xcscheme": ["ECMASwiftTests"],
            "frequentflyer_FrequentFlyer.xcscheme": ["FrequentFlyerTests"],
            "wikipedia_Wikipedia.xcscheme": ["WikipediaUnitTests"],
            "wvjb_WebViewJavascriptBridge.xcscheme": ["WebViewJavascriptBridgeTests"],
            "xcodegen_App_Scheme.xcscheme": ["App_iOS_UITests", "App_iOS_Tests"],
            "xwebview_iOS_XWebView.xcscheme": ["XWebViewTests"],
            "yavale_APP.xcscheme": ["APPTests", "APPUITests"],
        ]
        let files = try Realdata.files("xcscheme", ext: "xcscheme").map { ($0 as NSString).lastPathComponent }
        XCTAssertEqual(Set(files), Set(expected.keys))
        for file in files {
            let parsed = try scheme(file)
            let names = try XCTUnwrap(expected[file])
            XCTAssertEqual(parsed.testables.count, names.count, file)
            for name in names {
                XCTAssertNotNil(parsed.testable(named: name), "\(file): \(name)")
            }
        }
    }

    func testSkippedTestsAndTestPlansAreRead() throws {
        let wikipedia = try scheme("wikipedia_Wikipedia.xcscheme")
        let skipped = try XCTUnwrap(wikipedia.testable(named: "WikipediaUnitTests")).skippedTests
        XCTAssertTrue(skipped.contains("WMFSearchFetcherTests"))
        XCTAssertTrue(skipped.contains("MWKHistoryListPerformanceTests/testReadPerformance"))
        XCTAssertEqual(
            try scheme("alamofire_Alamofire_iOS.xcscheme").testPlans, ["container:Tests/Test Plans/iOS.xctestplan"])
    }

    func testAttributesWithoutSpacesAroundEqualsAreRead() throws {
        // yavale writes skipped="NO" by hand.
        XCTAssertTrue(try scheme("yavale_APP.xcscheme").testables.allSatisfy { !$0.skipped })
    }

    func testATestPlanOrGarbageIsNotAScheme() throws {
        for data in [try Realdata.data("xcscheme/alamofire_iOS.xctestplan"), Data(), Data("<a>".utf8), Data("{".utf8)] {
            XCTAssertThrowsError(try SchemeFile(data: data, source: "input")) { error in
                XCTAssertEqual((error as? XcodeRunnerError)?.code, .configInvalid)
            }
        }
    }

    func testARealTestPlanListsItsTargets() throws {
        let plan = try TestPlanFile(data: Realdata.data("xcscheme/alamofire_iOS.xctestplan"), source: "plan")
        XCTAssertEqual(plan.targets, [.init(name: "Alamofire iOS Tests", enabled: true, skippedTests: [])])
        XCTAssertThrowsError(
            try TestPlanFile(data: Realdata.data("xcscheme/alamofire_Alamofire_iOS.xcscheme"), source: "scheme"))
        XCTAssertEqual(
            TestPlanFile.url(
                forReference: "container:Tests/Test Plans/iOS.xctestplan",
                projectFolder: URL(fileURLWithPath: "/r/A.xcodeproj")
            ).path,
            "/r/Tests/Test Plans/iOS.xctestplan")
    }
}
