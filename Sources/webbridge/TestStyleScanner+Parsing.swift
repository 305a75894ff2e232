import Foundation
import TerminalEscape

/// Parsing: the source's tokens (comments and string contents left out), then the test methods in them.
extension TestStyleScanner {
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
