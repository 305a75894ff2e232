// swift-tools-version: 6.0
import PackageDescription

// A team's package that tests its own bridge with WebBridge: here by path, in a team's repository by URL
// (`.package(url: "https://…/WebBridge.git", from: "1.0.0")`). Every module it imports is a WebBridge product.
let package = Package(
    name: "Checkout",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "WebBridge", path: "../..")],
    targets: [
        // The app's side of the bridge: it reads the same contract file as the tests and the web team, and
        // BridgeContractPlugin turns that file into Swift types (CheckoutContract) at build time.
        .target(
            name: "CheckoutBridge",
            dependencies: [.product(name: "BridgeContract", package: "WebBridge")],
            resources: [.copy("Resources/checkout-contract.json")],
            plugins: [.plugin(name: "BridgeContractPlugin", package: "WebBridge")]
        ),
        .testTarget(
            name: "CheckoutBridgeTests",
            dependencies: [
                "CheckoutBridge",
                .product(name: "BridgeAssertions", package: "WebBridge"),
                .product(name: "BridgeContract", package: "WebBridge"),
                .product(name: "WebKitGTK", package: "WebBridge", condition: .when(platforms: [.linux])),
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
