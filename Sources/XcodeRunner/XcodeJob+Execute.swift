import Foundation

extension XcodeJob {
    // MARK: running xcodebuild

    /// The system's words for a failed write ("No space left on device"), else the error's description.
    static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        let errors = [error as NSError, underlying].compactMap { $0 }
        if let posix = errors.first(where: { $0.domain == NSPOSIXErrorDomain }) {
            return String(cString: strerror(Int32(posix.code)))
        }
        return (error as NSError).localizedDescription
    }

    /// How the run ended, for an error: "exited with 65", "was interrupted by SIGTERM", "timed out after 60 s".
    static func describe(_ ending: JobRun.Ending) -> String {
        switch ending {
        case .exited(let status): "exited with \(status)"
        case .interrupted(let signal): "was interrupted by \(SignalName.of(signal))"
        case .timedOut(let after): "timed out after \(after) s"
        }
    }

    /// Runs one xcodebuild argv, teeing output to the console and the build log, and writes the manifest.
    func execute(
        label: String, argv: [String], in folder: URL, artifacts: RunArtifacts, xcode: XcodeVersion,
        runtime: String, deviceType: String?, udid: String, rerunOf: String?, timeout: TimeInterval? = nil
    ) throws(XcodeRunnerError) -> JobRun {
        let manager = FileManager.default
        do {
            try manager.createDirectory(
                at: artifacts.resultBundle.deletingLastPathComponent(), withIntermediateDirectories: true)
            // `.withoutOverwriting` makes creating the log fail rather than truncate an existing one.
            try Data().write(to: artifacts.buildLog, options: .withoutOverwriting)
        } catch {
            throw XcodeRunnerError(
                .artifactExists, field: artifacts.buildLog.path,
                rule: "could not create the build log without overwriting",
                remedy: "check the results folder is writable and the log does not exist")
        }
        guard let log = try? FileHandle(forWritingTo: artifacts.buildLog) else {
            throw XcodeRunnerError(
                .artifactExists, field: artifacts.buildLog.path, rule: "could not open the build log",
                remedy: "check permissions")
        }
        let start = now()
        console.event(.runStarted(argv: argv))
        var tracker = ProgressTracker()
        console.event(.progress(tracker))
        // The first failed write (a full disk, say) stops the log, not the run: xcodebuild's output still reaches
        // the console and the run ends as it would, then the failure is the job's error.
        var logFailure: (any Error)?
        let outcome = try tools.stream(argv[0], Array(argv.dropFirst()), in: folder, timeout: timeout) { chunk in
            console.output(chunk)
            if logFailure == nil {
                do { try log.write(contentsOf: chunk) } catch { logFailure = error }
            }
            if tracker.consume(chunk) { console.event(.progress(tracker)) }
        }
        let ending: JobRun.Ending =
            if let signal = outcome.interruptedBy {
                .interrupted(signal: signal)
            } else if outcome.timedOut, let timeout {
                .timedOut(after: timeout)
            } else {
                .exited(outcome.status)
            }
        try? log.close()
        if let logFailure {
            throw XcodeRunnerError(
                .artifactUnwritable, field: artifacts.buildLog.path,
                rule: "the build log could not be written (\(Self.reason(logFailure))); it is incomplete and no "
                    + "manifest was written (xcodebuild \(Self.describe(ending)))",
                remedy: "free space on the results folder's disk, or give a results folder on another disk, "
                    + "then run the job again")
        }
        let end = now()
        let iso = ISO8601DateFormatter()
        let manifest = RunManifest(
            xcodeVersion: xcode.version, xcodeBuild: xcode.build, runtime: runtime, deviceType: deviceType, udid: udid,
            argv: argv, workingDirectory: folder.path, start: iso.string(from: start), end: iso.string(from: end),
            exitCode: RunManifest.exitCode(of: ending), host: ProcessInfo.processInfo.hostName,
            resultBundle: artifacts.resultBundle.path, buildLog: artifacts.buildLog.path, rerunOf: rerunOf,
            timedOutAfterSeconds: outcome.timedOut && outcome.interruptedBy == nil ? timeout : nil,
            interruptedBy: outcome.interruptedBy.map(SignalName.of))
        do {
            try manifest.encoded().write(to: artifacts.manifest, options: .withoutOverwriting)
        } catch {
            throw XcodeRunnerError(
                .artifactExists, field: artifacts.manifest.path,
                rule: "could not write the manifest without overwriting",
                remedy: "check the results folder is writable")
        }
        let run = JobRun(label: label, artifacts: artifacts, manifest: manifest, progress: tracker, ending: ending)
        console.event(.runFinished(run))
        return run
    }
}
