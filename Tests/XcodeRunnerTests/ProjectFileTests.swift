import Foundation
import XCTest

@testable import XcodeRunner

final class ProjectFileTests: XCTestCase {
    func project(_ name: String, sourceRoot: URL? = nil) throws -> ProjectFile {
        try ProjectFile(data: Realdata.data("pbxproj/" + name), source: name, sourceRoot: sourceRoot)
    }

    func testPropertyListSerializationReadsEveryRealOpenStepProject() throws {
        // Target names read off the files with grep.
        let expected: [String: Set<String>] = [
            "bacons_007-xcode16.pbxproj": ["ScoreTally", "ScoreTallyUITests"],
            "bacons_011-swift-ios-27.pbxproj": ["swift-ios-27"],
            "ecmaswift_project.pbxproj": ["ECMASwift", "ECMASwiftTests"],
            "frequentflyer_project.pbxproj": ["FrequentFlyer", "FrequentFlyerTests"],
            "wvjb_Tests_project.pbxproj": ["WebViewJavascriptBridgeTests", "WebViewJavascriptBridgeTestHost"],
            "xwebview_iOS_project.pbxproj": ["XWebView", "XWebViewTests"],
            "yavale_APP_project.pbxproj": ["APP", "APPTests", "APPUITests"],
        ]
        let files = try Realdata.files("pbxproj", ext: "pbxproj").map { ($0 as NSString).lastPathComponent }
        XCTAssertEqual(Set(files), Set(expected.keys))
        for file in files {
            XCTAssertEqual(Set(try project(file).targetNames), expected[file], file)
        }
    }

    func testAFixtureInTheTestTargetsResourcesIsFound() throws {
        XCTAssertEqual(
            try project("ecmaswift_project.pbxproj").membership(of: "index.html", inTarget: "ECMASwiftTests"),
            .inTargetResources)
        XCTAssertEqual(
            try project("ecmaswift_project.pbxproj").membership(of: "app.js", inTarget: "ECMASwiftTests"),
            .inTargetResources)
        XCTAssertEqual(
            try project("frequentflyer_project.pbxproj").membership(
                of: "web_view_controller_test.html", inTarget: "FrequentFlyerTests"),
            .inTargetResources)
    }

    func testAFixtureOnlyInTheHostAppIsInTheProjectButNotTheTestResources() throws {
        XCTAssertEqual(
            try project("wvjb_Tests_project.pbxproj").membership(
                of: "echo.html", inTarget: "WebViewJavascriptBridgeTests"),
            .inProjectOnly(targetsWithIt: ["WebViewJavascriptBridgeTestHost"]))
        XCTAssertEqual(
            try project("yavale_APP_project.pbxproj").membership(of: "index.html", inTarget: "APPTests"),
            .inProjectOnly(targetsWithIt: ["APP"]))
    }

    func testAFixtureTheProjectNeverMentionsIsNotInTheProject() throws {
        XCTAssertEqual(
            try project("ecmaswift_project.pbxproj").membership(of: "BridgeFixture.html", inTarget: "ECMASwiftTests"),
            .notInProject)
        XCTAssertNil(try project("ecmaswift_project.pbxproj").membership(of: "index.html", inTarget: "NoSuchTests"))
    }

    func testAFolderReferenceIsLookedIntoOnDisk() throws {
        // XWebView's test resources hold the folder "www" (XWebViewTests/www), which contains webviewTest.html.
        XCTAssertEqual(
            try project("xwebview_iOS_project.pbxproj").membership(of: "webviewTest.html", inTarget: "XWebViewTests"),
            .notVisible(folders: ["www"]))
        let root = try makeTemporaryFolder(self)
        let www = root.appendingPathComponent("XWebViewTests/www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try Data("<html></html>".utf8).write(to: www.appendingPathComponent("webviewTest.html"))
        XCTAssertEqual(
            try project("xwebview_iOS_project.pbxproj", sourceRoot: root).membership(
                of: "webviewTest.html", inTarget: "XWebViewTests"),
            .inTargetResources)
        XCTAssertEqual(
            try project("xwebview_iOS_project.pbxproj", sourceRoot: root).membership(
                of: "other.html", inTarget: "XWebViewTests"),
            .notInProject)
    }

    func testAnXcode16ResourceListedInTheUITestTargetIsFound() throws {
        XCTAssertEqual(
            try project("bacons_007-xcode16.pbxproj").membership(
                of: "Snapshots.xctestplan", inTarget: "ScoreTallyUITests"),
            .inTargetResources)
    }

    func testAConflictedOrForeignFileIsRefused() throws {
        var text = try Realdata.text("pbxproj/ecmaswift_project.pbxproj")
        text = text.replacingOccurrences(of: "isa = PBXProject;", with: "<<<<<<< HEAD\nisa = PBXProject;")
        for data in [Data(text.utf8), Data("{}".utf8), Data()] {
            XCTAssertThrowsError(try ProjectFile(data: data, source: "input")) { error in
                XCTAssertEqual((error as? XcodeRunnerError)?.code, .configInvalid)
            }
        }
    }

    func testTheExampleClientProjectHasTheFixtureInClientTests() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Examples/Client/Client.xcodeproj")
        let parsed = try ProjectFile(projectFolder: example.standardizedFileURL)
        XCTAssertEqual(Set(parsed.targetNames), ["Client", "ClientTests"])
        XCTAssertEqual(parsed.membership(of: "BridgeFixture.html", inTarget: "ClientTests"), .inTargetResources)
        XCTAssertEqual(
            parsed.membership(of: "BridgeFixture.html", inTarget: "Client"),
            .inProjectOnly(targetsWithIt: ["ClientTests"]))
    }
}
