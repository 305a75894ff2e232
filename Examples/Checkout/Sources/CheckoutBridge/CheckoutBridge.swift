import BridgeContract
import Foundation

/// The app's side of the checkout bridge: every message in and out is a type generated from the shared contract
/// (`CheckoutContract`, by BridgeContractPlugin at build time), checked by the contract's own validation.
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
    public func receive(_ body: Any, handler: String? = nil) throws(ContractError) -> CheckoutContract.PageToNative
    {
        try CheckoutContract.PageToNative(body: body, mode: .lenient, handler: handler)
    }

    /// The script that applies a coupon in the page; the code never becomes script text.
    public func applyCoupon(code: String, percent: Int) throws -> String {
        try CheckoutContract.NativeToPage.applyCoupon(.init(code: code, percent: percent)).receiverCall().script
    }
}
