import Foundation

/// A moment in a session, measured from the session's start.
package struct TimelineEntry: Sendable, Equatable, Codable {
    package enum Event: String, Sendable, Codable {
        case loadStarted = "load started"
        case httpResponse = "response"
        case readyReceived = "ready received"
        /// A valid page → native message other than the ready.
        case messageReceived = "message received"
        /// Native answered a page message (a reply handler's reply, a prompt's text).
        case replied = "replied"
        /// Native called a page function other than the fixture's sync.
        case sent = "sent"
        /// The page opened an alert, confirm or prompt dialog.
        case dialog = "dialog"
        case messageRejected = "message rejected"
        /// WebKit could not clone a message the page posted, and dropped it before native code saw it.
        case messageDropped = "message dropped"
        case didFinish = "didFinish"
        case loadFailed = "load failed"
        case syncSent = "sync sent"
        case accepted = "accepted"
        case notAccepted = "not accepted"
        case acknowledged = "acknowledged"
        case processTerminated = "web process terminated"
        /// The page's own uncaught error, unhandled rejection or console message, with its file and line.
        case pageReported = "page reported"
        /// The page committed another document after the one the session loaded.
        case navigated = "page navigated away"
        /// A stressed session changed a timing here (native held, the web process paused, the page loaded again).
        case perturbed = "perturbed"
        /// A receiver native calls (`window.bridgeReceive`) became a function in the page, when a repeated check
        /// watches for it (``ReceiverWatch``).
        case receiverDefined = "receiver defined"
    }

    public let event: Event
    /// Milliseconds since the session started.
    public let milliseconds: Double
    /// Structure or error text, never a message value.
    public let note: String

    public init(event: Event, milliseconds: Double, note: String = "") {
        self.event = event
        self.milliseconds = milliseconds
        self.note = note
    }
}

/// A monotonic clock for timelines; `DispatchTime` is monotonic on every platform.
struct SessionClock: Sendable {
    private let start = DispatchTime.now().uptimeNanoseconds

    var milliseconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000 }
}
