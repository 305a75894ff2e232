/// `webbridge contract`: not yet built.
enum ContractCommand {
    static func run(_ argv: ArraySlice<String>) -> ExitStatus {
        printError("webbridge contract: not yet available")
        return .environment
    }
}
