import BridgeContract
import Foundation

#if canImport(WebKit)
import WebKit
#else
import WebKitGTK
#endif

/// The session's life-cycle fault (``LifecycleFault``), applied with the engine's own API: the controller's
/// handlers removed and added, the app's script evaluated again, native's call evaluated twice, the web process
/// killed and the page loaded again. Each is noted in words when it happens.
extension SessionPerturber {
    /// Before the load: a late handler is not there yet; the page's events are watched for the fault's moment.
    func prepareFault() {
        guard let fault = perturbation.fault else { return }
        if fault.kind == .handlerLate { removeHandlers() }
        let previous = session.onEvent
        session.onEvent = { [weak self] event in
            // The fault acts first: native's answer to the event (queued next) meets the changed bridge.
            self?.faultSaw(event)
            previous?(event)
        }
    }

    private func faultSaw(_ event: BridgeEvent) {
        guard let fault = perturbation.fault else { return }
        switch event {
        case .didFinish where fault.kind == .handlerLate && session.finishedDocuments <= 1:
            clock.schedule(after: fault.milliseconds) { [weak self] in
                guard let self else { return }
                addHandlers()
                note(
                    "\(handlerList) registered after the load started, \(Perturbation.ms(fault.milliseconds)) after didFinish"
                )
            }
        case .message, .acknowledgement:
            guard !sawFirstMessage else { return }
            sawFirstMessage = true
            firstMessage(fault)
        case .webContentProcessTerminated where killedDocument != nil && !reloadDue:
            // The crash this fault caused: native (as an app's webViewWebContentProcessDidTerminate does) loads the
            // page again, and the session goes on.
            session.webContentProcessTerminated = false
            reloadDue = true
        default:
            break
        }
    }

    /// The page's first message reached native: the fault's moment, before native answers it.
    private func firstMessage(_ fault: LifecycleFault) {
        switch fault.kind {
        case .handlerReAdded:
            removeHandlers()
            note("\(handlerList) removed at the page's first message")
            clock.schedule(after: fault.milliseconds) { [weak self] in
                guard let self else { return }
                addHandlers()
                note("\(handlerList) added again \(Perturbation.ms(fault.milliseconds)) after it was removed")
            }
        case .scriptTwice:
            let scripts = appScripts.compactMap(\.source)
            guard let webView = session.webView, !scripts.isEmpty else {
                return note("the bridge's script not injected twice: the check has no user script of the app's")
            }
            note("the bridge's script injected twice: run again at the page's first message")
            // In order before native's answer: the engine runs a view's evaluations in the order they are issued.
            for script in scripts { webView.evaluateJavaScript(script) { _, _ in } }
        case .processKilled:
            guard WebProcessStarvation.kill(session.webView) else {
                return note("the web process not killed: which process runs the page is not known")
            }
            killedDocument = max(1, session.committedDocuments)
            note("the web process killed in the middle of a call, at the page's first message")
        case .handlerLate, .deliveredTwice, .evaluateInNavigation:
            break
        }
    }

    /// Native's call `script` was delivered: the first one is delivered again when the fault says so.
    func delivered(_ name: String, script: String, until deadline: DispatchTime) async {
        guard perturbation.fault?.kind == .deliveredTwice, !deliveredTwice else { return }
        deliveredTwice = true
        note("one message delivered twice: \(name) evaluated again")
        _ = await session.evaluate(script, until: deadline)
    }

    /// Starts loading the page again (`load` issues it) right before native's first call, when the fault says so:
    /// the call is issued while the navigation is under way.
    func navigateBeforeCall(_ name: String, _ load: () -> Void) {
        guard perturbation.fault?.kind == .evaluateInNavigation, !navigatedDuringCall, reloadDocument == nil else {
            return
        }
        navigatedDuringCall = true
        reload(load)
        note("evaluateJavaScript issued during a navigation: \(name) sent as the page loads again")
    }

    /// Whether native's call from `document` went to a document the navigation replaced: its outcome does not
    /// count (the new document must ask again).
    func replacedDuringCall(_ document: Int) -> Bool {
        guard navigatedDuringCall, let reloadDocument, document < reloadDocument else { return false }
        note("native's call went to the document the navigation replaced: the new document must ask again")
        return true
    }

    /// Whether a step triggered in `document` has nowhere to go: the killed web process took its document.
    func lost(_ document: Int) -> Bool {
        guard let killedDocument else { return false }
        return document <= killedDocument
    }

    private var handlerList: String {
        let names = session.contract.postedHandlerNames.map { "'\($0)'" }
        return (names.count == 1 ? "the handler " : "the handlers ") + names.joined(separator: ", ")
    }

    private func removeHandlers() {
        for name in session.contract.postedHandlerNames {
            session.controller.removeScriptMessageHandler(forName: name, contentWorld: .page)
        }
    }

    private func addHandlers() {
        removeHandlers()
        for name in session.contract.postedHandlerNames { session.addHandler(named: name) }
    }
}
