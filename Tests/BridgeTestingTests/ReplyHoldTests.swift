import BridgeContract
import Foundation
import XCTest

@testable import BridgeTesting

/// A stressed session holds native's reply (a late completion handler) on the page's clock: the page awaits the
/// reply for the held time as it reads time, and the session's words name the hold.
@MainActor
final class ReplyHoldTests: XCTestCase {
    func testAHeldReplyReachesThePageAfterItsHeldTime() async throws {
        let folder = try XCTUnwrap(
            Bundle.module.url(forResource: "reply-handler", withExtension: nil, subdirectory: "Fixtures/Protocols"))
        var contract = try BridgeContract.load(contentsOf: folder.appendingPathComponent("contract.json"))
        contract.check = try contract.check?.resolvingScripts(relativeTo: folder)
        let passing = try String(contentsOf: folder.appendingPathComponent("pass.html"), encoding: .utf8)
        XCTAssertTrue(passing.contains("  let user\n"), "pass.html changed: update this test")
        // The page shows the user only when the reply took at least 150 ms of the time it reads; "too soon" otherwise.
        let timed =
            passing
            .replacingOccurrences(of: "  let user\n", with: "  let user\n  const asked = performance.now()\n")
            .replacingOccurrences(
                of: "  document.body.dataset.received = user.admin",
                with:
                    "  if (performance.now() - asked < 150) { document.body.dataset.received = \"too soon\"; return }\n"
                    + "  document.body.dataset.received = user.admin")
        XCTAssertNotEqual(timed, passing)
        var configuration = CheckConfiguration(page: .html(timed, baseURL: folder), contract: contract)

        let unheld = await BridgeCheck.run(configuration)
        XCTAssertEqual(unheld.nativeToPage.failure?.category, .pageDidNotAccept, "an answer at once is too soon")

        configuration.perturbation = Perturbation(nativeDelays: [200])
        let held = await BridgeCheck.run(configuration)
        XCTAssertTrue(held.passed, "\(held.failures)")
        XCTAssertEqual(held.perturbed, ["reply to getUser held 200 ms"])
    }
}
