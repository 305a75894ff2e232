import BridgeContract
import Foundation

/// `webbridge contract print|lock|diff|js`: a thin layer over `BridgeContract`, `ContractLock` and `ContractDiff`.
enum ContractCommand {
    static let usage = """
        USAGE: webbridge contract <print|lock|diff|js> [--contract FILE] [--lock FILE]

        Prints, locks, diffs or exports the bridge contract (see Docs/CONTRACT.md).

        SUBCOMMANDS:
          print   Write the contract file's JSON to stdout (canonical: sorted keys).
          lock    Write the lock file. Refuses an incompatible change without a version bump,
                  and a lock file that can't be read (it is never overwritten blindly).
          diff    Compare the contract with its lock and classify every change as compatible
                  or incompatible; fails on an incompatible change without a version bump.
          js      Write an ES module with the contract's constants and a validator to stdout.

        OPTIONS:
          --contract FILE   The contract file (default: the bundled default contract).
          --lock FILE       The lock file (default: beside the contract, <name>.lock.json; for the
                            bundled default contract, its committed lock, read-only).
          -h, --help        Show this help.

        EXIT CODES:
          0 pass, 1 contract failure (invalid contract, incompatible change, missing lock),
          2 usage, 3 environment (a file can't be read or written)
        """

    static func run(_ argv: ArraySlice<String>) -> ExitStatus {
        let arguments: Arguments
        do {
            arguments = try Arguments(argv, options: ["--contract", "--lock"])
        } catch {
            return usageError(error.description)
        }
        if arguments.wantsHelp {
            print(usage)
            return .pass
        }
        guard let action = arguments.positionals.first else {
            return usageError("missing subcommand")
        }
        do {
            try arguments.expectPositionals(atMost: 1)
        } catch {
            return usageError(error.description)
        }
        let contractURL = arguments.value("--contract").map { URL(fileURLWithPath: $0) }
        let lockURL = arguments.value("--lock").map { URL(fileURLWithPath: $0) }
        switch action {
        case "print": return printContract(contractURL)
        case "lock": return lock(contractURL, lockURL)
        case "diff": return diff(contractURL, lockURL)
        case "js": return javaScript(contractURL)
        default: return usageError("unknown subcommand '\(action)'")
        }
    }

    private static func usageError(_ message: String) -> ExitStatus {
        printError("webbridge contract: \(message)")
        printError(
            "Usage: webbridge contract <print|lock|diff|js> [--contract FILE] [--lock FILE]; see 'webbridge contract --help'."
        )
        return .usage
    }

    /// The contract file to read: the one given, or the bundled default.
    private static func contractFile(_ url: URL?) -> Result<URL, Failure> {
        if let url { return .success(url) }
        guard let bundled = BridgeContract.defaultContractURL else {
            return .failure(
                Failure(
                    .environment, "the bundled default contract is missing from the installation; pass --contract FILE")
            )
        }
        return .success(bundled)
    }

    private static func load(_ url: URL?) -> Result<(URL, BridgeContract), Failure> {
        contractFile(url).flatMap { file in
            do throws(ContractFileError) {
                return .success((file, try BridgeContract.load(contentsOf: file)))
            } catch {
                return .failure(Failure(error.code == .unreadable ? .environment : .contractFailure, error.description))
            }
        }
    }

    private static func printContract(_ url: URL?) -> ExitStatus {
        switch load(url) {
        case .failure(let failure): return failure.report()
        case .success(let (_, contract)):
            FileHandle.standardOutput.write(contract.jsonData())
            return .pass
        }
    }

    private static func javaScript(_ url: URL?) -> ExitStatus {
        switch load(url) {
        case .failure(let failure): return failure.report()
        case .success(let (_, contract)):
            FileHandle.standardOutput.write(Data(ContractModule(contract: contract).source.utf8))
            return .pass
        }
    }

    /// The lock file to use and whether it may be written.
    private static func lockFile(contract: URL?, lock: URL?) -> (url: URL, writable: Bool)? {
        if let lock { return (lock, true) }
        if let contract { return (ContractLock.defaultURL(forContract: contract), true) }
        return BridgeContract.defaultLockURL.map { ($0, false) }
    }

    private static func diff(_ contractURL: URL?, _ lockURL: URL?) -> ExitStatus {
        let contract: BridgeContract
        switch load(contractURL) {
        case .failure(let failure): return failure.report()
        case .success(let (_, loaded)): contract = loaded
        }
        guard let (lockPath, _) = lockFile(contract: contractURL, lock: lockURL) else {
            return Failure(
                .environment, "the bundled default contract's lock is missing from the installation; pass --lock FILE"
            ).report()
        }
        guard FileManager.default.fileExists(atPath: lockPath.path) else {
            return Failure(
                .contractFailure,
                "\(lockPath.path): no lock file. Remedy: run `webbridge contract lock` and commit the lock file."
            ).report()
        }
        let lock: ContractLock
        do throws(ContractFileError) {
            lock = try ContractLock.load(contentsOf: lockPath)
        } catch {
            return Failure(error.code == .unreadable ? .environment : .contractFailure, error.description).report()
        }
        let diff = ContractDiff(locked: lock.contract, current: contract)
        if diff.passes {
            print(diff.description)
            return .pass
        }
        printError(diff.description)
        return .contractFailure
    }

    private static func lock(_ contractURL: URL?, _ lockURL: URL?) -> ExitStatus {
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
        if FileManager.default.fileExists(atPath: lockPath.path) {
            let existing: ContractLock
            do throws(ContractFileError) {
                existing = try ContractLock.load(contentsOf: lockPath)
            } catch {
                return Failure(
                    .contractFailure,
                    "\(error.description)\nThe existing lock is kept: fix it, or move it away and lock again."
                ).report()
            }
            let diff = ContractDiff(locked: existing.contract, current: contract)
            guard diff.passes else {
                printError(diff.description)
                printError("The lock was not changed.")
                return .contractFailure
            }
            if !diff.lockIsStale {
                print("\(lockPath.path): already up to date (contract version \(contract.version))")
                return .pass
            }
        }
        do {
            try ContractLock(contract: contract).jsonData().write(to: lockPath, options: .atomic)
        } catch {
            return Failure(
                .environment,
                "\(lockPath.path): the lock file can't be written. Remedy: check the directory exists and is writable."
            ).report()
        }
        print("\(lockPath.path): locked contract version \(contract.version); commit this file")
        return .pass
    }

    /// A failure with its exit status, printed to stderr once.
    struct Failure: Error {
        let status: ExitStatus
        let message: String
        init(_ status: ExitStatus, _ message: String) {
            self.status = status
            self.message = message
        }
        func report() -> ExitStatus {
            printError("webbridge contract: \(message)")
            return status
        }
    }
}
