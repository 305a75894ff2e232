import BridgeContract
import Foundation

extension RunReport {
    /// Reads the JSON report at `path`; a file that can't be read is named with the reason.
    package static func load(_ path: String) throws(CheckError) -> RunReport {
        let file = TerminalText.escape(path)
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw CheckError(
                code: .unreadable, file: file, field: "",
                problem: !exists ? "no such file" : isDirectory.boolValue ? "a folder, not a file" : "can't be read",
                remedy: "pass the path of a JSON report (`check --report json=FILE` writes one)")
        }
        return try read(data, file: file)
    }

    /// Reads one JSON report; `file` names it in errors. Refuses a file of another schema before reading further.
    package static func read(_ data: Data, file: String) throws(CheckError) -> RunReport {
        func refusal(_ code: CheckError.Code, _ field: String, _ problem: String, _ remedy: String)
            -> CheckError
        {
            CheckError(code: code, file: file, field: field, problem: problem, remedy: remedy)
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw refusal(.notJSON, "", "the file is not JSON", CheckError.reportAsWritten)
        }
        guard let document = object as? [String: Any], let schema = document["schema"] else {
            throw refusal(
                .notAReport, "schema", "missing; a webbridge JSON report is an object with \"schema\": \(Self.schema)",
                CheckError.reportAsWritten)
        }
        guard let number = schema as? Int, number == Self.schema else {
            let writer = (document["webbridgeVersion"] as? String).map { " (written by webbridge \($0))" } ?? ""
            throw refusal(
                .otherSchema, "schema",
                "\(schema) is not schema \(Self.schema), the one \(WebBridgeVersion.tool) reads\(writer)",
                "merge it with the webbridge version that wrote it, or run its check again with this one")
        }
        do {
            return try JSONDecoder().decode(RunReport.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw refusal(
                .invalidValue, (context.codingPath + [key]).jsonPath, "missing; schema \(Self.schema) requires it",
                CheckError.reportAsWritten)
        } catch let DecodingError.typeMismatch(type, context) {
            throw refusal(
                .invalidValue, context.codingPath.jsonPath,
                "not \(Self.typeName(type)) as schema \(Self.schema) requires",
                CheckError.reportAsWritten)
        } catch let DecodingError.valueNotFound(type, context) {
            throw refusal(
                .invalidValue, context.codingPath.jsonPath,
                "null; schema \(Self.schema) requires \(Self.typeName(type))",
                CheckError.reportAsWritten)
        } catch let DecodingError.dataCorrupted(context) {
            throw refusal(
                .invalidValue, context.codingPath.jsonPath, context.debugDescription, CheckError.reportAsWritten)
        } catch {
            throw refusal(.invalidValue, "", "\(error)", CheckError.reportAsWritten)
        }
    }

    /// A JSON type's name for a Swift type the decoder expected.
    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }

    /// The reports of a `--shard` matrix, or of several runs, as one report.
    ///
    /// Shards of one split (`1/3`, `2/3`, `3/3`) are put back in list order: the k-th page of shard i was the list's
    /// page i-1 + k·n. Runs of whole lists are concatenated, a page checked in several runs keeping all of its
    /// sessions (numbered on). Refused: another contract or contract version, a shard twice, shards of another split,
    /// a shard beside a whole list. The merged run started at the earliest start, its timeout is the longest, and
    /// its engine names each distinct engine.
    package static func merged(_ files: [(file: String, report: RunReport)]) throws(CheckError) -> RunReport {
        guard let first = files.first else {
            preconditionFailure("merged() needs at least one report; the command line requires a FILE")
        }
        var seenShards: [Shard: String] = [:]
        for (file, report) in files {
            if report.contract != first.report.contract {
                throw CheckError(
                    code: .otherContract, file: file, field: "contract",
                    problem:
                        "\(report.contract.description), but \(first.file) is \(first.report.contract.description); reports of another contract or contract version are not merged",
                    remedy: "merge the reports of runs against one contract version (the same commit)")
            }
            let split = first.report.shards.first?.count
            if report.shards.isEmpty != first.report.shards.isEmpty {
                let (sharded, whole) = report.shards.isEmpty ? (first.file, file) : (file, first.file)
                throw CheckError(
                    code: .otherSplit, file: file, field: "shards",
                    problem:
                        "\(sharded) is a --shard run and \(whole) checked a whole list; merged, pages would count twice",
                    remedy: "merge either the shards of one --shard I/N matrix, or runs of whole lists")
            }
            for shard in report.shards {
                if let split, shard.count != split {
                    throw CheckError(
                        code: .otherSplit, file: file, field: "shards",
                        problem:
                            "\(shard.description), but \(first.file) is a shard of \(split); parts of different splits overlap",
                        remedy: "merge the shards of one --shard I/N matrix")
                }
                if let earlier = seenShards[shard] {
                    throw CheckError(
                        code: .duplicateShard, file: file, field: "shards",
                        problem: "shard \(shard.description) is in \(earlier) too; its pages would count twice",
                        remedy: "pass each shard's report once")
                }
                seenShards[shard] = file
            }
        }
        let reports = files.map(\.report)
        if let mixed = files.first(where: { ($0.report.positions == nil) != (first.report.positions == nil) }) {
            throw CheckError(
                code: .otherSplit, file: mixed.file, field: "positions",
                problem:
                    "one of the reports is a shard balanced by --durations and another a shard of every n-th page; the splits differ",
                remedy: "merge the shards of one --shard I/N matrix, all with the same --durations or all without")
        }
        let pages: [BridgeReport]
        var positions: [Int]?
        if reports.allSatisfy({ $0.positions != nil }), !first.report.shards.isEmpty {
            let placed = reports.flatMap { zip($0.positions!, $0.pages) }.sorted { $0.0 < $1.0 }
            pages = placed.map(\.1)
            positions = placed.map(\.0)
        } else {
            pages = first.report.shards.isEmpty ? Self.joiningRuns(reports) : Self.interleavingShards(reports)
        }
        var engines: [String] = []
        for report in reports where !engines.contains(report.engine) { engines.append(report.engine) }
        return RunReport(
            pages: pages, contract: first.report.contract,
            shards: reports.flatMap(\.shards).sorted { $0.index < $1.index },
            interrupted: reports.contains(where: \.interrupted), notRun: reports.flatMap(\.notRun),
            startedAt: reports.map(\.startedAt).min()!, timeout: reports.map(\.timeout).max()!,
            engine: engines.joined(separator: "; "), positions: positions)
    }

    /// Every shard's pages at their place in the list.
    private static func interleavingShards(_ reports: [RunReport]) -> [BridgeReport] {
        var placed: [(position: Int, page: BridgeReport)] = []
        for report in reports {
            // A merged report holds several shards already, in list order: its pages cycle through them.
            let shards = report.shards
            for (offset, page) in report.pages.enumerated() {
                let shard = shards[offset % shards.count]
                placed.append(((shard.index - 1) + (offset / shards.count) * shard.count, page))
            }
        }
        return placed.sorted { $0.position < $1.position }.map(\.page)
    }

    /// The runs' pages in order of first appearance; a page in several runs gets all of their sessions.
    private static func joiningRuns(_ reports: [RunReport]) -> [BridgeReport] {
        var pages: [BridgeReport] = []
        var index: [String: Int] = [:]
        for page in reports.flatMap(\.pages) {
            if let existing = index[page.page] {
                pages[existing] = pages[existing].appending(page)
            } else {
                index[page.page] = pages.count
                pages.append(page)
            }
        }
        return pages
    }
}

extension BridgeReport {
    /// This page followed by `later`'s sessions of the same page (numbered on from this one's count).
    func appending(_ later: BridgeReport) -> BridgeReport {
        var tally = self
        tally.kept += later.kept.map { Kept(session: $0.session + sessionCount, report: $0.report) }
        tally.sessionCount += later.sessionCount
        tally.failedCount += later.failedCount
        tally.failedCategories += later.failedCategories.filter { !failedCategories.contains($0) }
        tally.failedCases += later.failedCases
        tally.skippedCases += later.skippedCases
        tally.totalSeconds += later.totalSeconds
        return tally
    }
}
