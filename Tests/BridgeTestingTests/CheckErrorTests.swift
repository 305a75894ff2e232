import XCTest

@testable import BridgeTesting

/// The module's one error: whatever went wrong, its text names where, the problem, the rule and the remedy.
final class CheckErrorTests: XCTestCase {
    func testEveryTokenRefusalNamesItsRuleAndRemedy() {
        let codes: [CheckError.Code] = [.notAToken, .tokenOtherVersion, .tokenUnreadable, .tokenOutOfRange]
        for code in codes {
            let error = CheckError.token(code)
            XCTAssertEqual(error.code, code)
            XCTAssertNil(error.file, "a token is no file")
            XCTAssertTrue(error.description.hasPrefix("the token"), error.description)
            XCTAssertTrue(error.description.contains(" (\(code.rawValue)). Remedy: "), error.description)
        }
    }

    func testAStepThatCannotBeBuiltNamesItsArgument() {
        let error = CheckError(
            code: .stepCannotBeBuilt, field: "arguments[1]", problem: "the trigger has no value at the echoed path",
            remedy: "echo a path the trigger message holds")
        XCTAssertEqual(
            error.description,
            "arguments[1]: the trigger has no value at the echoed path (step-cannot-be-built). Remedy: echo a path the trigger message holds"
        )
    }

    func testAReportRefusalNamesTheFileThenTheField() {
        let error = CheckError(
            code: .invalidValue, file: "r.json", field: "timeout", problem: "0.0 is not a timeout",
            remedy: "pass the file as written")
        XCTAssertEqual(
            error.description, "r.json: timeout: 0.0 is not a timeout (invalid-value). Remedy: pass the file as written"
        )
    }
}
