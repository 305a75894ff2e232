import BridgeContract
import BridgeTesting
import EngineTestSupport
import Foundation
import XCTest

/// The worked contracts of Docs/CONTRACT.md, one per bridge in Fixtures/Protocols, each checked with its published
/// JavaScript on the real engine: the correct page passes and every broken page fails in its category, with a
/// failure that names the field, index or rule.
@MainActor
final class WorkedContractTests: XCTestCase {
    static let folder = ProtocolCheckTests.folder
    static let receiverFailure = FailureCategory.nativeDidNotReceive.rawValue
    static let pageFailure = FailureCategory.pageDidNotAccept.rawValue

    /// A page, the category it must fail in (nil: it passes) and words its failure must contain.
    typealias Case = (page: String, category: String?, mentions: [String])

    func contract(of bridge: String) throws -> BridgeContract {
        let url = Self.folder.appendingPathComponent(bridge).appendingPathComponent("contract.json")
        var contract = try BridgeContract.load(contentsOf: url)
        contract.check = try contract.check?.resolvingScripts(relativeTo: url.deletingLastPathComponent())
        try contract.check?.check(against: contract)
        return contract
    }

    func checkEveryPage(of bridge: String, _ cases: [Case]) async throws {
        let server = try LoopbackHTTPServer(folder: Self.folder)
        defer { server.stop() }
        let contract = try contract(of: bridge)
        // Every page of the folder is in the table: a new broken page can't go unchecked.
        let pages = try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent(bridge).path)
            .filter { $0.hasSuffix(".html") && $0 != "two.html" }
        XCTAssertEqual(Set(pages), Set(cases.map { $0.page + ".html" }), "\(bridge): pages and cases differ")
        for item in cases {
            let configuration = CheckConfiguration(
                page: .url(server.url("/\(bridge)/\(item.page).html")), contract: contract,
                timeout: CheckConfiguration.defaultTimeout)
            let report = await BridgeCheck.run(configuration)
            let shown = report.text()
            let label = "\(bridge)/\(item.page)"
            guard let category = item.category else {
                // A page that passes may still have to show something on its timeline.
                XCTAssertTrue(report.passed, "\(label) should pass:\n\(shown)")
                for mention in item.mentions {
                    XCTAssertTrue(shown.contains(mention), "\(label): the report does not show '\(mention)':\n\(shown)")
                }
                continue
            }
            XCTAssertEqual(report.failures.map(\.category.rawValue), [category], "\(label): category:\n\(shown)")
            let detail = report.failures.map(\.detail).joined(separator: "\n")
            for mention in item.mentions {
                XCTAssertTrue(detail.contains(mention), "\(label): the failure does not say '\(mention)':\n\(shown)")
            }
            // A stray answer decides the verdict when it arrives: the check does not wait out its deadline.
            if item.mentions.contains(where: { $0.contains("answers no request native sent") }) {
                XCTAssertFalse(
                    detail.contains("no valid") || detail.contains(" within "),
                    "\(label): the stray answer did not decide the verdict when it came:\n\(shown)")
            }
        }
    }

    /// react-native-webview and webview_flutter carry the same app messages as JSON text in a String body.
    static func textChannelCases(objectOnString: [String]) -> [Case] {
        [
            ("pass", nil, []),
            ("wrong-field-type", receiverFailure, ["body(json).version", "Number 1", "found String"]),
            ("missing-field", receiverFailure, ["body(json).userId", "Missing"]),
            ("not-json", receiverFailure, ["not-json"]),
            ("object-on-string", receiverFailure, objectOnString),
            ("unknown-kind", receiverFailure, ["body(json).type", "unknown-kind"]),
            ("wrong-callback-id", receiverFailure, ["pong answers no request native sent (unknown id)"]),
            ("double-callback", receiverFailure, ["(duplicate id)", "duplicate 'pong'"]),
            ("script-twice", receiverFailure, ["duplicate 'ready'", "duplicate 'getUser'"]),
        ]
    }

    func testReactNativeWebViewWorkedContract() async throws {
        // The injected postMessage posts String(data): an object arrives as the text "[object Object]".
        try await checkEveryPage(
            of: "react-native-webview", Self.textChannelCases(objectOnString: ["not-json", "body"]))
    }

    func testWebViewFlutterWorkedContract() async throws {
        // The channel is WebKit's own postMessage: an object arrives as an Object where the text goes.
        try await checkEveryPage(
            of: "webview-flutter", Self.textChannelCases(objectOnString: ["body: expected JSON text", "found Object"]))
    }

    func testWKWebViewJavascriptBridgeWorkedContract() async throws {
        try await checkEveryPage(
            of: "wkwebview-javascript-bridge",
            [
                // Both pings answered, each with its own callbackID.
                ("pass", nil, ["pong: matched"]),
                ("wrong-field-type", Self.receiverFailure, ["data.userId", "expected String, found Number"]),
                ("missing-field", Self.receiverFailure, ["data.userId", "Missing"]),
                ("text-for-object", Self.receiverFailure, ["data", "expected Object, found String"]),
                ("unknown-kind", Self.receiverFailure, ["handlerName", "unknown-kind"]),
                // Ping 2 answered with ping 1's id: the verdict comes when that answer arrives, not at the deadline.
                ("stale-callback-id", Self.receiverFailure, ["pong answers no request native sent (late id)"]),
                ("double-callback", Self.receiverFailure, ["pong answers no request native sent (duplicate id)"]),
                ("script-twice", Self.receiverFailure, ["duplicate 'inject'"]),
            ])
    }

    func testTurboIOSWorkedContract() async throws {
        try await checkEveryPage(
            of: "turbo-ios",
            [
                ("pass", nil, []),
                ("wrong-field-type", Self.receiverFailure, ["data.location", "expected String, found Number"]),
                ("missing-field", Self.receiverFailure, ["data.location", "Missing"]),
                ("string-body", Self.receiverFailure, ["body", "found String"]),
                ("unknown-kind", Self.receiverFailure, ["name", "unknown-kind"]),
                (
                    "wrong-visit-id", Self.receiverFailure,
                    ["visitCompleted answers no request native sent (unknown id)"]
                ),
                (
                    "double-callback", Self.receiverFailure,
                    ["visitCompleted answers no request native sent (duplicate id)"]
                ),
                ("script-twice", Self.receiverFailure, ["duplicate 'pageLoaded'"]),
            ])
    }

    func testCordovaWorkedContract() async throws {
        try await checkEveryPage(
            of: "cordova",
            [
                ("pass", nil, []),
                ("wrong-field-type", Self.receiverFailure, ["body[3]", "found Object"]),
                // WebKit drops the undefined element: args moves to body[2] and body[3] is missing.
                ("missing-field", Self.receiverFailure, ["body[2]", "body[3]", "Missing"]),
                ("text-not-array", Self.receiverFailure, ["body", "found String"]),
                ("object-not-array", Self.receiverFailure, ["body", "found Object"]),
                ("unknown-kind", Self.receiverFailure, ["body[1]: expected String \"Device\"", "constant-mismatch"]),
                // The answer to an id cordova.callbacks never held reaches nothing: the page never shows it.
                ("stale-callback-id", Self.pageFailure, ["cordova.exec.nativeCallback", "did not show"]),
                ("double-callback", Self.receiverFailure, ["duplicate 'exec'"]),
                // The second copy throws as it starts and sends nothing: the play fails on uncaught errors.
                (
                    "script-twice", Self.receiverFailure,
                    ["the page had an uncaught error: Error: cordova already defined"]
                ),
            ])
    }
}
