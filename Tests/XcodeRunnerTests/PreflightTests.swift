import Foundation
import XCTest

@testable import XcodeRunner

/// A job folder built from real project files: `<folder>/App.xcodeproj` plus an optional shared scheme.
struct JobFolder {
    let folder: URL
    var config: JobConfig

    init(
        _ test: XCTestCase, pbxproj: String, scheme: (file: String, name: String)?,
        schemeText: ((String) -> String)? = nil, config: JobConfig
    ) throws {
        folder = try makeTemporaryFolder(test)
        let project = folder.appendingPathComponent("App.xcodeproj")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Realdata.data("pbxproj/" + pbxproj).write(to: project.appendingPathComponent("project.pbxproj"))
        if let scheme {
            let schemes = project.appendingPathComponent("xcshareddata/xcschemes")
            try FileManager.default.createDirectory(at: schemes, withIntermediateDirectories: true)
            var text = try Realdata.text("xcscheme/" + scheme.file)
            if let schemeText { text = schemeText(text) }
            try Data(text.utf8).write(to: schemes.appendingPathComponent(scheme.name + ".xcscheme"))
        }
        if pbxproj == "ecmaswift_project.pbxproj" {
            // Where ECMASwift keeps its fixture: group ECMASwiftTests (path ECMASwiftTests) > group web (path web) > index.html.
            let web = folder.appendingPathComponent("ECMASwiftTests/web")
            try FileManager.default.createDirectory(at: web, withIntermediateDirectories: true)
            try Data("<html></html>".utf8).write(to: web.appendingPathComponent("index.html"))
        }
        var config = config
        config.project = "App.xcodeproj"
        self.config = config
    }

    /// ECMASwift: its test target holds index.html, its shared scheme tests ECMASwiftTests.
    static func ecmaswift(
        _ test: XCTestCase, schemeText: ((String) -> String)? = nil, edit: (inout JobConfig) -> Void = { _ in }
    ) throws -> JobFolder {
        var config = JobConfig(
            xcodeVersion: "13.2.1", xcodeBuild: "13C100", runtime: "com.apple.CoreSimulator.SimRuntime.iOS-17-5",
            deviceType: "iPhone 15", udid: "218E4ECD-F530-413F-9A8F-65951D3C4DBF", scheme: "ECMASwift",
            testTarget: "ECMASwiftTests",
            onlyTesting: "ECMASwiftTests/ECMASwiftTests", fixture: "index.html", results: "results")
        edit(&config)
        return try JobFolder(
            test, pbxproj: "ecmaswift_project.pbxproj", scheme: ("ecmaswift_ECMASwift.xcscheme", "ECMASwift"),
            schemeText: schemeText, config: config)
    }
}

/// Replay rules for a Mac whose Xcode is 13.2.1 and whose simulators are the Xcode 16 RC listing.
func macRules() -> [ReplayRule] {
    [
        ReplayRule("xcodebuild", ["-version"], output: xcode13Version),
        ReplayRule(
            "xcrun", ["simctl", "list", "devices"], output: Realdata.url("simctl/openbakery_simctl-list-xcode16.json")),
    ]
}

final class PreflightTests: XCTestCase {
    func checks(_ job: JobFolder, tools: ToolRunner, bundle: URL? = nil) -> [PreflightCheck] {
        let artifacts =
            bundle.map { RunArtifacts(resultBundle: $0) }
            ?? .default(
                results: job.folder.appendingPathComponent("results"), udid: job.config.udid ?? "", start: Date())
        return Preflight(config: job.config, folder: job.folder, tools: tools).run(artifacts: [artifacts])
    }

    /// The first failure line, or a message saying there was none (so a missing failure fails, not crashes).
    func firstLine(_ failed: [String]) -> String { failed.first ?? "no failure reported" }

    func failures(_ checks: [PreflightCheck]) -> [String] {
        checks.filter { $0.status == .failed }.map(\.description)
    }

    func testAPinnedJobOnTheMacPassesEveryCheck() throws {
        let job = try JobFolder.ecmaswift(self)
        let replay = try Replay(self, rules: macRules())
        let result = checks(job, tools: replay.tools)
        XCTAssertEqual(failures(result), [])
        XCTAssertTrue(result.allSatisfy { $0.status == .passed }, result.map(\.description).joined(separator: "\n"))
        XCTAssertEqual(Set(result.map(\.name)), ["config", "scheme", "fixture", "result bundle", "xcode", "simulator"])
        XCTAssertTrue(try replay.calls().contains(["xcodebuild", "-version"]))
    }

