/// A command line read by its `OptionTable`: every value already follows its option's rule, and an option not
/// given reads as its default. Asking for an option the table does not have is a programming error (it traps).
public struct ParsedOptions: Sendable {
    public let table: OptionTable
    /// The arguments that are not options, in order.
    public let positionals: [String]
    /// Whether `-h` or `--help` was given.
    public let wantsHelp: Bool
    /// Every option given, in command-line order (a flag has no value).
    private let given: [(name: String, value: String?)]

    init(table: OptionTable, given: [(name: String, value: String?)], positionals: [String], wantsHelp: Bool) {
        self.table = table
        self.given = given
        self.positionals = positionals
        self.wantsHelp = wantsHelp
    }

    /// Whether the option was on the command line (a default does not count).
    public func isGiven(_ name: String) -> Bool {
        declared(name)
        return given.contains { $0.name == name }
    }

    /// Whether the flag was given.
    public func has(_ flag: String) -> Bool {
        precondition(!declared(flag).takesValue, "\(flag) takes a value: read it with value(_:)")
        return isGiven(flag)
    }

    /// The last value given, else the default value; nil when neither.
    public func value(_ name: String) -> String? {
        let option = declared(name)
        if let last = given.last(where: { $0.name == name })?.value { return last }
        if case .value(let text) = option.defaultValue { return text }
        return nil
    }

    /// Every value given for a repeatable option, in order (the default is not among them).
    public func values(_ name: String) -> [String] {
        declared(name)
        return given.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The values of the options in `names`, in the order they were given, for options whose interleaving
    /// matters (`--page`, `--url`).
    public func values(inOrder names: Set<String>) -> [(name: String, value: String)] {
        for name in names { declared(name) }
        return given.compactMap { item in
            guard names.contains(item.name), let value = item.value else { return nil }
            return (item.name, value)
        }
    }

    /// The value of an `.integer` option.
    public func integer(_ name: String) -> Int? {
        guard case .integer = declared(name).rule else { preconditionFailure("\(name) is not an integer option") }
        return value(name).flatMap { Int($0) }
    }

    /// The value of a `.seconds` option.
    public func seconds(_ name: String) -> Double? {
        guard case .seconds = declared(name).rule else { preconditionFailure("\(name) is not a seconds option") }
        return value(name).flatMap { Double($0) }
    }

    /// The words of a `.list` option (empty when neither given nor defaulted).
    public func list(_ name: String) -> [String] {
        guard case .list = declared(name).rule else { preconditionFailure("\(name) is not a list option") }
        return value(name).map { $0.split(separator: ",").map(String.init) } ?? []
    }

    @discardableResult
    private func declared(_ name: String) -> Option {
        guard let option = table.option(name) else {
            preconditionFailure("\(table.command) has no option \(name) in its table")
        }
        return option
    }
}
