import Foundation
import XCTest

/// A contract with request ids runs the fixture-style check: native's request gets a fresh id.
final class CheckCommandRequestIDTests: XCTestCase {
    func testAContractWithRequestIDsChecksTheFixture() throws {
        let contract = FileManager.default.temporaryDirectory.appendingPathComponent("request-id-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: contract) }
        try Data(
            #"""
            {"version": 1, "handler": "bridge", "receiver": "window.bridgeReceive", "requestID": {"field": "id"},
             "messages": [
               {"kind": "ready", "direction": "page-to-native", "fields": {"version": {"type": "constant", "value": 1}}},
               {"kind": "sync", "direction": "native-to-page", "fields": {"value": {"type": "string"}}},
               {"kind": "synced", "direction": "page-to-native", "acknowledges": "sync"}
             ]}
            """#.utf8
        ).write(to: contract)
        let result = try CLI.run(["check", "--contract", contract.path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("sync sent         {id: String, kind: String, value: String}"), result.stdout)
    }
}