    func testWithoutXcrunAndXcodebuildTheMacChecksAreNotRun() throws {
        let job = try JobFolder.ecmaswift(self)
        let result = checks(job, tools: ToolRunner(environment: ["PATH": "/usr/bin:/bin"]))
        XCTAssertEqual(failures(result), [])
        XCTAssertEqual(result.filter { $0.status == .notRun }.map(\.name), ["xcode", "simulator"])
        XCTAssertTrue(result.passed)
    }

    func testAnUnsharedSchemeFailsWithTheSharingRemedy() throws {
        let job = try JobFolder(
            self, pbxproj: "ecmaswift_project.pbxproj", scheme: nil, config: try JobFolder.ecmaswift(self).config)
        let failed = failures(checks(job, tools: try Replay(self, rules: macRules()).tools))
        XCTAssertEqual(failed.count, 1, failed.joined(separator: "\n"))
        XCTAssertTrue(
            firstLine(failed).contains("is not shared") && firstLine(failed).contains("Manage Schemes"),
            firstLine(failed))
    }

    func testASchemeWithoutTheTestTargetAsTestableFails() throws {
        var config = try JobFolder.ecmaswift(self).config
        config.scheme = "Runnable"
        let job = try JobFolder(
            self, pbxproj: "ecmaswift_project.pbxproj",
            scheme: ("bacons_RunnableWithoutBuildableReference.xcscheme", "Runnable"), config: config)
        let failed = failures(checks(job, tools: try Replay(self, rules: macRules()).tools))
        XCTAssertEqual(failed.count, 1, failed.joined(separator: "\n"))
        XCTAssertTrue(firstLine(failed).contains("has no testable 'ECMASwiftTests'"), firstLine(failed))
    }

    func testASkippedTestableFails() throws {
        // Derived: no committed real scheme has skipped = "YES", so the real ECMASwift scheme is flipped.
        let job = try JobFolder.ecmaswift(
            self, schemeText: { $0.replacingOccurrences(of: "skipped = \"NO\"", with: "skipped = \"YES\"") })
        let failed = failures(checks(job, tools: try Replay(self, rules: macRules()).tools))
        XCTAssertEqual(failed.count, 1, failed.joined(separator: "\n"))
        XCTAssertTrue(firstLine(failed).contains("is skipped"), firstLine(failed))
    }

    func testABridgeTestClassListedUnderSkippedTestsFails() throws {
        var config = try JobFolder.ecmaswift(self).config
        config.scheme = "Wikipedia"
        config.testTarget = "WikipediaUnitTests"
        config.onlyTesting = "WikipediaUnitTests/WMFSearchFetcherTests"
        let job = try JobFolder(
            self, pbxproj: "ecmaswift_project.pbxproj", scheme: ("wikipedia_Wikipedia.xcscheme", "Wikipedia"),
            config: config)
        let failed = failures(checks(job, tools: try Replay(self, rules: macRules()).tools))
        XCTAssertTrue(failed.contains { $0.contains("skips 'WMFSearchFetcherTests'") }, failed.joined(separator: "\n"))
    }

    /// Alamofire's real scheme, whose TestAction points at "container:Tests/Test Plans/iOS.xctestplan".
    func alamofire(plan: String?, target: String = "Alamofire iOS Tests") throws -> [PreflightCheck] {
        var config = try JobFolder.ecmaswift(self).config
        config.scheme = "Alamofire iOS"
        config.testTarget = target
        config.onlyTesting = target + "/SessionTests"
        let job = try JobFolder(
            self, pbxproj: "ecmaswift_project.pbxproj", scheme: ("alamofire_Alamofire_iOS.xcscheme", "Alamofire iOS"),
            config: config)
        if let plan {
            let folder = job.folder.appendingPathComponent("Tests/Test Plans")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(plan.utf8).write(to: folder.appendingPathComponent("iOS.xctestplan"))
        }
        return checks(job, tools: ToolRunner(environment: ["PATH": "/usr/bin:/bin"])).filter { $0.name == "scheme" }
    }

    func testASchemeWithATestPlanIsCheckedAgainstThePlan() throws {
        let plan = try Realdata.text("xcscheme/alamofire_iOS.xctestplan")
        XCTAssertEqual(try alamofire(plan: plan).map(\.status), [.passed])
        let notListed = try alamofire(plan: plan, target: "ClientTests")
        XCTAssertEqual(
            notListed.map(\.description),
            [
                "FAIL scheme: no test plan of scheme 'Alamofire iOS' lists 'ClientTests'. Remedy: add ClientTests to the scheme's test plan, and commit the .xctestplan"
            ])
    }

