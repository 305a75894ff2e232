import Foundation
import XCTest

/// `webbridge doctor` run as the built binary on packages written by the test.
final class DoctorCommandTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardizedFileURL

    /// A package folder holding `files` (paths relative to it), removed after the test.
    func package(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    func doctor(_ folder: URL, _ extra: [String] = [], environment: [String: String]? = nil) throws -> CLIResult {
        try CLI.run(["doctor", "--package-path", folder.path] + extra, environment: environment)
    }

    /// The lines naming a test-style finding.
    func findings(_ result: CLIResult) -> [String] {
        result.stdout.split(separator: "\n").map(String.init).filter { $0.contains("[sync-main-actor-test]") }
    }

    func testAsyncMainActorTestMethodsPass() throws {
        let folder = try package([
            "Tests/BridgeTests/BridgeTests.swift": """
            import XCTest

            @MainActor
            final class BridgeTests: XCTestCase {
                func testReadyArrives() async throws {
                    let ready = expectation(description: "ready")
                    ready.fulfill()
                    await fulfillment(of: [ready], timeout: 10)
                }
            }
            """
        ])
        let result = try doctor(folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(findings(result), [])
        XCTAssertTrue(
            result.stdout.contains("ok test styles: 1 XCTestCase subclasses in 1 Swift files"), result.stdout)
    }

    func testSynchronousMainActorTestMethodIsStoppedWithTheRuleAndTheFix() throws {
        let folder = try package([
            "Tests/BridgeTests/BridgeTests.swift": """
            import XCTest

            @MainActor final class BridgeTests: XCTestCase {
                func testReadyArrives() throws {
                    let ready = expectation(description: "ready")
                    ready.fulfill()
                    wait(for: [ready], timeout: 10)
                }
            }
            """
        ])
        let result = try doctor(folder)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(
            findings(result),
            [
                "Tests/BridgeTests/BridgeTests.swift:4: [sync-main-actor-test] BridgeTests.testReadyArrives() is a "
                    + "synchronous test method on the main actor (class BridgeTests is @MainActor); `swift test` on "
                    + "Linux aborts every test at discovery. Fix: make it async and use await fulfillment(of:timeout:), "
                    + "or remove @MainActor and use MainActor.assumeIsolated"
            ])
        XCTAssertTrue(result.stdout.contains("FAIL test styles: 1 synchronous @MainActor test method"), result.stdout)
    }

    func testNonIsolatedTestMethodUsingAssumeIsolatedPasses() throws {
        let folder = try package([
            "Tests/BridgeTests/BridgeTests.swift": """
            import XCTest

            final class BridgeTests: XCTestCase {
                func testReadyArrives() throws {
                    // XCTest runs test methods on the main thread.
                    let title = MainActor.assumeIsolated { "ready" }
                    XCTAssertEqual(title, "ready")
                }
            }
            """
        ])
        let result = try doctor(folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(findings(result), [])
    }

    func testMainActorInheritedFromABaseClassOrOnTheMethodIsFound() throws {
        let folder = try package([
            "Tests/BridgeTests/Base.swift": """
            import XCTest

            @MainActor
            class EngineTestCase: XCTest.XCTestCase {}
            """,
            "Tests/BridgeTests/Derived.swift": """
            import XCTest

            final class DerivedTests: EngineTestCase {
                func testInherited() {}
                nonisolated func testOptedOut() {}
                func testWithArgument(_ value: Int) {}
                func testAsync() async {}
                static func testStatic() {}
            }

            final class PlainTests: XCTestCase {
                @MainActor func testMarked() throws {}
                func testPlain() {}
                // @MainActor func testInAComment() {}
                let text = "@MainActor func testInAString() {}"
            }

            @MainActor
            extension PlainTests {
                func testInAMainActorExtension() {}
            }

            @MainActor
            final class NotATestCase: NSObject {
                func testHelper() {}
            }
            """,
        ])
        let result = try doctor(folder)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        // Each finding as "file:line: [rule] Class.method (reason)".
        let summaries = findings(result).map { line in
            let head = line.components(separatedBy: "() is a synchronous")[0]
            let reason = line.components(separatedBy: "main actor (")[1].components(separatedBy: ");")[0]
            return "\(head) (\(reason))"
        }
        XCTAssertEqual(
            summaries,
            [
                "Tests/BridgeTests/Derived.swift:4: [sync-main-actor-test] DerivedTests.testInherited "
                    + "(class DerivedTests inherits @MainActor from EngineTestCase)",
                "Tests/BridgeTests/Derived.swift:12: [sync-main-actor-test] PlainTests.testMarked "
                    + "(the method is @MainActor)",
                "Tests/BridgeTests/Derived.swift:20: [sync-main-actor-test] PlainTests.testInAMainActorExtension "
                    + "(its extension of PlainTests is @MainActor)",
            ])
    }

    func testExtraPathsAreScannedToo() throws {
        let folder = try package([
            "Tests/BridgeTests/BridgeTests.swift": "import XCTest\nfinal class BridgeTests: XCTestCase {}\n",
            "Examples/AppTests/AppTests.swift": """
            import XCTest
            @MainActor final class AppTests: XCTestCase { func testLaunch() {} }
            """,
        ])
        XCTAssertEqual(try doctor(folder).status, 0)
        let result = try doctor(folder, ["--path", "Examples/AppTests"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(findings(result).count, 1, result.stdout)
        XCTAssertTrue(findings(result)[0].hasPrefix("Examples/AppTests/AppTests.swift:2: "), result.stdout)
    }

    func testControlCharactersInAFileNameAreEscaped() throws {
        let folder = try package([
            "Tests/BridgeTests/bad\u{1B}[31m\nname.swift": """
            import XCTest
            @MainActor final class AppTests: XCTestCase { func testLaunch() {} }
            """
        ])
        let result = try doctor(folder)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(findings(result).count, 1, result.stdout)
        XCTAssertTrue(findings(result)[0].hasPrefix("Tests/BridgeTests/bad\\u{1B}[31m\\nname.swift:2: "))
        let raw = (result.stdout + result.stderr).unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
        }
        XCTAssertEqual(raw.count, 0, "raw control characters in the output")
    }

    func testAFileThatIsNotTextIsNamedAndSkipped() throws {
        let folder = try package(["Tests/BridgeTests/BridgeTests.swift": "import XCTest\n"])
        try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: folder.appendingPathComponent("Tests/BridgeTests/Binary.swift"))
        let result = try doctor(folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("note test styles: skipped Tests/BridgeTests/Binary.swift: not readable as text"),
            result.stdout)
    }

    func testMissingToolsOnPathAreAnEnvironmentFailure() throws {
        let folder = try package(["Tests/BridgeTests/BridgeTests.swift": "import XCTest\n"])
        let emptyBin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: emptyBin, withIntermediateDirectories: true)
        let result = try doctor(folder, environment: ["PATH": emptyBin.path])
        XCTAssertEqual(result.status, 3, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains(
                "FAIL webkitgtk: pkg-config is in no PATH entry (the build runs `pkg-config webkit2gtk-4.1`). "
                    + "Remedy: sudo apt-get install libwebkit2gtk-4.1-dev pkg-config"), result.stdout)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") {
            // The engine starts /usr/bin/Xvfb when PATH has none: the xvfb line says so instead of failing beside
            // "ok display: a private Xvfb started".
            XCTAssertTrue(
                result.stdout.contains(
                    "ok xvfb: /usr/bin/Xvfb (in none of PATH's 1 entries; the engine starts it from there)"),
                result.stdout)
            XCTAssertFalse(result.stdout.contains("FAIL xvfb"), result.stdout)
        } else {
            XCTAssertTrue(
                result.stdout.contains(
                    "FAIL xvfb: Xvfb is in none of PATH's 1 entries and DISPLAY is unset. "
                        + "Remedy: sudo apt-get install xvfb, or set DISPLAY to a running X server"), result.stdout)
        }
    }

    func testUnreachableDisplayIsAnEnvironmentFailure() throws {
        let folder = try package(["Tests/BridgeTests/BridgeTests.swift": "import XCTest\n"])
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = ":4093"
        let result = try doctor(folder, environment: environment)
        XCTAssertEqual(result.status, 3, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("FAIL display: DISPLAY :4093 is set but not reachable. Remedy: "), result.stdout)
    }

    func testAMissingPathIsAUsageError() throws {
        let folder = try package(["Tests/BridgeTests/BridgeTests.swift": "import XCTest\n"])
        let result = try doctor(folder, ["--path", "nowhere"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.hasPrefix(
                "webbridge doctor: --path nowhere: no file or folder at \(folder.standardizedFileURL.path)/nowhere "
                    + "(a relative --path resolves against --package-path)\n"), result.stderr)
    }

    // MARK: issue 25 item 9

    /// A synchronous @MainActor test that doctor must find.
    static func syncMainActorTest(_ name: String) -> String {
        "import XCTest\n@MainActor final class \(name): XCTestCase { func testLaunch() {} }\n"
    }

    func testASymlinkedTestsFolderAndASymlinkedFolderInsideItAreScanned() throws {
        let folder = try package([
            "Modules/App/Tests/AppTests.swift": Self.syncMainActorTest("AppTests"),
            "Shared/SharedTests.swift": Self.syncMainActorTest("SharedTests"),
        ])
        let manager = FileManager.default
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("Tests").path, withDestinationPath: "Modules/App/Tests")
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("Modules/App/Tests/Shared").path,
            withDestinationPath: "../../../Shared")
        // A link back up must not loop or count a file twice.
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("Modules/App/Tests/Again").path, withDestinationPath: ".")
        let result = try doctor(folder)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(findings(result).count, 2, result.stdout)
    }

    func testAnUnreadableFolderIsReportedNotSkippedSilently() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("setpriv(1) is not installed, so doctor can't run as a user a folder is closed to")
        }
        let folder = try package([
            "Tests/BridgeTests/BridgeTests.swift": "import XCTest\n",
            "Tests/Private/Hidden.swift": Self.syncMainActorTest("Hidden"),
        ])
        // Readable by anyone but the private folder: doctor runs as nobody.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let closed = folder.appendingPathComponent("Tests/Private")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: closed.path)
        addTeardownBlock {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: closed.path)
        }
        let result = try CLI.runWrapped(
            ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"],
            ["doctor", "--package-path", folder.path])
        XCTAssertTrue(
            result.stdout.contains("note test styles: skipped Tests/Private: the folder can't be read"),
            result.stdout + result.stderr)
    }

    func testATestInsideIfFalseIsNotFlagged() throws {
        let folder = try package([
            "Tests/BridgeTests/Off.swift": """
            import XCTest
            #if false
            @MainActor final class OffTests: XCTestCase { func testOff() {} }
            #else
            final class OnTests: XCTestCase { func testOn() {} }
            #endif
            #if os(Linux)
            @MainActor final class LinuxTests: XCTestCase { func testLinux() {} }
            #endif
            """
        ])
        let result = try doctor(folder)
        XCTAssertEqual(findings(result).count, 1, result.stdout)
        XCTAssertTrue(findings(result).first?.contains("LinuxTests.testLinux") == true, result.stdout)
    }

    func testTestsInBranchesLinuxNeverCompilesAreNotFlagged() throws {
        // Each class is a sync @MainActor test: `On…` in a branch Linux compiles (or one doctor can't decide),
        // `Off…` in one it never compiles.
        func test(_ name: String) -> String { "@MainActor final class \(name): XCTestCase { func testIt() {} }" }
        let folder = try package([
            "Tests/BridgeTests/Platforms.swift": """
            import XCTest
            #if os(iOS)
            \(test("OffIOS"))
            #endif
            #if canImport(UIKit)
            \(test("OffUIKit"))
            #elseif canImport(AppKit)
            \(test("OffAppKit"))
            #else
            \(test("OnNoUIKit"))
            #endif
            #if !os(Linux)
            \(test("OffNotLinux"))
            #else
            \(test("OnLinuxElse"))
            #endif
            #if canImport(Darwin) // Apple only
            \(test("OffDarwin"))
            #elseif os(Linux)
            \(test("OnLinuxElseif"))
            #else
            \(test("OffAfterTaken"))
            #endif
            #if os(Linux)
              #if targetEnvironment(simulator)
            \(test("OffNested"))
              #endif
            #endif
            #if (os(macOS) || os(watchOS)) && DEBUG
            \(test("OffAnd"))
            #endif
            #if os(iOS) || DEBUG
            \(test("OnCustomFlag"))
            #endif
            #if !(os(iOS) || canImport(UIKit))
            \(test("OnNegated"))
            #endif
            """
        ])
        let result = try doctor(folder)
        let flagged = findings(result).compactMap { line in
            line.split(separator: " ").first { $0.hasSuffix(".testIt()") }.map {
                String($0.dropLast(".testIt()".count))
            }
        }
        XCTAssertEqual(
            flagged.sorted(), ["OnCustomFlag", "OnLinuxElse", "OnLinuxElseif", "OnNegated", "OnNoUIKit"],
            result.stdout)
    }

    func testABaseClassThatIsATypealiasOfXCTestCaseIsFollowed() throws {
        let folder = try package([
            "Tests/BridgeTests/Alias.swift": """
            import XCTest
            typealias TestCase = XCTest.XCTestCase
            @MainActor final class AliasTests: TestCase { func testLaunch() {} }
            """
        ])
        let result = try doctor(folder)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(findings(result).count, 1, result.stdout)
    }

    func testInvisibleAndReorderingCharactersInNamesAreEscaped() throws {
        let folder = try package(["Tests/BridgeTests/Names.swift": Self.syncMainActorTest("A\u{200B}B\u{202E}C")])
        let result = try doctor(folder)
        XCTAssertEqual(findings(result).count, 1, result.stdout)
        XCTAssertTrue(findings(result)[0].contains("A\\u{200B}B\\u{202E}C.testLaunch"), result.stdout)
        XCTAssertFalse(
            result.stdout.unicodeScalars.contains { $0.value == 0x200B || $0.value == 0x202E }, "raw in the output")
    }

    func testThisPackagesTestsUseOnlyPortableStyles() throws {
        let result = try doctor(Self.repository, ["--path", "Examples/Client"])
        XCTAssertEqual(findings(result), [], result.stdout)
        XCTAssertTrue(result.stdout.contains("ok test styles: "), result.stdout)
    }
}
