import BridgeContract
import BridgeTesting
import CommandLineOptions
import ContractTools
import Foundation

/// `webbridge contract print|lock|diff|js|ts|swift`: a thin layer over `BridgeContract`, `ContractLock` and `ContractDiff`.
enum ContractCommand {
    static let options = OptionTable(
        command: "webbridge contract",
        positionals: [
            Positional(
                "subcommand", "<print|lock|diff|js|ts|swift>", choices: ["print", "lock", "diff", "js", "ts", "swift"])
        ],
        options: [
            .value("--contract", "FILE", "the contract file", default: .described("the bundled default contract")),
            .value(
                "--lock", "FILE", "the lock file",
                default: .described(
                    "beside the contract, <name>.lock.json; for the bundled default contract, its committed lock, "
                        + "read-only")),
            .flag("--force", "lock: write a write-protected lock anyway, keeping its permissions"),
            .value(
                "--wait", "SECONDS", "lock: how long to wait while another process holds the lock file's folder",
                rule: .seconds(maximum: 86_400), default: .value("60")),
            .value(
                "--format", "FORMAT",
                "diff: text, or json (Docs/contract-diff.schema.json) on stdout whether it passes or fails",
                rule: .choice(["text", "json"]), default: .value("text")),
        ])

    static let usage = options.help(
        """
        Prints, locks, diffs or exports the bridge contract (see Docs/CONTRACT.md).

        SUBCOMMANDS:
          print   Write the contract file's JSON to stdout (canonical: sorted keys).
          lock    Write the lock file. Refuses an incompatible change without a version bump,
                  a lock file that can't be read, and a write-protected one (it is never
                  overwritten blindly). A symlinked lock is written through the link. Two
                  lock runs at once take turns (each sees the other's lock).
          diff    Compare the contract with its lock and classify every change as compatible
                  or incompatible; fails on an incompatible change without a version bump.
          js      Write an ES module with the contract's constants and a validator to stdout.
          ts      Write TypeScript declarations of that module to stdout (save them beside it:
                  bridge-contract.d.mts beside bridge-contract.mjs).
          swift   Write Sendable Swift types of the contract's messages to stdout (or let the
                  BridgeContractPlugin build plugin generate them at build time).
        """,
        epilogue: """
            EXIT CODES:
              0 pass, 1 contract failure (invalid contract or lock, incompatible change, no lock yet),
              2 usage (also: a file given or implied that is missing, unreadable or write-protected),
              3 environment (the installation, or output that can't be written: a full disk)
            """)

    static func run(_ argv: ArraySlice<String>) -> ExitStatus {
        let parsed: ParsedOptions
        switch options.read(argv, help: usage) {
        case .exit(let status): return status
        case .options(let options): parsed = options
        }
        let contractURL = parsed.value("--contract").map { URL(fileURLWithPath: $0) }
        let lockURL = parsed.value("--lock").map { URL(fileURLWithPath: $0) }
        switch parsed.positionals[0] {
        case "print": return printContract(contractURL)
        case "lock": return lock(contractURL, lockURL, force: parsed.has("--force"), wait: parsed.seconds("--wait")!)
        case "diff": return diff(contractURL, lockURL, json: parsed.value("--format") == "json")
        case "ts": return generated(contractURL) { TypeScriptDeclarations(contract: $0).source }
        case "swift":
            if case .success(let (_, contract)) = load(contractURL), let problem = SwiftTypes.unsupported(contract) {
                return CommandError(.contractFailure, problem).report()
            }
            return generated(contractURL) { SwiftTypes(contract: $0).source }
        default: return generated(contractURL) { ContractModule(contract: $0).source }
        }
    }

    /// A file that can't be read is the user's path to fix (2); a file that breaks the rules is a contract failure (1).
    private static func status(of error: ContractError) -> ExitStatus {
        error.code == .unreadable ? .usage : .contractFailure
    }

    private static func usageError(_ message: String) -> ExitStatus {
        options.usageError(CommandError(message))
    }

