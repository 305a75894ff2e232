import BridgeContract
import BridgeTesting
import EngineTestSupport
import Foundation
import XCTest

/// The one check on the bridges teams run: Hotwire Native, Capacitor, a reply-handler bridge and a custom
/// protocol, each with its real published JavaScript where there is one, a passing page and broken variants.
///
/// Every page's expected outcome, and a word its failure must mention, come from `Protocols/protocols.json`.
@MainActor
final class ProtocolCheckTests: XCTestCase {
    /// The default deadline: a verdict comes as soon as it is decided, so only a page that never answers waits it out.
    static let timeout = CheckConfiguration.defaultTimeout
    static let folder = Bundle.module.url(forResource: "Protocols", withExtension: nil, subdirectory: "Fixtures")!

    struct Page: Decodable {
        let outcome: String
        let mention: String?
        let play: String?
        let alsoWith: Variant?

        struct Variant: Decodable {
            let play: String
            let outcome: String
        }
    }

    /// The pages of one protocol, in the file's order, with what each must do.
    func pages(of name: String) throws -> [(path: String, page: Page)] {
        struct Document: Decodable { let pages: [String: Page] }
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("protocols.json"))
        let pages = try JSONDecoder().decode(Document.self, from: data).pages
        return pages.filter { $0.key.hasPrefix(name + "/") }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    func contract(of name: String) throws -> BridgeContract {
        let url = Self.folder.appendingPathComponent(name).appendingPathComponent("contract.json")
        var contract = try BridgeContract.load(contentsOf: url)
        contract.check = try contract.check?.resolvingScripts(relativeTo: url.deletingLastPathComponent())
        return contract
    }

    /// The play a page names ("error reply …" plays the protocol's error-play.json).
    func play(_ name: String?, of protocolName: String, contract: BridgeContract) throws -> CheckPlay? {
        guard let name, name.hasPrefix("error") else { return nil }
        let url = Self.folder.appendingPathComponent(protocolName).appendingPathComponent("error-play.json")
        return try CheckPlay.load(contentsOf: url, for: contract)
    }

    /// Serves the folder on loopback (Hotwire's pages import an ES module) and checks every page of a protocol.
    func checkEveryPage(of name: String) async throws {
        let server = try LoopbackHTTPServer(folder: Self.folder)
        defer { server.stop() }
        let contract = try contract(of: name)
        let pages = try pages(of: name)
        XCTAssertGreaterThan(pages.count, 5, "\(name): too few pages to prove the check on")
        for (path, page) in pages {
            try await check(path, page.outcome, mention: page.mention, play: page.play, contract, server, name)
            if let variant = page.alsoWith {
                try await check(path, variant.outcome, mention: nil, play: variant.play, contract, server, name)
            }
        }
    }

    func check(
        _ path: String, _ outcome: String, mention: String?, play playName: String?, _ contract: BridgeContract,
        _ server: LoopbackHTTPServer, _ protocolName: String
    ) async throws {
        let configuration = CheckConfiguration(
            page: .url(server.url("/" + path)), contract: contract, timeout: Self.timeout,
            play: try play(playName, of: protocolName, contract: contract))
        let report = await BridgeCheck.run(configuration)
        let shown = report.text()
        let label = "\(path)\(playName.map { " (\($0) play)" } ?? "")"
        // Only a message named ready is labelled "ready received"; another first message goes by its own kind.
        if !contract.messages.contains(where: { $0.kind == "ready" }) {
            XCTAssertFalse(
                report.timeline.contains { $0.event == .readyReceived }, "\(label): labelled ready:\n\(shown)")
        }
        guard outcome != "pass" else {
            XCTAssertTrue(report.passed, "\(label) should pass:\n\(shown)")
            return
        }
        let categories = report.failures.map(\.category.rawValue)
        XCTAssertEqual(categories, [outcome], "\(label): the failure is in the wrong category:\n\(shown)")
        if let mention, let failure = report.failures.first {
            XCTAssertTrue(
                failure.detail.contains(mention), "\(label): the failure does not mention '\(mention)':\n\(shown)")
        }
    }

    func testHotwireNativeBridgeIsCheckedWithItsPublishedAdapterAndWebLibrary() async throws {
        try await checkEveryPage(of: "hotwire")
    }

    func testCapacitorBridgeIsCheckedWithItsPublishedNativeBridgeAndPromptChannel() async throws {
        try await checkEveryPage(of: "capacitor")
    }

    func testReplyHandlerBridgeIsCheckedWithTypedRepliesAndErrors() async throws {
        try await checkEveryPage(of: "reply-handler")
    }

    func testCustomTypePayloadProtocolIsCheckedWithItsOwnReceiverAndAcknowledgements() async throws {
        try await checkEveryPage(of: "custom")
    }
}