    func testAMissingDisabledOrSkippingTestPlanFails() throws {
        XCTAssertTrue(try alamofire(plan: nil).first?.detail.contains("(not found: iOS.xctestplan)") == true)
        // Derived from the real plan: the target disabled, then the bridge tests' class skipped.
        let plan = try Realdata.text("xcscheme/alamofire_iOS.xctestplan")
        let disabled = plan.replacingOccurrences(
            of: "\"target\" : {", with: "\"enabled\" : false,\n      \"target\" : {")
        XCTAssertTrue(
            try alamofire(plan: disabled).first?.detail.contains("has 'Alamofire iOS Tests' disabled") == true)
        let skipping = plan.replacingOccurrences(
            of: "\"target\" : {", with: "\"skippedTests\" : [\"SessionTests\"],\n      \"target\" : {")
        XCTAssertTrue(try alamofire(plan: skipping).first?.detail.contains("skips 'SessionTests'") == true)
        XCTAssertEqual(try alamofire(plan: "<Scheme/>").first?.status, .failed)
    }

    func testAFixtureOnlyInTheHostAppAndAFixtureNotInTheProjectAreToldApart() throws {
        var config = try JobFolder.ecmaswift(self).config
        config.scheme = "Bridge"
        config.testTarget = "WebViewJavascriptBridgeTests"
        config.fixture = "echo.html"
        let hostOnly = try JobFolder(
            self, pbxproj: "wvjb_Tests_project.pbxproj", scheme: ("wvjb_WebViewJavascriptBridge.xcscheme", "Bridge"),
            config: config)
        let tools = try Replay(self, rules: macRules()).tools
        let first = failures(checks(hostOnly, tools: tools))
        XCTAssertEqual(first.count, 1, first.joined(separator: "\n"))
        XCTAssertTrue(
            firstLine(first).contains(
                "in the project but not in the test target's resources (it is a resource of WebViewJavascriptBridgeTestHost)"
            ), firstLine(first))
        var absent = hostOnly
        absent.config.fixture = "BridgeFixture.html"
        let second = failures(checks(absent, tools: tools))
        XCTAssertEqual(
            second,
            [
                "FAIL fixture: BridgeFixture.html is not in the project. Remedy: add BridgeFixture.html to the project with target membership WebViewJavascriptBridgeTests"
            ])
    }

    func testAFixtureInTheResourcesPhaseButMissingOnDiskFails() throws {
        let job = try JobFolder.ecmaswift(self)
        try FileManager.default.removeItem(at: job.folder.appendingPathComponent("ECMASwiftTests/web/index.html"))
        XCTAssertEqual(
            failures(checks(job, tools: try Replay(self, rules: macRules()).tools)),
            [
                "FAIL fixture: index.html is in the Resources phase of 'ECMASwiftTests' but missing on disk (ECMASwiftTests/web/index.html). Remedy: add the file at that path, or fix its location in Xcode's File inspector"
            ])
    }

    func testAnExistingResultBundleFails() throws {
        let job = try JobFolder.ecmaswift(self)
        let bundle = job.folder.appendingPathComponent("old.xcresult")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let failed = failures(checks(job, tools: try Replay(self, rules: macRules()).tools, bundle: bundle))
        XCTAssertEqual(failed.count, 1, failed.joined(separator: "\n"))
        XCTAssertTrue(firstLine(failed).contains("old.xcresult already exists"), firstLine(failed))
    }

    func testARunningXcodeOtherThanThePinFails() throws {
        let job = try JobFolder.ecmaswift(
            self,
            edit: {
                $0.xcodeVersion = "16.2"; $0.xcodeBuild = "16C5032a"
            })
        let failed = failures(checks(job, tools: try Replay(self, rules: macRules()).tools))
        XCTAssertEqual(
            failed,
            [
                "FAIL xcode: running Xcode 13.2.1 (13C100), pinned Xcode 16.2 (16C5032a). Remedy: select the pinned Xcode ('sudo xcode-select -s /Applications/Xcode_16.2.app') or pin again deliberately"
            ])
    }

    func testAPinnedSimulatorThatIsGoneUnavailableOrOnAnotherRuntimeFails() throws {
        let tools = try Replay(self, rules: macRules()).tools
        let gone = try JobFolder.ecmaswift(self, edit: { $0.udid = "00000000-0000-0000-0000-000000000000" })
        XCTAssertTrue(failures(checks(gone, tools: tools)).first?.contains("no longer exists") == true)
        let unavailable = try JobFolder.ecmaswift(
            self,
            edit: {
                $0.udid = "E3D997E5-7AF5-4D3C-9A1E-31B96E8380E6"
                $0.runtime = "com.apple.CoreSimulator.SimRuntime.iOS-17-4"
            })
        XCTAssertTrue(failures(checks(unavailable, tools: tools)).first?.contains("is unavailable") == true)
        let moved = try JobFolder.ecmaswift(self, edit: { $0.runtime = "com.apple.CoreSimulator.SimRuntime.iOS-18-0" })
        XCTAssertTrue(
            failures(checks(moved, tools: tools)).first?.contains(
                "has runtime com.apple.CoreSimulator.SimRuntime.iOS-17-5, pinned com.apple.CoreSimulator.SimRuntime.iOS-18-0"
            ) == true)
    }