    /// The contract file to read: the one given, or the bundled default.
    private static func contractFile(_ url: URL?) -> Result<URL, CommandError> {
        if let url { return .success(url) }
        guard let bundled = BridgeContract.defaultContractURL else {
            return .failure(
                CommandError(
                    .environment, "the bundled default contract is missing from the installation; pass --contract FILE")
            )
        }
        return .success(bundled)
    }

    private static func load(_ url: URL?) -> Result<(URL, BridgeContract), CommandError> {
        contractFile(url).flatMap { file in
            do throws(ContractError) {
                return .success((file, try BridgeContract.load(contentsOf: file)))
            } catch {
                return .failure(CommandError(status(of: error), error.description))
            }
        }
    }

    private static func printContract(_ url: URL?) -> ExitStatus {
        switch load(url) {
        case .failure(let failure): return failure.report()
        case .success(let (_, contract)):
            Output.out(data: contract.jsonData())
            return .pass
        }
    }

    /// Code generated from the contract (the JS module, its TypeScript declarations, the Swift types), on stdout.
    private static func generated(_ url: URL?, _ source: (BridgeContract) -> String) -> ExitStatus {
        switch load(url) {
        case .failure(let failure): return failure.report()
        case .success(let (_, contract)):
            Output.out(data: Data(source(contract).utf8))
            return .pass
        }
    }

    /// The lock file to use and whether it may be written.
    private static func lockFile(contract: URL?, lock: URL?) -> (url: URL, writable: Bool)? {
        if let lock { return (lock, true) }
        if let contract { return (ContractLock.defaultURL(forContract: contract), true) }
        return BridgeContract.defaultLockURL.map { ($0, false) }
    }

    private static func diff(_ contractURL: URL?, _ lockURL: URL?, json: Bool) -> ExitStatus {
        let contract: BridgeContract
        switch load(contractURL) {
        case .failure(let failure): return failure.report()
        case .success(let (_, loaded)): contract = loaded
        }
        guard let (lockPath, _) = lockFile(contract: contractURL, lock: lockURL) else {
            return CommandError(
                .environment, "the bundled default contract's lock is missing from the installation; pass --lock FILE"
            ).report()
        }
        guard FileManager.default.fileExists(atPath: lockPath.path) else {
            return CommandError(
                .contractFailure,
                "\(lockPath.path): no lock file. Remedy: run `webbridge contract lock` and commit the lock file."
            ).report()
        }
        let lock: ContractLock
        do throws(ContractError) {
            lock = try ContractLock.load(contentsOf: lockPath)
        } catch {
            return CommandError(status(of: error), error.description).report()
        }
        let diff = ContractDiff(locked: lock.contract, current: contract)
        if json {
            Output.out(ContractDiffJSON(diff, name: contract.displayName).text)
            return diff.passes ? .pass : .contractFailure
        }
        if diff.passes {
            Output.out(TerminalText.escapeLines(diff.description))
            return .pass
        }
        printError(TerminalText.escapeLines(diff.description))
        return .contractFailure
    }

    private static func lock(_ contractURL: URL?, _ lockURL: URL?, force: Bool, wait: Double) -> ExitStatus {
        let contract: BridgeContract
        switch load(contractURL) {
        case .failure(let failure): return failure.report()
        case .success(let (_, loaded)): contract = loaded
        }
        guard let (lockPath, writable) = lockFile(contract: contractURL, lock: lockURL), writable else {
            return usageError(
                "the bundled default contract's lock is committed in the package; pass --contract FILE (its lock goes beside it) or --lock FILE"
            )
        }
        let target: LockTarget
        do {
            target = try LockTarget(lockPath, force: force)
        } catch {
            return error.report()
        }
        // Held until the process exits: a second `lock` waits here, then diffs against this one's result.
        do {
            try target.takeTurn(waitingAtMost: wait)
        } catch {
            return error.report()
        }
        if target.existingMode != nil {
            let existing: ContractLock
            do throws(ContractError) {
                existing = try ContractLock.load(contentsOf: target.file)
            } catch {
                return CommandError(
                    status(of: error),
                    "\(error.description)\nThe existing lock is kept: fix it, or move it away and lock again."
                ).report()
            }
            let diff = ContractDiff(locked: existing.contract, current: contract)
            guard diff.passes else {
                printError(TerminalText.escapeLines(diff.description))
                printError("The lock was not changed.")
                return .contractFailure
            }
            if !diff.lockIsStale {
                Output.out("\(target.shown): already up to date (contract version \(contract.version))")
                return .pass
            }
        }
        do {
            try target.write(ContractLock(contract: contract).jsonData())
        } catch {
            return error.report()
        }
        Output.out("\(target.shown): locked contract version \(contract.version)\(target.note); commit this file")
        return .pass
    }

}

