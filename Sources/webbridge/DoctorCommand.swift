import BridgeTesting
import Foundation

/// `webbridge doctor`: what `swift test` needs here (WebKitGTK, Xvfb, a display) and the one test style it cannot run.
enum DoctorCommand {
    static let usage = """
        USAGE: webbridge doctor [--package-path DIR] [--path DIR_OR_FILE]...

        Checks, before `swift test`, what the bridge tests need on this machine and the test style that
        SwiftPM on Linux cannot run.

        ENVIRONMENT CHECKS (Linux):
          webkitgtk   pkg-config knows webkit2gtk-4.1 and libwebkit2gtk-4.1.so.0 loads.
          xvfb        Xvfb is in a PATH entry (needed when DISPLAY is unset).
          display     DISPLAY is set and GTK can open it, or a private Xvfb starts (and is stopped again).

        TEST-STYLE CHECK:
          Every XCTestCase subclass in the package's Tests/ folder and in each --path: a synchronous
          `func test…()` isolated to the main actor (a @MainActor class, a @MainActor base class or
          extension, or a @MainActor method) aborts the whole Linux test binary at test discovery.
          Rule [\(TestStyleFinding.rule)]. Fix: \(TestStyleFinding.fix)

        OPTIONS:
          --package-path DIR   The package whose Tests/ folder is scanned (default: the current directory).
          --path DIR_OR_FILE   Also scan this folder or Swift file (repeatable).
          -h, --help           Show this help.

        EXIT CODES:
          0 everything is fine, 1 a test-style finding (whatever the environment),
          2 usage, 3 environment (WebKitGTK, Xvfb or the display)
        """

    @MainActor
    static func run(_ argv: ArraySlice<String>) async -> ExitStatus {
        let arguments: Arguments
        let paths: [String]
        do {
            let split = try splitPaths(argv)
            paths = split.paths
            arguments = try Arguments(split.rest, options: ["--package-path"])
            try arguments.expectPositionals(atMost: 0)
        } catch {
            return usageError(error.description)
        }
        if arguments.wantsHelp {
            print(usage)
            return .pass
        }
        let package = URL(fileURLWithPath: arguments.value("--package-path") ?? ".").standardizedFileURL
        var roots: [URL] = []
        let tests = package.appendingPathComponent("Tests")
        if isDirectory(tests) { roots.append(tests) }
        for path in paths {
            let url = URL(fileURLWithPath: path, relativeTo: package).standardizedFileURL
            guard FileManager.default.fileExists(atPath: url.path) else {
                return usageError("--path \(Printable.path(path)) does not exist")
            }
            roots.append(url)
        }
        if arguments.value("--package-path") != nil, !isDirectory(package) {
            return usageError("--package-path \(Printable.path(package.path)) is not a folder")
        }

        let environment = EnvironmentChecks.run()
        for check in environment { print(check) }

        let scan = TestStyleScanner.scan(roots)
        for finding in scan.findings { print(finding.line(relativeTo: package)) }
        for unreadable in scan.unreadable {
            print(
                "note test styles: skipped \(Printable.path(relative(unreadable, to: package))): not readable as text")
        }
        if scan.findings.isEmpty {
            print(
                "ok test styles: \(scan.testCaseCount) XCTestCase subclasses in \(scan.fileCount) Swift files, "
                    + "no synchronous @MainActor test method")
        } else {
            let count = scan.findings.count
            print(
                "FAIL test styles: \(count) synchronous @MainActor test method\(count == 1 ? "" : "s"): "
                    + "`swift test` on Linux would abort before running any test. Remedy: \(TestStyleFinding.fix)")
        }
        if !scan.findings.isEmpty { return .contractFailure }
        return environment.contains { $0.failed } ? .environment : .pass
    }

    private static func usageError(_ message: String) -> ExitStatus {
        printError("webbridge doctor: \(message)")
        printError(
            "Usage: webbridge doctor [--package-path DIR] [--path DIR_OR_FILE]...; see 'webbridge doctor --help'.")
        return .usage
    }

