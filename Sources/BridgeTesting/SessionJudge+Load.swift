import BridgeContract
import Foundation

extension SessionJudge {
    /// The load's verdict; for a real page, a fetch that failed or answered >= 400 is kept apart from a broken page.
    ///
    /// Only the main document's status and the transport error count as "not deployed": once the deployment
    /// answered below 400, a load that never finishes (a subresource that never arrives) is the page's own
    /// failure, reported as "page load did not finish" like any fixture that never finishes.
    static func load(_ record: SessionRecord) -> DirectionVerdict {
        let load = record.load
        let didNotFinish = CheckClock.missed("webView(_:didFinish:) did not come", within: record.timeout)
        guard let url = record.url else {
            switch load.outcome {
            case .finished?: return .pass("didFinish")
            case .failed(let failure)?: return .fail(BridgeFailure(.pageLoadDidNotFinish, failure.detail))
            case nil where record.processTerminated:
                return .fail(BridgeFailure(.pageLoadDidNotFinish, BridgeSession.terminatedDetail + " during the load"))
            case nil: return .fail(BridgeFailure(.pageLoadDidNotFinish, didNotFinish))
            }
        }
        let host = LoadError.host(of: url)
        if let status = load.httpStatusCode, status >= 400 {
            return .fail(BridgeFailure(.pageUnreachable, "HTTP \(status) from \(host)"))
        }
        switch load.outcome {
        case .finished?:
            if let status = load.httpStatusCode {
                return .pass("HTTP \(status) from \(host)" + BridgeSession.notHTML(load.mimeType))
            }
            guard LoadError.isHTTP(url) else { return .pass("didFinish") }
            // WebKitGTK finishes a load to a port it refuses (1, 25, 6000…) without a response or an error.
            return .fail(
                BridgeFailure(
                    .pageUnreachable,
                    "no HTTP response from \(host): the engine finished the load without fetching it (WebKit refuses some ports, e.g. 1, 25, 6000)"
                ))
        case .failed(let failure)? where failure.cause == .timeout:
            // The engine's request timer ends with the load step: the same verdict as the harness's own deadline.
            return timedOutLoad(record, host: host)
        case .failed(let failure)?:
            if let failure = load.redirect?.failure { return .fail(failure) }
            if failure.unreachable {
                return .fail(BridgeFailure(.pageUnreachable, "\(failure.detail) for \(host)"))
            }
            // No response at all: the deployment was not fetched, whatever the network error says.
            if load.httpStatusCode == nil, failure.unreachableBeforeAResponse {
                return .fail(
                    BridgeFailure(.pageUnreachable, "\(failure.detail) for \(host), before any HTTP response"))
            }
            return .fail(BridgeFailure(.pageLoadDidNotFinish, "\(failure.detail) for \(host)"))
        case nil where record.processTerminated:
            if let failure = load.redirect?.failure { return .fail(failure) }
            return .fail(BridgeFailure(.pageLoadDidNotFinish, BridgeSession.terminatedDetail + " during the load"))
        case nil:
            return timedOutLoad(record, host: host)
        }
    }

    /// A real page's load that the step's deadline ended: not deployed unless the main document answered.
    private static func timedOutLoad(_ record: SessionRecord, host: String) -> DirectionVerdict {
        guard let status = record.load.httpStatusCode else {
            return .fail(
                BridgeFailure(
                    .pageUnreachable,
                    "\(LoadError.Cause.timeout.rawValue) from \(host): "
                        + CheckClock.missed("no HTTP response came", within: record.timeout)))
        }
        return .fail(
            BridgeFailure(
                .pageLoadDidNotFinish,
                "\(host) answered HTTP \(status), but "
                    + CheckClock.missed("webView(_:didFinish:) did not come", within: record.timeout)
                    + " (a subresource may never have arrived)"))
    }
}

extension SessionRecord.Load {
    /// The load as far as `session` saw it, with the redirect a server answered when WebKit ended the load on one.
    @MainActor
    init(_ session: BridgeSession, redirect: RedirectProbe.Redirect? = nil) {
        switch session.loadResult {
        case .finished?: outcome = .finished
        case .failed(let failure)?:
            let error = session.loadError
            outcome = .failed(
                Failure(
                    detail: failure.detail, cause: error.map(LoadError.cause) ?? .other,
                    unreachable: error.map(LoadError.isUnreachable) ?? false,
                    unreachableBeforeAResponse: error.map(LoadError.isUnreachableBeforeAResponse) ?? false))
        case nil: outcome = nil
        }
        httpStatusCode = session.httpStatusCode
        mimeType = session.responseMIMEType
        self.redirect = redirect
    }
}