extension CommandError {
    /// Prints a `contract` subcommand's failure once, `webbridge contract: <message>`, without the usage hint (the
    /// command line was right; the file or the machine is not), and gives its exit status.
    func report() -> ExitStatus {
        printError("\(ContractCommand.options.command): \(description)")
        return status
    }
}

/// Where `lock` writes: the file named, or the file its symlink points to; never over a write-protected file
/// unless forced, and one `lock` at a time per directory.
struct LockTarget {
    /// The file written: the named path, or the end of its symlink chain.
    let file: URL
    /// The named path, escaped for the terminal.
    let shown: String
    /// Said after "locked …" when the write went through a symlink.
    let note: String
    /// The existing file's permission bits, nil when there is no file yet.
    let existingMode: mode_t?

    init(_ url: URL, force: Bool) throws(CommandError) {
        shown = TerminalText.escape(url.path)
        var path = url.path
        var hops = 0
        var info = stat()
        while lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            hops += 1
            guard hops <= 40, let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else {
                throw CommandError(
                    .usage,
                    "\(shown): the symlink can't be followed (a loop, or too many links). Remedy: point it at a file")
            }
            path =
                destination.hasPrefix("/")
                ? destination
                : PathName.joined(PathName.folder(of: path), destination)
        }
        file = URL(fileURLWithPath: path)
        note = hops > 0 ? " (written through the symlink to \(TerminalText.escape(path)); the link is kept)" : ""
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw CommandError(
                    .usage, "\(shown): not a regular file. Remedy: give the path of a lock file")
            }
            let mode = info.st_mode & 0o7777
            // The owner's write bit says whether the user meant the file to change (root ignores it otherwise).
            if mode & S_IWUSR == 0 && !force {
                throw CommandError(
                    .usage,
                    "\(shown): the lock file is write-protected (mode \(String(mode, radix: 8))) and was not changed. Remedy: make it writable (chmod u+w) if it should change, or pass --force to write it and keep its mode"
                )
            }
            existingMode = mode
        } else if errno == ENOENT {
            existingMode = nil
        } else {
            throw CommandError(
                .usage, "\(shown): can't be examined (\(String(cString: strerror(errno)))). Remedy: check the path")
        }
    }

    /// Replaces the file atomically (a temporary beside it, renamed over it), keeping its permission bits.
    func write(_ data: Data) throws(CommandError) {
        let temporary = file.deletingLastPathComponent()
            .appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp").path
        func fail(_ code: Int32) -> CommandError {
            unlink(temporary)
            let full = code == ENOSPC || code == EIO || code == EDQUOT
            return CommandError(
                full ? .environment : .usage,
                "\(shown): the lock file can't be written (\(String(cString: strerror(code)))); the old lock is kept. Remedy: "
                    + (full ? "free disk space" : "check the directory exists and is writable"))
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL, existingMode ?? 0o666)
        guard descriptor >= 0 else { throw fail(errno) }
        var failure = writeFully(data, to: descriptor) ?? 0
        // Exactly the old mode, whatever the umask; a new file gets the umask's default.
        if failure == 0, let existingMode, fchmod(descriptor, existingMode) != 0 { failure = errno }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, file.path) != 0 { failure = errno }
        if failure != 0 { throw fail(failure) }
    }
}
