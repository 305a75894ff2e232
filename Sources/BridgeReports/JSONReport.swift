import BridgeTesting
import Foundation

/// A run as the JSON report (schema 1, `Docs/report.schema.json`): `RunReport`'s own encoding, pretty-printed with
/// sorted keys, so equal runs give equal bytes and `webbridge report merge` reads it back.
package enum JSONReport {
    package static func render(_ run: RunReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(run)) ?? Data(), as: UTF8.self)
    }
}
