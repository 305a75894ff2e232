import Foundation

extension RunReport.Shard {
    /// The shard (1-based) of each page of a list split into `count` parts by measured time
    /// (`--shard I/N --durations REPORT`): every shard computes the same split from the same list and report.
    ///
    /// Pages with a time go longest first, each to the shard with the least time so far (the lowest shard on a
    /// tie), so the shards' totals differ by at most the longest page. Pages without a time are spread evenly by
    /// number, in list order, each to the shard with the fewest of them so far.
    package static func balanced(count: Int, durations: [Double?]) -> [Int] {
        precondition(count >= 1, "a split has at least one part")
        var shardOf = [Int](repeating: 0, count: durations.count)
        var time = [Double](repeating: 0, count: count)
        let timed = durations.indices.filter { durations[$0] != nil }
            .sorted { (durations[$0]!, $1) > (durations[$1]!, $0) }
        for position in timed {
            let shard = time.indices.min { (time[$0], $0) < (time[$1], $1) }!
            shardOf[position] = shard + 1
            time[shard] += durations[position]!
        }
        var untimed = [Int](repeating: 0, count: count)
        for position in durations.indices where durations[position] == nil {
            let shard = untimed.indices.min { (untimed[$0], $0) < (untimed[$1], $1) }!
            shardOf[position] = shard + 1
            untimed[shard] += 1
        }
        return shardOf
    }
}