    static func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }

    /// `url` relative to `base` when it lies inside it, else its absolute path.
    static func relative(_ url: URL, to base: URL) -> String {
        let prefix = base.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// Splits the repeatable `--path` option off `argv` (``Arguments`` keeps one value per option).
func splitPaths(_ argv: ArraySlice<String>) throws(UsageError) -> (paths: [String], rest: [String]) {
    var paths: [String] = []
    var rest: [String] = []
    var iterator = argv.makeIterator()
    while let word = iterator.next() {
        if word == "--" {
            rest.append(word)
            while let remaining = iterator.next() { rest.append(remaining) }
        } else if word == "--path" {
            guard let value = iterator.next() else { throw UsageError("option --path needs a value") }
            paths.append(value)
        } else if word.hasPrefix("--path=") {
            paths.append(String(word.dropFirst("--path=".count)))
        } else {
            rest.append(word)
        }
    }
    return (paths, rest)
}

/// Text the terminal shows as is: control characters (a file name can hold any) become `\u{…}` escapes.
enum Printable {
    static func path(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 {
                result += "\\u{\(String(value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

// MARK: - Environment

/// One line of the environment report, in the style of `webbridge xcode preflight`.
struct DoctorCheck: CustomStringConvertible {
    let name: String
    let failed: Bool
    let detail: String
    var remedy = ""

    var description: String {
        "\(failed ? "FAIL" : "ok") \(name): \(Printable.path(detail))" + (remedy.isEmpty ? "" : ". Remedy: \(remedy)")
    }
}

/// WebKitGTK, Xvfb and the display: what the engine's tests need on Linux.
enum EnvironmentChecks {
    @MainActor
    static func run() -> [DoctorCheck] {
        guard engineIsWebKitGTK else {
            return [DoctorCheck(name: "engine", failed: false, detail: "the system's WebKit; nothing to check")]
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return [webKitGTK(path: path), xvfb(path: path), display()]
    }

    #if os(Linux)
    static let engineIsWebKitGTK = true
    #else
    static let engineIsWebKitGTK = false
    #endif

    static let library = "libwebkit2gtk-4.1.so.0"

    /// Every executable named `name` in the entries of `path`, in PATH order.
    static func executables(named name: String, path: String) -> [String] {
        path.split(separator: ":", omittingEmptySubsequences: true).map { "\($0)/\(name)" }
            .filter { access($0, X_OK) == 0 }
    }

    static func webKitGTK(path: String) -> DoctorCheck {
        let install = "sudo apt-get install libwebkit2gtk-4.1-dev pkg-config"
        var problems: [String] = []
        var found: [String] = []
        if let pkgConfig = executables(named: "pkg-config", path: path).first {
            if let version = run(pkgConfig, ["--modversion", "webkit2gtk-4.1"]) {
                found.append("webkit2gtk-4.1 \(version) (pkg-config)")
            } else {
                problems.append("pkg-config does not know webkit2gtk-4.1 (the build needs its .pc file)")
            }
        } else {
            problems.append("pkg-config is in no PATH entry (the build runs `pkg-config webkit2gtk-4.1`)")
        }
        if let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) {
            dlclose(handle)
            found.append("\(library) loads")
        } else {
            problems.append("\(library) does not load")
        }
        if problems.isEmpty {
            return DoctorCheck(name: "webkitgtk", failed: false, detail: found.joined(separator: "; "))
        }
        return DoctorCheck(name: "webkitgtk", failed: true, detail: problems.joined(separator: "; "), remedy: install)
    }

    static func xvfb(path: String) -> DoctorCheck {
        let entries = path.split(separator: ":", omittingEmptySubsequences: true).count
        if let found = executables(named: "Xvfb", path: path).first {
            return DoctorCheck(name: "xvfb", failed: false, detail: found)
        }
        let displaySet = !(ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty
        return DoctorCheck(
            name: "xvfb", failed: !displaySet,
            detail: "Xvfb is in none of PATH's \(entries) entries"
                + (displaySet ? " (not needed while DISPLAY is set)" : " and DISPLAY is unset"),
            remedy: displaySet ? "" : "sudo apt-get install xvfb, or set DISPLAY to a running X server")
    }

    /// Opens the display the tests would use; starts (and, at exit, stops) a private Xvfb when DISPLAY is unset.
    @MainActor
    static func display() -> DoctorCheck {
        let given = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        do {
            try EngineEnvironment.prepare()
        } catch {
            return DoctorCheck(
                name: "display", failed: true,
                detail: given.isEmpty
                    ? "DISPLAY is unset and no private Xvfb could start" : "DISPLAY \(given) is set but not reachable",
                remedy: "\(error)")
        }
        if given.isEmpty {
            let started = getenv("DISPLAY").map { String(cString: $0) } ?? "?"
            return DoctorCheck(
                name: "display", failed: false, detail: "DISPLAY is unset; a private Xvfb started on \(started)")
        }
        return DoctorCheck(name: "display", failed: false, detail: "DISPLAY \(given) is reachable")
    }

    /// The trimmed standard output of a successful run, nil when it fails.
    static func run(_ executable: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

// MARK: - Test styles

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
        "\(Printable.path(DoctorCommand.relative(file, to: base))):\(line): [\(Self.rule)] \(Printable.path(className)).\(Printable.path(method))() is "
            + "a synchronous test method on the main actor (\(reason)); `swift test` on Linux aborts every test at "
            + "discovery. Fix: \(Self.fix)"
    }
}

/// Finds the test style SwiftPM cannot run, from the source text (comments and string literals blanked out).
enum TestStyleScanner {
    struct Result {
        var findings: [TestStyleFinding] = []
        var unreadable: [URL] = []
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
        var methods: [MethodDecl] = []
        for file in swiftFiles(roots) {
            result.fileCount += 1
            guard let data = FileManager.default.contents(atPath: file.path),
                let text = String(data: data, encoding: .utf8)
            else {
                result.unreadable.append(file)
                continue
            }
            let parsed = parse(text, file: file)
            classes.merge(parsed.classes) { first, _ in first }
            methods += parsed.methods
        }
        func isTestCase(_ name: String, _ seen: Set<String> = []) -> Bool {
            guard let base = classes[name]?.base, !seen.contains(name) else { return false }
            return base == "XCTestCase" || isTestCase(base, seen.union([name]))
        }
        /// Why the class is @MainActor (its own attribute or a base's), nil when it is not.
        func mainActorReason(_ name: String, _ seen: Set<String> = []) -> String? {
            guard let decl = classes[name], !seen.contains(name) else { return nil }
            if decl.mainActor { return "class \(name) is @MainActor" }
            guard let base = decl.base, mainActorReason(base, seen.union([name])) != nil else { return nil }
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

    /// The Swift files under `roots`, skipping hidden folders (`.build` among them), each once.
    static func swiftFiles(_ roots: [URL]) -> [URL] {
        var files: [URL] = []
        var seen: Set<String> = []
        for root in roots {
            var candidates: [URL] = []
            if DoctorCommand.isDirectory(root) {
                let enumerator = FileManager.default.enumerator(
                    at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
                while let url = enumerator?.nextObject() as? URL { candidates.append(url) }
                candidates.sort { $0.path < $1.path }
            } else {
                candidates = [root]
            }
            for url in candidates where url.pathExtension == "swift" && !DoctorCommand.isDirectory(url) {
                let path = url.standardizedFileURL.path
                if seen.insert(path).inserted { files.append(url.standardizedFileURL) }
            }
        }
        return files
    }

    // MARK: parsing

    struct Token {
        let text: String
        let line: Int
    }

    /// The source's tokens, with comments and the contents of string literals left out.
    static func tokens(_ text: String) -> [Token] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        var line = 1
        func at(_ offset: Int) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }
        func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar.value > 0x7F
                    && !scalar.properties.isWhitespace
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" {
                line += 1
                index += 1
            } else if scalar.properties.isWhitespace {
                index += 1
            } else if scalar == "/", at(1) == "/" {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            } else if scalar == "/", at(1) == "*" {
                var depth = 0
                repeat {
                    if scalars[index] == "/", at(1) == "*" {
                        depth += 1
                        index += 2
                    } else if scalars[index] == "*", at(1) == "/" {
                        depth -= 1
                        index += 2
                    } else {
                        if scalars[index] == "\n" { line += 1 }
                        index += 1
                    }
                } while depth > 0 && index < scalars.count
            } else if scalar == "\"" || (scalar == "#" && (at(1) == "\"" || at(1) == "#")) {
                skipString(scalars, &index, &line)
            } else if scalar == "@" || isIdentifier(scalar) {
                let start = index
                index += 1
                while index < scalars.count, isIdentifier(scalars[index]) { index += 1 }
                var word = String(String.UnicodeScalarView(scalars[start..<index]))
                // `XCTest.XCTestCase` names the same class as `XCTestCase`.
                while index + 1 < scalars.count, scalars[index] == ".", isIdentifier(scalars[index + 1]) {
                    let part = index + 1
                    index += 1
                    while index < scalars.count, isIdentifier(scalars[index]) { index += 1 }
                    word = String(String.UnicodeScalarView(scalars[part..<index]))
                }
                tokens.append(Token(text: word, line: line))
            } else {
                tokens.append(Token(text: String(scalar), line: line))
                index += 1
            }
        }
        return tokens
    }

    /// Moves past a string literal (plain, multi-line or raw), counting its lines.
    static func skipString(_ scalars: [Unicode.Scalar], _ index: inout Int, _ line: inout Int) {
        var hashes = 0
        while index < scalars.count, scalars[index] == "#" {
            hashes += 1
            index += 1
        }
        guard index < scalars.count, scalars[index] == "\"" else { return }
        let multiline = index + 2 < scalars.count && scalars[index + 1] == "\"" && scalars[index + 2] == "\""
        index += multiline ? 3 : 1
        let quotes = multiline ? 3 : 1
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" {
                line += 1
                if !multiline { return }
            }
            if scalar == "\\" && hashes == 0 {
                index += 2
                continue
            }
            if scalar == "\"" {
                var end = index
                var count = 0
                while end < scalars.count, scalars[end] == "\"", count < quotes {
                    count += 1
                    end += 1
                }
                var closing = 0
                while closing < hashes, end < scalars.count, scalars[end] == "#" {
                    closing += 1
                    end += 1
                }
                if count == quotes && closing == hashes {
                    index = end
                    return
                }
            }
            index += 1
        }
    }

    static let modifiers: Set<String> = [
        "public", "private", "fileprivate", "internal", "open", "package", "final", "override", "required",
        "convenience", "dynamic", "static", "nonisolated", "mutating", "nonmutating", "indirect", "lazy", "weak",
        "unowned", "optional", "isolated", "consuming", "borrowing", "distributed",
    ]

    /// The classes and methods declared in one file.
    static func parse(_ text: String, file: URL) -> (classes: [String: ClassDecl], methods: [MethodDecl]) {
        let tokens = Self.tokens(text)
        enum Scope {
            case type(name: String, mainActor: Bool, isExtension: Bool)
            case other
        }
        var scopes: [Scope] = []
        var classes: [String: ClassDecl] = [:]
        var methods: [MethodDecl] = []
        var attributes: Set<String> = []
        var prefix: Set<String> = []
        var index = 0
        func word(_ offset: Int) -> String? { index + offset < tokens.count ? tokens[index + offset].text : nil }
        /// Moves `index` past a balanced `open`…`close` group starting at `index`.
        func skipGroup(_ open: String, _ close: String) {
            var depth = 0
            repeat {
                if tokens[index].text == open { depth += 1 }
                if tokens[index].text == close { depth -= 1 }
                index += 1
            } while depth > 0 && index < tokens.count
        }
        func reset() {
            attributes = []
            prefix = []
        }
        while index < tokens.count {
            let token = tokens[index]
            switch token.text {
            case let attribute where attribute.hasPrefix("@"):
                attributes.insert(attribute)
                index += 1
                if word(0) == "(" { skipGroup("(", ")") }
            case let modifier where modifiers.contains(modifier):
                prefix.insert(modifier)
                index += 1
                if word(0) == "(" { skipGroup("(", ")") }
            case "class" where ["func", "var", "let", "subscript", "init"].contains(word(1) ?? ""):
                prefix.insert("static")
                index += 1
            case "class", "struct", "enum", "actor", "protocol", "extension":
                let isClass = token.text == "class"
                let isExtension = token.text == "extension"
                guard let name = word(1) else {
                    index += 1
                    continue
                }
                let mainActor = attributes.contains("@MainActor")
                index += 2
                var base: String?
                while index < tokens.count, tokens[index].text != "{" {
                    if tokens[index].text == "<" {
                        skipGroup("<", ">")
                        continue
                    }
                    if tokens[index].text == ":", base == nil, index + 1 < tokens.count {
                        base = tokens[index + 1].text
                    }
                    if tokens[index].text == "where" || tokens[index].text == "}" { break }
                    index += 1
                }
                if isClass {
                    classes[name] =
                        classes[name] ?? ClassDecl(file: file, line: token.line, base: base, mainActor: mainActor)
                }
                if index < tokens.count, tokens[index].text == "where" {
                    while index < tokens.count, tokens[index].text != "{" { index += 1 }
                }
                if index < tokens.count, tokens[index].text == "{" {
                    scopes.append(.type(name: name, mainActor: mainActor, isExtension: isExtension))
                    index += 1
                }
                reset()
            case "func":
                guard case .type(let typeName, let scopeMainActor, let isExtension) = scopes.last, let name = word(1)
                else {
                    reset()
                    index += 1
                    continue
                }
                let line = token.line
                index += 2
                if word(0) == "<" { skipGroup("<", ">") }
                var hasParameters = false
                if word(0) == "(" {
                    hasParameters = word(1) != ")"
                    skipGroup("(", ")")
                }
                var isAsync = false
                while index < tokens.count, !["{", "}", "func", "var", "let"].contains(tokens[index].text),
                    !tokens[index].text.hasPrefix("@")
                {
                    if tokens[index].text == "async" { isAsync = true }
                    if tokens[index].text == "(" {
                        skipGroup("(", ")")
                        continue
                    }
                    index += 1
                }
                methods.append(
                    MethodDecl(
                        file: file, line: line, typeName: typeName, name: name, isAsync: isAsync,
                        hasParameters: hasParameters, isStatic: prefix.contains("static"),
                        mainActor: attributes.contains("@MainActor"), nonisolated: prefix.contains("nonisolated"),
                        extensionMainActor: isExtension && scopeMainActor))
                reset()
            case "{":
                scopes.append(.other)
                index += 1
                reset()
            case "}":
                if !scopes.isEmpty { scopes.removeLast() }
                index += 1
                reset()
            default:
                index += 1
                reset()
            }
        }
        return (classes, methods)
    }
}
