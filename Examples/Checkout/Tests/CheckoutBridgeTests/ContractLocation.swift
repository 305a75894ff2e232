import CheckoutBridge
import Foundation

/// Where the app target's bundled contract is: the production code and the tests read one file.
func checkoutContractURL() -> URL {
    CheckoutBridge.contractURL
}
