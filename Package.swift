// swift-tools-version: 6.0
import Foundation
import PackageDescription

// The target graph is the architecture (see README "Layers"):
// BridgeContract (Foundation only) <- BridgeTesting <- BridgeReports (text, JSON, JUnit, HTML) <- webbridge
// BridgeContract <- ContractTools (the tool's own: typed code, locks, diffs) <- webbridge, webbridge-typed-code
// webbridge-typed-code <- BridgeContractPlugin (build tool: Swift types of contract files)
// CWebKitGTK, CEngineSignals, CEngineMainThread <- WebKitGTKHost <- WebKitGTK <- WebKitGTKSupport (Linux only) <- BridgeTesting
// CWebKitGTK <- WebBridgeWebExtension (Linux only: a dynamic library the web process loads from beside the binary)
// XcodeRunner (Foundation only)         <- webbridge
// JUnitXML (Foundation only: the one JUnit writer) <- BridgeReports, XcodeRunner
// TerminalEscape (standard library only) <- BridgeTesting, JUnitXML, XcodeRunner, webbridge
// CommandLineOptions (Foundation only)   <- webbridge, webbridge-bench
let linux = TargetDependencyCondition.when(platforms: [.linux])

// webkit2gtk-4.1's header paths without the flags SwiftPM refuses: `pkg-config --cflags --libs webkit2gtk-4.1` also
// gives -pthread and -Wl,--export-dynamic, which SwiftPM drops with a "prohibited flag(s)" warning in every build of
// every package that depends on this one. Sources/CWebKitGTK/webkit2gtk-headers.pc (given by its path, so nobody
// sets PKG_CONFIG_PATH) requires the modules whose flags are all header paths, names the other four header folders
// under /usr/include and lists webkit2gtk-4.1's libraries. Dropping the two flags loses nothing: SwiftPM never passed them, every Swift link line already
// has -lpthread, and nothing here looks its own symbols up with g_module_open(NULL). Where those folders are not
// under /usr/include (WebKitGTK built into another prefix), or the path holds a space (SwiftPM splits pkgConfig at
// spaces), webkit2gtk-4.1 itself is asked, with the warning.
let webKitGTKPkgConfig: String = {
    let wrapper = Context.packageDirectory + "/Sources/CWebKitGTK/webkit2gtk-headers.pc"
    let headers = [
        "webkitgtk-4.1/webkit2/webkit2.h", "gtk-3.0/gtk/gtk.h", "pango-1.0/pango/pango.h",
        "gdk-pixbuf-2.0/gdk-pixbuf/gdk-pixbuf.h", "libsoup-3.0/libsoup/soup.h",
    ]
    let found = headers.allSatisfy { FileManager.default.fileExists(atPath: "/usr/include/" + $0) }
    return found && !wrapper.contains(" ") ? wrapper : "webkit2gtk-4.1"
}()

