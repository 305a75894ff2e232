import BridgeTesting
import Foundation

// WebKit must run on the process's real main thread: an async top level would hand the main queue to
// dispatch_main(), which drains it on a worker thread on Linux. So, as in `webbridge`, a main-actor Task
// does the work while the engine's main loop runs the main thread.
Task { @MainActor in
    let options: BenchOptions
    do {
        options = try BenchOptions(CommandLine.arguments)
    } catch is HelpRequested {
        print(BenchOptions.usage)
        exit(0)
    } catch {
        FileHandle.standardError.write(
            Data("webbridge-bench: \(error)\nUsage: webbridge-bench [--output FILE] [--quick]; see --help.\n".utf8))
        exit(2)
    }
    let runner = BenchRunner(options: options)
    exit(await runner.run())
}
if CommandLine.arguments.contains("--main-runloop") {
    RunLoop.main.add(Timer(timeInterval: 86_400 * 365, repeats: false) { _ in }, forMode: .default)
    while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
}
EngineEnvironment.runMainLoop()
