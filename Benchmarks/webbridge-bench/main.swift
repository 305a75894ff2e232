import BridgeTesting
import CommandLineOptions
import Foundation

// Read before anything runs: `--main-runloop` decides which loop runs the main thread.
let options: BenchOptions
do {
    let parsed = try BenchOptions.options.parse(CommandLine.arguments.dropFirst())
    if parsed.wantsHelp {
        print(BenchOptions.usage)
        exit(0)
    }
    options = BenchOptions(parsed, executable: CommandLine.arguments.first ?? "webbridge-bench")
} catch {
    FileHandle.standardError.write(Data("webbridge-bench: \(error)\n\(BenchOptions.options.usageHint)\n".utf8))
    exit(2)
}
ResidentMemory.trimFirst = options.trimBeforeRSS

// WebKit must run on the process's real main thread: an async top level would hand the main queue to
// dispatch_main(), which drains it on a worker thread on Linux. So, as in `webbridge`, a main-actor Task
// does the work while the engine's main loop runs the main thread.
Task { @MainActor in
    let runner = BenchRunner(options: options)
    exit(await runner.run())
}
if options.mainRunLoop {
    RunLoop.main.add(Timer(timeInterval: 86_400 * 365, repeats: false) { _ in }, forMode: .default)
    while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
}
EngineEnvironment.runMainLoop()