    func testEveryFailureIsReportedAtOnceOneLineEach() throws {
        var config = try JobFolder.ecmaswift(self).config
        config.xcodeVersion = "16.2"
        config.udid = "E3D997E5-7AF5-4D3C-9A1E-31B96E8380E6"
        config.fixture = "BridgeFixture.html"
        config.scheme = nil
        let job = try JobFolder(self, pbxproj: "ecmaswift_project.pbxproj", scheme: nil, config: config)
        let bundle = job.folder.appendingPathComponent("old.xcresult")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let failed = failures(checks(job, tools: try Replay(self, rules: macRules()).tools, bundle: bundle))
        XCTAssertEqual(
            failed.map { $0.split(separator: ":")[0] },
            ["FAIL config", "FAIL scheme", "FAIL fixture", "FAIL result bundle", "FAIL xcode", "FAIL simulator"])
        XCTAssertTrue(
            failed.allSatisfy { !$0.contains("\n") && $0.contains("Remedy: ") }, failed.joined(separator: "\n"))
    }

    func testUnpinnedFieldsFailOnAMacButAreNotRunWithoutOne() throws {
        let job = try JobFolder.ecmaswift(
            self,
            edit: {
                $0.udid = nil; $0.xcodeVersion = nil; $0.xcodeBuild = nil; $0.runtime = nil
            })
        let onMac = failures(checks(job, tools: try Replay(self, rules: macRules()).tools))
        XCTAssertTrue(
            onMac.contains(
                "FAIL config: udid is missing. Remedy: run 'webbridge xcode pin --runtime … --device-type …'"),
            onMac.joined(separator: "\n"))
        let offMac = checks(job, tools: ToolRunner(environment: ["PATH": "/usr/bin:/bin"]))
        XCTAssertEqual(offMac.filter { $0.status == .notRun && $0.name == "config" }.count, 3)
        // The Xcode version is the one pin no platform may leave open: CI selects Xcode_<xcodeVersion>.app from it.
        XCTAssertEqual(
            failures(offMac),
            [
                "FAIL config: xcodeVersion is missing: a job must pin the Xcode it runs with (CI selects "
                    + "/Applications/Xcode_<xcodeVersion>.app). Remedy: run 'webbridge xcode pin' on the Mac "
                    + "and commit the config"
            ])
    }

    func testAUDIDListedUnderTwoRuntimesFailsWithTheRuleAndRemedyOfPin() throws {
        let job = try JobFolder.ecmaswift(self)
        let udid = try XCTUnwrap(job.config.udid)
        let listing = try editedListing { replaceUDID(in: &$0, runtime: "iOS-17-4", name: "iPhone 15", with: udid) }
        let file = job.folder.appendingPathComponent("listing.json")
        try listing.write(to: file)
        let replay = try Replay(
            self,
            rules: [
                ReplayRule("xcodebuild", ["-version"], output: xcode13Version),
                ReplayRule("xcrun", ["simctl", "list", "devices"], output: file),
            ])
        let failed = failures(checks(job, tools: replay.tools))
        var pinRefusal = "pin accepted the listing"
        do {
            _ = try XcodeJob(tools: replay.tools, console: RecordingConsole().console).pin(
                runtime: "iOS 17.5", deviceType: "iPhone 15", simctlJSON: listing, config: JobConfig())
        } catch { pinRefusal = "FAIL simulator: \(error.rule). Remedy: \(error.remedy)" }
        XCTAssertEqual(failed, [pinRefusal], "preflight and pin must say the same thing")
        XCTAssertFalse(firstLine(failed).contains("pin again"), "pinning again picks the same UDID")
    }

    func testValuesReadFromTheConfigCannotForgeLinesInTheReport() throws {
        let job = try JobFolder.ecmaswift(
            self, edit: { $0.scheme = "Nope\nok config: every field is set\u{1B}[2K\r\u{9B}1A\u{7}" })
        let lines = checks(job, tools: ToolRunner(environment: ["PATH": "/usr/bin:/bin"])).map(\.description)
        let raw = lines.filter { line in
            line.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        XCTAssertEqual(raw, [], "a control character from the config reached the report")
        XCTAssertTrue(
            lines.contains { $0.contains(#"scheme 'Nope\nok config: every field is set\u{1B}[2K\r\u{9B}1A\u{7}'"#) },
            lines.joined(separator: "\n"))
    }
}
