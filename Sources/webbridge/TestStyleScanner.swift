import Foundation
import TerminalEscape

/// A synchronous test method isolated to the main actor: SwiftPM's Linux test discovery casts it to a
/// non-isolated function type and aborts the whole test binary.
struct TestStyleFinding: Equatable {
    static let rule = "sync-main-actor-test"
    static let fix =
        "make it async and use await fulfillment(of:timeout:), or remove @MainActor and use MainActor.assumeIsolated"

    let file: URL
    let line: Int
    let className: String
    let method: String
    /// Why the method runs on the main actor.
    let reason: String

    func line(relativeTo base: URL) -> String {
        "\(DoctorCommand.relative(file, to: base).escapingControlCharacters):\(line): [\(Self.rule)] "
            + "\(className.escapingControlCharacters).\(method.escapingControlCharacters)() is "
            + "a synchronous test method on the main actor (\(reason.escapingControlCharacters)); "
            + "`swift test` on Linux aborts every test at discovery. Fix: \(Self.fix)"
    }
}

/// Finds the test style SwiftPM cannot run, from the source text (comments and string literals blanked out).
enum TestStyleScanner {
    struct Result {
        var findings: [TestStyleFinding] = []
        var unreadable: [URL] = []
        /// Folders whose listing could not be read, with the reason.
        var unreadableFolders: [(folder: URL, reason: String)] = []
        var fileCount = 0
        var testCaseCount = 0
    }

    struct ClassDecl {
        let file: URL
        let line: Int
        let base: String?
        let mainActor: Bool
    }

    struct MethodDecl {
        let file: URL
        let line: Int
        let typeName: String
        let name: String
        let isAsync: Bool
        let hasParameters: Bool
        let isStatic: Bool
        let mainActor: Bool
        let nonisolated: Bool
        /// The enclosing extension is @MainActor.
        let extensionMainActor: Bool
    }

    static func scan(_ roots: [URL]) -> Result {
        var result = Result()
        var classes: [String: ClassDecl] = [:]
        var aliases: [String: String] = [:]
        var methods: [MethodDecl] = []
        let (files, closed) = swiftFiles(roots)
        result.unreadableFolders = closed
        for file in files {
            result.fileCount += 1
            guard let data = FileManager.default.contents(atPath: file.path),
                let text = String(data: data, encoding: .utf8)
            else {
                result.unreadable.append(file)
                continue
            }
            let parsed = parse(text, file: file)
            classes.merge(parsed.classes) { first, _ in first }
            aliases.merge(parsed.aliases) { first, _ in first }
            methods += parsed.methods
        }
        /// A base class name with typealiases followed (`typealias TestCase = XCTestCase`).
        func resolved(_ name: String) -> String {
            var name = name
            var seen: Set<String> = []
            while let target = aliases[name], seen.insert(name).inserted { name = target }
            return name
        }
        func isTestCase(_ name: String, _ seen: Set<String> = []) -> Bool {
            guard let base = classes[name]?.base.map(resolved), !seen.contains(name) else { return false }
            return base == "XCTestCase" || isTestCase(base, seen.union([name]))
        }
        /// Why the class is @MainActor (its own attribute or a base's), nil when it is not.
        func mainActorReason(_ name: String, _ seen: Set<String> = []) -> String? {
            guard let decl = classes[name], !seen.contains(name) else { return nil }
            if decl.mainActor { return "class \(name) is @MainActor" }
            guard let base = decl.base.map(resolved), mainActorReason(base, seen.union([name])) != nil else {
                return nil
            }
            return "class \(name) inherits @MainActor from \(base)"
        }
        result.testCaseCount = classes.keys.filter { isTestCase($0) }.count
        for method in methods
        where method.name.hasPrefix("test") && !method.hasParameters && !method.isAsync && !method.isStatic
            && isTestCase(method.typeName)
        {
            let reason: String?
            if method.mainActor {
                reason = "the method is @MainActor"
            } else if method.nonisolated {
                reason = nil
            } else if method.extensionMainActor {
                reason = "its extension of \(method.typeName) is @MainActor"
            } else {
                reason = mainActorReason(method.typeName)
            }
            if let reason {
                result.findings.append(
                    TestStyleFinding(
                        file: method.file, line: method.line, className: method.typeName, method: method.name,
                        reason: reason))
            }
        }
        result.findings.sort { ($0.file.path, $0.line) < ($1.file.path, $1.line) }
        return result
    }

    /// The Swift files under `roots`, skipping hidden folders (`.build` among them), each once, and the folders
    /// that could not be listed.
    ///
    /// Symbolic links to folders are followed (a monorepo's `Tests` is often one), each real folder once, so a
    /// link back up neither loops nor counts a file twice.
    static func swiftFiles(_ roots: [URL]) -> (files: [URL], unreadable: [(folder: URL, reason: String)]) {
        var files: [URL] = []
        var unreadable: [(folder: URL, reason: String)] = []
        var seenFiles: Set<String> = []
        var seenFolders: Set<String> = []
        func add(_ url: URL) {
            if seenFiles.insert(url.resolvingSymlinksInPath().path).inserted { files.append(url.standardizedFileURL) }
        }
        func walk(_ folder: URL) {
            guard seenFolders.insert(folder.resolvingSymlinksInPath().path).inserted else { return }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
                let reason =
                    access(folder.path, R_OK | X_OK) == 0 ? "can't be listed" : String(cString: strerror(errno))
                unreadable.append((folder, reason))
                return
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let url = folder.appendingPathComponent(name)
                if DoctorCommand.isDirectory(url) {
                    walk(url)
                } else if url.pathExtension == "swift" {
                    add(url)
                }
            }
        }
        for root in roots {
            if DoctorCommand.isDirectory(root) { walk(root) } else if root.pathExtension == "swift" { add(root) }
        }
        return (files, unreadable)
    }
}