let package = Package(
    name: "WebBridge",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "BridgeContract", targets: ["BridgeContract"]),
        .library(name: "BridgeTesting", targets: ["BridgeTesting"]),
        // assertBridge/expectBridge for XCTest and Swift Testing; kept apart so the CLI never links XCTest.
        .library(name: "BridgeAssertions", targets: ["BridgeAssertions"]),
        .library(name: "XcodeRunner", targets: ["XcodeRunner"]),
        // Apple's WebKit names over WebKitGTK (Linux); a team's own engine tests import it.
        .library(name: "WebKitGTK", targets: ["WebKitGTK"]),
        // What only Linux has (the display, Xvfb, engine process control, test-only registration), kept out of
        // Apple's names so shared code that imports WebKitGTK cannot reach it by accident.
        .library(name: "WebKitGTKSupport", targets: ["WebKitGTKSupport"]),
        .executable(name: "webbridge", targets: ["webbridge"]),
        // `swift package webbridge check …` in a package that depends on WebBridge.
        .plugin(name: "WebBridgePlugin", targets: ["WebBridgePlugin"]),
        // Swift types of a target's contract files, generated at build time (Docs/CONTRACT.md, "Typed code").
        .plugin(name: "BridgeContractPlugin", targets: ["BridgeContractPlugin"]),
    ],
    targets: [
        // The one escape for text printed to a terminal; below every target that prints what it did not write.
        .target(name: "TerminalEscape"),
        // The option tables of `webbridge` and the bench: parse, usage, help and errors from one table per command.
        .target(name: "CommandLineOptions", dependencies: ["TerminalEscape"]),
        .target(
            name: "BridgeContract",
            resources: [
                .copy("Resources/DefaultContract.json"), .copy("Resources/DefaultContract.lock.json"),
                // The web side's module: JavaScript, into which the library injects only the contract.
                .copy("Resources/ContractModule.js"),
            ]
        ),
        // What only the tool does with a contract: TypeScript and Swift typed code, the Swift literal, locks and
        // diffs. Kept out of BridgeContract, which an app links to validate messages.
        .target(name: "ContractTools", dependencies: ["BridgeContract"]),
        .systemLibrary(
            name: "CWebKitGTK",
            pkgConfig: webKitGTKPkgConfig,
            providers: [.apt(["libwebkit2gtk-4.1-dev"])]
        ),
        // The process around the engine (Linux only): the display, GTK, GLib's main loop, the engine's processes,
        // behind one facade (`WebKitGTKEnvironment`) and one error type. Below WebKitGTK, which imports it
        // internally so Apple's names stay Apple's; WebKitGTKSupport re-exports it.
        // The guard in front of JavaScriptCore's SIGUSR1 handler (C: a signal handler and its saved state).
        .target(name: "CEngineSignals"),
        // An async main's main queue drained on the main thread, by the engine's loop (C: the runtime's hook).
        .target(name: "CEngineMainThread"),
        .target(
            name: "WebKitGTKHost",
            dependencies: [
                .target(name: "CWebKitGTK", condition: linux), .target(name: "CEngineSignals", condition: linux),
                .target(name: "CEngineMainThread", condition: linux),
            ]
        ),
        .target(
            name: "WebKitGTK",
            dependencies: [
                .target(name: "CWebKitGTK", condition: linux), .target(name: "WebKitGTKHost", condition: linux),
            ]
        ),
        .target(
            name: "WebKitGTKSupport",
            dependencies: [
                .target(name: "WebKitGTK", condition: linux),
                .target(name: "WebKitGTKHost", condition: linux),
                .target(name: "CWebKitGTK", condition: linux),
            ]
        ),
        // The check's own HTTP/1.1 server on loopback (POSIX sockets, every platform): `--serve`, stressed responses.
        .target(name: "LoopbackServer"),
        // The one seeded generator: stressed sessions' perturbations and tests that generate their inputs.
        .target(name: "SeededRandom"),
        .target(
            name: "BridgeTesting",
            dependencies: [
                "BridgeContract", "TerminalEscape", "LoopbackServer", "SeededRandom",
                .target(name: "WebKitGTK", condition: linux),
                .target(name: "WebKitGTKSupport", condition: linux),
            ],
            resources: [.copy("Resources/BridgeFixture.html"), .copy("Resources/PageClock.js")]
        ),
        .target(name: "BridgeAssertions", dependencies: ["BridgeContract", "BridgeTesting"]),
        // The one JUnit XML writer (document, escape, time format): the check's reports and the cloud-Mac job's.
        .target(name: "JUnitXML", dependencies: ["TerminalEscape"]),
        // The reports of a run, one entry point per format (text, JSON, JUnit, HTML); the tool's, not a product.
        .target(name: "BridgeReports", dependencies: ["BridgeContract", "BridgeTesting", "JUnitXML"]),
        // Foundation only: the cloud-Mac job reads Apple's tools' output and project files, not messages.
        .target(name: "XcodeRunner", dependencies: ["JUnitXML", "TerminalEscape"]),
        .executableTarget(
            name: "webbridge",
            dependencies: [
                "BridgeContract", "BridgeReports", "BridgeTesting", "CommandLineOptions", "ContractTools",
                "TerminalEscape", "XcodeRunner",
            ]
        ),
        .plugin(
            name: "WebBridgePlugin",
            capability: .command(
                intent: .custom(verb: "webbridge", description: "Run webbridge (check, contract, report, …)"))
            // No tool dependency: SwiftPM would build it before the plugin runs, echoing its build lines on every
            // call. The plugin builds the `webbridge` product itself, quietly (PackageManager.build).
        ),
        // The plugin's generator: the contract and its tools only, so generating types never builds the engine.
        .executableTarget(name: "webbridge-typed-code", dependencies: ["BridgeContract", "ContractTools"]),
        .plugin(name: "BridgeContractPlugin", capability: .buildTool(), dependencies: ["webbridge-typed-code"]),
        .executableTarget(
            name: "webbridge-bench",
            dependencies: [
                "BridgeContract", "BridgeTesting", "CommandLineOptions",
                .target(name: "WebKitGTK", condition: linux),
                .target(name: "WebKitGTKSupport", condition: linux),
                .target(name: "CWebKitGTK", condition: linux),
            ],
            path: "Benchmarks/webbridge-bench"
        ),
        // The engine's floor for `cold_check_s`: the fixture check in C on WebKitGTK's C API (Linux only).
        .executableTarget(
            name: "webbridge-raw-cold-check",
            dependencies: [.target(name: "CWebKitGTK", condition: linux)],
            path: "Benchmarks/raw-cold-check"
        ),
        // Test support for the engine's tests: a real HTTP server on loopback (libsoup 3), refused ports,
        // the engine's web processes.
        .target(
            name: "EngineTestSupport",
            dependencies: [
                .target(name: "CWebKitGTK", condition: linux), .target(name: "WebKitGTK", condition: linux),
                .target(name: "WebKitGTKHost", condition: linux),
            ],
            path: "Tests/Support/EngineTestSupport"
        ),
        // Test data shared by the test targets: strings that break scripts built by concatenation.
        .target(name: "BridgeTestData", path: "Tests/Support/BridgeTestData"),
        .testTarget(name: "TerminalEscapeTests", dependencies: ["TerminalEscape"]),
        .testTarget(name: "JUnitXMLTests", dependencies: ["JUnitXML"]),
        .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
        .testTarget(name: "LoopbackServerTests", dependencies: ["LoopbackServer", "EngineTestSupport"]),
        .testTarget(
            name: "BridgeContractTests",
            dependencies: ["BridgeContract", "BridgeTestData", "ContractTools", "SeededRandom"]
        ),
        .testTarget(
            name: "WebKitGTKTests",
            dependencies: [
                .target(name: "WebKitGTK", condition: linux), .target(name: "WebKitGTKSupport", condition: linux),
                .target(name: "WebKitGTKHost", condition: linux), "EngineTestSupport",
            ]
        ),
        .testTarget(
            name: "BridgeTestingTests",
            dependencies: [
                "BridgeContract", "BridgeTesting", "BridgeAssertions", "BridgeReports", "BridgeTestData",
                "EngineTestSupport", "LoopbackServer", "SeededRandom",
                .target(name: "WebKitGTK", condition: linux),
            ],
            resources: [.copy("Fixtures")]
        ),
        // The reports rendered from real checks' values; the HTML read back from the DOM the real engine builds.
        .testTarget(
            name: "BridgeReportsTests",
            dependencies: [
                "BridgeContract", "BridgeReports", "BridgeTesting", "EngineTestSupport",
                .target(name: "WebKitGTK", condition: linux),
            ]
        ),
        // The Swift types BridgeContractPlugin generates from the contracts in Contracts, at build time, run on the
        // real engine against the typed pages in Pages.
        .testTarget(
            name: "TypedCodeTests",
            dependencies: ["BridgeContract", "BridgeTestData", .target(name: "WebKitGTK", condition: linux)],
            resources: [.process("Contracts"), .copy("Pages")],
            plugins: ["BridgeContractPlugin"]
        ),
        .testTarget(
            name: "XcodeRunnerTests",
            dependencies: ["TerminalEscape", "XcodeRunner"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "webbridgeTests",
            dependencies: [
                "webbridge", "BridgeContract", "BridgeTesting", "ContractTools", "EngineTestSupport", "LoopbackServer",
                "SeededRandom",
            ],
            // Read by path (the JUnit schema xmllint validates with), not bundled.
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The web process extension (C, Linux only): WebKitGTK loads it into each web process from the folder beside the
// binary, where it hears the engine's console and sends the real text and line of an error WebKit hid from the
// page ("Script error.") to the view. A dynamic library product, as the engine loads it by file; `make build`,
// `make install` and the tests build it. Apple's WebKit has no such extension: the manifest leaves it out there.
#if os(Linux)
package.products.append(
    .library(name: "WebBridgeWebExtension", type: .dynamic, targets: ["WebBridgeWebExtension"]))
package.targets.append(.target(name: "WebBridgeWebExtension", dependencies: ["CWebKitGTK"]))
#endif

// Complete strict concurrency everywhere, in one place (swift-log style).
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableExperimentalFeature("StrictConcurrency=complete"),
        ]
}
