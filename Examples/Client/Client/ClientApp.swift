import SwiftUI

/// The example app: one screen whose web view talks to native code through the `bridge` handler.
@main
struct ClientApp: App {
    var body: some Scene {
        WindowGroup {
            BridgeScreen()
        }
    }
}

/// Shows the bridge's state above the web view.
struct BridgeScreen: View {
    @State private var status = "waiting for the page's ready message"

    var body: some View {
        VStack(spacing: 8) {
            Text(status).font(.footnote).accessibilityIdentifier("bridge-status")
            BridgeWebView(status: $status)
        }
    }
}
