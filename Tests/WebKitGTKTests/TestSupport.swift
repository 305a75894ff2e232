#if os(Linux)
import Foundation
import Glibc
import XCTest
@testable import WebKitGTK

/// Records navigation events in order and fulfils expectations for them.
@MainActor
final class NavigationRecorder: WKNavigationDelegate {
    var events: [String] = []
    var finished: XCTestExpectation?
    var failedProvisionally: XCTestExpectation?
    var failed: XCTestExpectation?
    var terminated: XCTestExpectation?
    var provisionalError: (any Error)?
    var committedError: (any Error)?
    var response: WKNavigationResponse?
    var responsePolicy: WKNavigationResponsePolicy = .allow
    var onFinish: (() -> Void)?
    var navigations: [ObjectIdentifier] = []

    func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) {
        events.append("start")
        navigations.append(ObjectIdentifier(navigation))
    }
    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!) { events.append("commit") }
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        events.append("finish")
        navigations.append(ObjectIdentifier(navigation))
        onFinish?()
        finished?.fulfill()
    }
    func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error) {
        events.append("fail")
        committedError = error
        failed?.fulfill()
    }
    func webView(
        _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error
    ) {
        events.append("failProvisional")
        provisionalError = error
        failedProvisionally?.fulfill()
    }
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
        events.append("terminated")
        terminated?.fulfill()
    }
    func webView(
        _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void
    ) {
        response = navigationResponse
        decisionHandler(responsePolicy)
    }
}

/// Collects the messages posted to one handler, fulfilling an expectation per message or at a count.
@MainActor
final class MessageCollector: WKScriptMessageHandler {
    var bodies: [Any] = []
    var names: [String] = []
    var mainFrame: [Bool] = []
    var received: XCTestExpectation?
    var expectedCount = 1
    var onMessage: ((WKScriptMessage) -> Void)?
    var events: [String] = []
    weak var recorder: NavigationRecorder?
    static var live = 0

    init() { Self.live += 1 }
    isolated deinit { Self.live -= 1 }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        bodies.append(message.body)
        names.append(message.name)
        mainFrame.append(message.frameInfo.isMainFrame)
        recorder?.events.append("message")
        onMessage?(message)
        if bodies.count == expectedCount { received?.fulfill() }
    }
}

/// Replies to each message with a value computed from its body.
@MainActor
final class Replier: WKScriptMessageHandlerWithReply {
    var reply: (Any) -> (Any?, String?) = { ($0, nil) }
    var ignoresMessages = false
    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) {
        if ignoresMessages { return }
        let (value, error) = reply(message.body)
        replyHandler(value, error)
    }
}

/// Replies through the `async` form of the protocol.
@MainActor
final class AsyncReplier: WKScriptMessageHandlerWithReply {
    func userContentController(
        _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
    ) async -> (Any?, String?) {
        await Task.yield()
        return ((message.body as? String).map { "async " + $0 }, nil)
    }
}

/// One web view with its own controller, a collector named "bridge" and a navigation recorder.
@MainActor
final class Session {
    let controller = WKUserContentController()
    let collector = MessageCollector()
    let recorder = NavigationRecorder()
    let webView: WKWebView

    init(handlerName: String? = "bridge") {
        if let handlerName { controller.add(collector, name: handlerName) }
        let configuration = WKWebViewConfiguration()
        configuration.userContentController = controller
        webView = WKWebView(frame: .zero, configuration: configuration)
        webView.navigationDelegate = recorder
        collector.recorder = recorder
    }

    /// Loads `html` and waits for didFinish.
    func load(_ html: String, in test: XCTestCase, timeout: TimeInterval = 10) async {
        let finished = test.expectation(description: "didFinish for the inline page")
        recorder.finished = finished
        webView.loadHTMLString(html, baseURL: nil)
        await test.fulfillment(of: [finished], timeout: timeout)
        recorder.finished = nil
    }

    func tearDown() {
        controller.removeScriptMessageHandler(forName: "bridge")
        webView.navigationDelegate = nil
    }
}

/// Process helpers for tests: free ports, the web processes we started, CPU time used.
enum ProcessProbe {
    /// A TCP port on 127.0.0.1 that nothing listens on (bound, then closed).
    static func closedPort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Process ids of WebKit web processes descending from this process.
    static func webProcesses() -> [pid_t] {
        var parent: [pid_t: pid_t] = [:]
        var name: [pid_t: String] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            name[pid] = String(stat[stat.index(after: open)..<close])
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            if fields.count > 1, let ppid = pid_t(fields[1]) { parent[pid] = ppid }
        }
        let me = getpid()
        return name.compactMap { pid, comm in
            guard comm.hasPrefix("WebKitWebProces") else { return nil }
            var current = parent[pid]
            while let p = current, p > 1 { if p == me { return pid }; current = parent[p] }
            return nil
        }
    }

    /// CPU seconds (user + system) this process has used.
    static func cpuSeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// A one-shot HTTP server on 127.0.0.1 answering every request with a fixed status and body.
final class TinyHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32

    init(status: Int, reason: String, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listen(fd, 8)
        let response =
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/html\r\nContent-Length: \(body.utf8.count)\r\nX-Probe: yes\r\nConnection: close\r\n\r\n\(body)"
        let listener = fd
        Thread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = read(client, &buffer, buffer.count)
                _ = response.withCString { write(client, $0, strlen($0)) }
                close(client)
            }
        }.start()
    }

    deinit { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
}
#endif
