import BridgeContract
import BridgeTesting
import Foundation

/// Prints the check's progress and verdict in the chosen format.
struct CheckReporter {
    let format: CheckOptions.Format
    let pageName: String
    let configuration: CheckConfiguration

    func begin() {
        guard format == .text else { return }
        let contract = configuration.contract
        print(
            "webbridge check: \(pageName), contract '\(contract.handler)' v\(contract.version), timeout \(BridgeCheck.seconds(configuration.timeout))"
        )
    }

    func session(_ index: Int, _ report: SessionReport, verbose: Bool) {
        guard format == .text, verbose else { return }
        print(ReportRendering.text(session: index, report))
    }

    func end(_ reports: [SessionReport]) {
        switch format {
        case .text: print(ReportRendering.summary(reports))
        case .json: print(ReportRendering.json(reports))
        case .junit: print(ReportRendering.junit(reports))
        }
    }
}
