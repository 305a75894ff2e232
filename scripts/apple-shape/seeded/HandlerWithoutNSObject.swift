// expect: does not conform to protocol 'NSObjectProtocol'
// Seeded mismatch: Apple's WKScriptMessageHandler refines NSObjectProtocol, so a handler must be an NSObject.
import WebKit

@MainActor
final class Handler: WKScriptMessageHandler {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {}
}
