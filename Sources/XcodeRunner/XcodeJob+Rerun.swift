import Foundation

extension XcodeJob {
    // MARK: rerun

    /// Repeats a recorded run into a new bundle, refusing when the Xcode or the simulator differ.
    public func rerun(manifestURL: URL) -> JobOutcome {
        let old: RunManifest
        do { old = try RunManifest.load(from: manifestURL) } catch {
            return JobOutcome(.refused(.failed(error)))
        }
        do {
            // Only the run webbridge recorded is replayed: a UUID simulator and the exact `xcodebuild test` argv.
            try UDID.validate(
                old.udid, field: "udid", code: .manifestUnreadable,
                remedy: "rerun a manifest written by 'webbridge xcode test', unedited")
            try XcodebuildCommand.checkRecordedTestRun(old)
        } catch {
            return JobOutcome(.refused(.notARecordedRun(manifest: manifestURL.path, error)))
        }
        guard tools.hasMacTools else { return JobOutcome(.refused(.needsAMac)) }
        let xcode: XcodeVersion
        do { xcode = try XcodeVersion(parsing: tools.capture("xcodebuild", ["-version"]).stdout) } catch {
            return JobOutcome(SignalRelay.stopped.map { .interrupted(signal: $0) } ?? .refused(.failed(error)))
        }
        var refusals: [String] = []
        let recorded = XcodeVersion(version: old.xcodeVersion, build: old.xcodeBuild)
        if xcode != recorded {
            refusals.append(
                "xcode: running \(xcode.display), the run used \(recorded.display). Remedy: select that Xcode with xcode-select"
            )
        }
        var config = JobConfig()
        config.runtime = old.runtime
        let simulator = Preflight(config: config, folder: URL(fileURLWithPath: old.workingDirectory), tools: tools)
            .simulatorCheck(udid: old.udid, label: "simulator")
        if simulator.status != .passed { refusals.append(simulator.description) }
        let oldBundle = URL(fileURLWithPath: old.resultBundle)
        let start = now()
        // As for `test`: a rerun in the same second as another takes the next free name, never an existing one.
        var artifacts = RunArtifacts.default(
            results: oldBundle.deletingLastPathComponent(), udid: old.udid, start: start, suffix: "-rerun")
        for attempt in 2..<1000 where artifacts.all.contains(where: { FileManager.default.fileExists(atPath: $0.path) })
        {
            artifacts = RunArtifacts.default(
                results: oldBundle.deletingLastPathComponent(), udid: old.udid, start: start,
                suffix: "-rerun-\(attempt)")
        }
        for url in artifacts.all where FileManager.default.fileExists(atPath: url.path) {
            refusals.append("result bundle: \(url.path) already exists and is never overwritten")
        }
        if let signal = SignalRelay.stopped { return JobOutcome(.interrupted(signal: signal)) }
        guard refusals.isEmpty else { return JobOutcome(.refused(.environmentDiffers(refusals))) }
        guard let argv = XcodebuildCommand.replacingResultBundle(in: old.argv, with: artifacts.resultBundle),
            argv.first == "xcodebuild"
        else {
            let error = XcodeRunnerError(
                .manifestUnreadable, field: "argv", rule: "has no -resultBundlePath to redirect",
                remedy: "rerun a manifest written by 'webbridge xcode test', unedited")
            return JobOutcome(.refused(.notARecordedRun(manifest: manifestURL.path, error)))
        }
        do {
            let run = try execute(
                label: old.udid, argv: argv, in: URL(fileURLWithPath: old.workingDirectory), artifacts: artifacts,
                xcode: xcode, runtime: old.runtime, deviceType: old.deviceType, udid: old.udid,
                rerunOf: manifestURL.path)
            return JobOutcome(Self.verdict([run], nil), runs: [run])
        } catch {
            return JobOutcome(.refused(.failed(error)))
        }
    }
}
