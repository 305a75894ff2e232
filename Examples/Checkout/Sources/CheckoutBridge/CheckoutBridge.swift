import BridgeContract
import Foundation

/// The app's side of the checkout bridge: every message in and out goes through the shared contract.
public struct CheckoutBridge: Sendable {
    public let contract: BridgeContract

    /// The bundled contract file, the one the tests and the web team read.
    public static var contractURL: URL {
        Bundle.module.url(forResource: "checkout-contract", withExtension: "json")!
    }

    public init() throws {
        contract = try BridgeContract.load(contentsOf: Self.contractURL)
    }

    /// The page's message, typed; production code is lenient so a newer page still talks to an older app.
    public func receive(_ body: Any) -> Validation {
        contract.validate(body, direction: .pageToNative, mode: .lenient, handler: contract.handler)
    }

    /// The script that applies a coupon in the page; the code never becomes script text.
    public func applyCoupon(code: String, percent: Int) throws -> String {
        try ReceiverCall(contract: contract, message: ["type": "applyCoupon", "code": code, "percent": percent]).script
    }
}
