/// `webbridge check`: not yet built.
enum CheckCommand {
    static func run(_ argv: ArraySlice<String>) -> ExitStatus {
        printError("webbridge check: not yet available")
        return .environment
    }
}
