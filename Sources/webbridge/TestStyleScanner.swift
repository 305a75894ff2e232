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
    static func parse(_ text: String, file: URL) -> (
        classes: [String: ClassDecl], aliases: [String: String], methods: [MethodDecl]
    ) {
        let tokens = Self.tokens(blankingInactiveBranches(text))
        enum Scope {
            case type(name: String, mainActor: Bool, isExtension: Bool)
            case other
        }
        var scopes: [Scope] = []
        var classes: [String: ClassDecl] = [:]
        var aliases: [String: String] = [:]
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
            case "typealias":
                if let name = word(1), word(2) == "=", let target = word(3) { aliases[name] = aliases[name] ?? target }
                index += 1
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
        return (classes, aliases, methods)
    }
}
