/// A `#if` condition as the Swift compiler on Linux evaluates it: `true`, `false`, or unknown when it names what
/// doctor can't decide (a custom flag, `canImport` of a module that may be installed, a compiler version).
/// `TestStyleScanner` skips only what is surely inactive, so an unknown condition keeps its code scanned.
enum CompilationCondition {
    /// Platforms `os(…)` names; on Linux only `Linux` holds.
    static let platforms: Set<String> = [
        "macOS", "OSX", "iOS", "tvOS", "watchOS", "visionOS", "xrOS", "Linux", "Windows", "Android", "FreeBSD",
        "OpenBSD", "Cygwin", "PS4", "WASI", "Haiku", "none",
    ]
    /// Modules that exist only on Apple's platforms: `canImport` of one is false on Linux.
    static let appleOnlyModules: Set<String> = [
        "UIKit", "AppKit", "Cocoa", "Darwin", "WatchKit", "SwiftUI", "Combine", "WebKit", "ObjectiveC", "CoreGraphics",
        "QuartzCore", "CoreData", "MapKit", "SafariServices", "AuthenticationServices",
        "os", "OSLog", "CoreServices", "CoreLocation", "AVFoundation", "Photos", "StoreKit", "XCUIAutomation",
    ]
    /// Modules every Swift toolchain for Linux has.
    static let linuxModules: Set<String> = ["Glibc", "Foundation", "XCTest", "Dispatch", "Swift", "Testing"]

    /// The value of `text` (the directive's condition) on Linux, or nil when doctor can't tell.
    static func onLinux(_ text: Substring) -> Bool? {
        var parser = Parser(tokens: tokenize(text))
        guard let value = parser.disjunction(), parser.index == parser.tokens.count else { return nil }
        return value
    }

    static func tokenize(_ text: Substring) -> [String] {
        var tokens: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty { tokens.append(current) }
            current = ""
        }
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case " ", "\t", "\r": flush()
            case "(", ")", ",", "!":
                flush()
                tokens.append(String(scalar))
            case "&", "|":
                flush()
                if scalars.first == scalar { scalars.removeFirst() }
                tokens.append(String(scalar) + String(scalar))
            case "/" where scalars.first == "/":
                flush()
                return tokens
            default: current.unicodeScalars.append(scalar)
            }
        }
        flush()
        return tokens
    }

    /// Three-valued: `nil` is unknown. `false && unknown` is false, `true || unknown` is true.
    struct Parser {
        let tokens: [String]
        var index = 0

        var next: String? { index < tokens.count ? tokens[index] : nil }

        mutating func disjunction() -> Bool?? {
            guard var value = conjunction() else { return nil }
            while next == "||" {
                index += 1
                guard let right = conjunction() else { return nil }
                value = value == true || right == true ? true : (value == false && right == false ? false : nil)
            }
            return value
        }

        mutating func conjunction() -> Bool?? {
            guard var value = unary() else { return nil }
            while next == "&&" {
                index += 1
                guard let right = unary() else { return nil }
                value = value == false || right == false ? false : (value == true && right == true ? true : nil)
            }
            return value
        }

        /// `.some(nil)` is a well-formed condition of unknown value; `nil`, one doctor can't parse.
        mutating func unary() -> Bool?? {
            guard let token = next else { return nil }
            index += 1
            switch token {
            case "!":
                guard let value = unary() else { return nil }
                return .some(value.map { !$0 })
            case "(":
                guard let value = disjunction(), next == ")" else { return nil }
                index += 1
                return value
            case "true", "1": return .some(true)
            case "false", "0": return .some(false)
            default:
                guard next == "(" else { return .some(nil) }  // a custom flag: -D may set it
                index += 1
                var argument: [String] = []
                while let part = next, part != ")" {
                    argument.append(part)
                    index += 1
                }
                guard next == ")" else { return nil }
                index += 1
                return .some(Self.call(token, argument.joined(separator: " ")))
            }
        }

        static func call(_ name: String, _ argument: String) -> Bool? {
            switch name {
            case "os": platforms.contains(argument) ? argument == "Linux" : nil
            case "canImport":
                appleOnlyModules.contains(argument) ? false : (linuxModules.contains(argument) ? true : nil)
            case "targetEnvironment": ["simulator", "macCatalyst"].contains(argument) ? false : nil
            case "_runtime": argument == "_ObjC" ? false : (argument == "_Native" ? true : nil)
            case "_endian": argument == "little" ? true : (argument == "big" ? false : nil)
            default: nil
            }
        }
    }
}

extension TestStyleScanner {
    /// `text` with the lines of the branches Linux never compiles blanked, line numbers kept: `#if false`,
    /// `#if os(iOS)`, `#if canImport(UIKit)`, `#if !os(Linux)`, and the `#elseif`/`#else` after a branch that
    /// holds (`CompilationCondition`). Code the compiler never sees runs no test; a branch doctor can't decide
    /// (a custom flag) is scanned.
    static func blankingInactiveBranches(_ text: String) -> String {
        guard text.contains("#if") else { return text }
        // One entry per open #if: whether its current branch is surely inactive, and whether a branch before it
        // surely holds (so every later one is inactive).
        var branches: [(inactive: Bool, taken: Bool)] = []
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let directive = line.drop { $0 == " " || $0 == "\t" }
            let keyword = directive.prefix { $0 != " " && $0 != "\t" && $0 != "(" && $0 != "!" }
            let condition = directive.dropFirst(keyword.count)
            switch keyword {
            case "#if":
                let value = CompilationCondition.onLinux(condition)
                branches.append((value == false, value == true))
            case "#elseif":
                guard let last = branches.popLast() else { break }
                let value = last.taken ? nil : CompilationCondition.onLinux(condition)
                branches.append((last.taken || value == false, last.taken || value == true))
            case "#else":
                guard let last = branches.popLast() else { break }
                branches.append((last.taken, true))
            case "#endif": _ = branches.popLast()
            default:
                if branches.contains(where: \.inactive) {
                    lines.append("")
                    continue
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
