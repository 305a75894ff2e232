/// `webbridge xcode`: not yet built.
enum XcodeCommand {
    static func run(_ argv: ArraySlice<String>) -> ExitStatus {
        printError("webbridge xcode: not yet available")
        return .environment
    }
}
