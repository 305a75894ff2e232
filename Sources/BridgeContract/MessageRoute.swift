/// The way a message travels, its defaults resolved: what its receiver tells candidates apart by.
///
/// A page → native body is matched only among the messages of its route: the handler it was posted to and its
/// transport. A native → page body is matched among every native → page message, whichever page function each
/// calls, so their route is the direction alone.
package enum MessageRoute: Sendable, Hashable, CustomStringConvertible {
    /// Posted by the page to `handler` through `transport`.
    case pageToNative(handler: String, transport: MessageSpec.Transport)
    /// Sent by native to the page (to the contract's receiver or to the message's own `call`).
    case nativeToPage

    /// The route of a body arriving in `direction` on `handler` through `transport`; for native → page, the
    /// handler and the transport don't count.
    public init(_ direction: Direction, handler: String, transport: MessageSpec.Transport) {
        switch direction {
        case .pageToNative: self = .pageToNative(handler: handler, transport: transport)
        case .nativeToPage: self = .nativeToPage
        }
    }

    public var direction: Direction {
        switch self {
        case .pageToNative: .pageToNative
        case .nativeToPage: .nativeToPage
        }
    }

    /// The handler the page posts to with `postMessage`, which the native side registers; nil for the prompt
    /// channel (answered through `WKUIDelegate`) and for native → page.
    public var registeredHandler: String? {
        if case .pageToNative(let handler, .postMessage) = self { return handler }
        return nil
    }

    /// `page → native on handler "bridge" via postMessage`, `native → page`.
    public var description: String {
        switch self {
        case .pageToNative(let handler, let transport):
            "page → native on handler \(JSONValue.string(handler)) via \(transport.rawValue)"
        case .nativeToPage: "native → page"
        }
    }
}
