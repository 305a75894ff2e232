import Foundation
import XCTest

/// What the iOS simulator runs is the package's own: the fixture page (a copy, kept identical) and the test files
/// (referenced by Examples/Client's project, not copied), with every product they import declared.
final class SharedCopiesTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let example = root.appendingPathComponent("Examples/Client")

    func assertSameBytes(_ paths: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let contents = try paths.map { try Data(contentsOf: Self.root.appendingPathComponent($0)) }
        for (path, data) in zip(paths.dropFirst(), contents.dropFirst()) {
            XCTAssertEqual(data, contents[0], "\(path) differs from \(paths[0]): copy it over", file: file, line: line)
        }
    }

    func testEveryCopyOfTheFixtureIsTheSamePage() throws {
        try assertSameBytes([
            "Tests/BridgeTestingTests/Fixtures/BridgeFixture.html",
            "Sources/BridgeTesting/Resources/BridgeFixture.html",
            "Examples/Client/ClientTests/BridgeFixture.html",
        ])
    }

    func testTheSimulatorCompilesThePackagesOwnTestFiles() throws {
        let project = try ExampleProject()
        let sources = try project.sources(ofTarget: "ClientTests")
        XCTAssertEqual(
            Set(sources),
            [
                "Tests/BridgeTestingTests/BridgeContractTests.swift",
                "Tests/BridgeTestingTests/BridgePageIntegrationTests.swift",
                // Xcode's twin of the package's FixtureBundle.swift (Bundle(for:) instead of Bundle.module).
                "Examples/Client/ClientTests/FixtureBundle.swift",
            ],
            "ClientTests must compile the package's test files by reference (scripts/apple-shape/check.sh checks the same list)"
        )
        for path in sources {
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
                "\(path) is in ClientTests's Sources phase but not on disk")
        }
        for copy in ["BridgeContractTests.swift", "BridgePageIntegrationTests.swift"] {
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: Self.example.appendingPathComponent("ClientTests/\(copy)").path),
                "Examples/Client/ClientTests/\(copy) is a stale copy: the project references Tests/BridgeTestingTests/\(copy)"
            )
        }
    }

    func testEveryPackageModuleTheExampleImportsIsADeclaredProduct() throws {
        let project = try ExampleProject()
        // Apple's SDK modules; anything else must come from the local package.
        let sdk: Set<String> = ["Foundation", "SwiftUI", "UIKit", "WebKit", "XCTest"]
        for target in ["Client", "ClientTests"] {
            var imported: Set<String> = []
            for path in try project.sources(ofTarget: target) {
                let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
                imported.formUnion(Self.appleImports(text))
            }
            XCTAssertFalse(imported.isEmpty, "\(target) imports nothing: its sources were not found")
            XCTAssertEqual(
                imported.subtracting(sdk), Set(try project.packageProducts(ofTarget: target)),
                "\(target): every package module it imports must be a declared package product, and only those")
        }
    }

    func testTheFixtureIsTheProductsPageByteForByte() throws {
        let fixture = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/BridgeTesting/Resources/BridgeFixture.html"),
            encoding: .utf8)
        // Anchors from the product's source document; a reformatted page would lose them.
        XCTAssertTrue(
            fixture.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<meta charset=\"utf-8\">\n<body>\n<script>\n"))
        XCTAssertTrue(fixture.contains("throw new Error(\"Invalid native message\");"))
        XCTAssertTrue(fixture.hasSuffix("</script>\n</body>\n</html>\n"))
    }

    /// The modules a file imports when compiled for Apple platforms: the `#else` of `#if canImport(WebKit)` is Linux's.
    static func appleImports(_ text: String) -> Set<String> {
        var modules: Set<String> = []
        // One entry per open #if: whether the current branch is Linux-only.
        var linuxBranch: [(condition: String, inElse: Bool)] = []
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#if ") {
                linuxBranch.append((String(line.dropFirst(4)), false))
            } else if line == "#else", !linuxBranch.isEmpty {
                linuxBranch[linuxBranch.count - 1].inElse = true
            } else if line == "#endif", !linuxBranch.isEmpty {
                linuxBranch.removeLast()
            } else if line.hasPrefix("import ") || line.contains(" import ") && line.hasPrefix("@") {
                let skipped = linuxBranch.contains { $0.condition == "canImport(WebKit)" && $0.inElse }
                if !skipped, let name = line.split(separator: " ").last { modules.insert(String(name)) }
            }
        }
        return modules
    }
}

/// Examples/Client/Client.xcodeproj's targets, read with `PropertyListSerialization` (the OpenStep format).
struct ExampleProject {
    let objects: [String: [String: Any]]

    init() throws {
        let file = SharedCopiesTests.example.appendingPathComponent("Client.xcodeproj/project.pbxproj")
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: file), options: [], format: nil)
        let table = (plist as? [String: Any])?["objects"] as? [String: Any] ?? [:]
        objects = table.compactMapValues { $0 as? [String: Any] }
        XCTAssertFalse(objects.isEmpty, "no objects in \(file.path)")
    }

    func target(_ name: String) throws -> [String: Any] {
        let found = objects.values.first { $0["isa"] as? String == "PBXNativeTarget" && $0["name"] as? String == name }
        return try XCTUnwrap(found, "no target \(name) in Client.xcodeproj")
    }

    /// The package products the target declares (its `packageProductDependencies`).
    func packageProducts(ofTarget name: String) throws -> [String] {
        try (target(name)["packageProductDependencies"] as? [String] ?? []).compactMap {
            objects[$0]?["productName"] as? String
        }
    }

    /// The target's Sources phase, as paths relative to the package root.
    func sources(ofTarget name: String) throws -> [String] {
        let phases = try target(name)["buildPhases"] as? [String] ?? []
        let sources = try XCTUnwrap(phases.first { objects[$0]?["isa"] as? String == "PBXSourcesBuildPhase" })
        return try (objects[sources]?["files"] as? [String] ?? []).map { buildFile in
            let reference = try XCTUnwrap(objects[buildFile]?["fileRef"] as? String, "build file without a file")
            return try packagePath(of: reference)
        }
    }

    /// A file reference's path relative to the package root, walking up `<group>`-relative groups.
    func packagePath(of reference: String) throws -> String {
        var components: [String] = []
        var current = reference
        while let object = objects[current] {
            if let path = object["path"] as? String { components.insert(path, at: 0) }
            let tree = object["sourceTree"] as? String ?? "<group>"
            if tree == "SOURCE_ROOT" { break }
            XCTAssertEqual(tree, "<group>", "unexpected sourceTree \(tree)")
            guard let parent = objects.first(where: { ($0.value["children"] as? [String])?.contains(current) == true })
            else { break }
            current = parent.key
        }
        let url = components.reduce(SharedCopiesTests.example) { $0.appendingPathComponent($1) }.standardizedFileURL
        let root = SharedCopiesTests.root.standardizedFileURL.path + "/"
        return url.path.hasPrefix(root) ? String(url.path.dropFirst(root.count)) : url.path
    }
}
