// Glibc's names for sigaction's handler fields; the relay itself is the same on every platform.
#if os(Linux)
import Foundation
import XCTest

@testable import XcodeRunner

/// The relay a streamed run installs lives in the same process as whatever else the process runs (in the tests,
/// the engine and its SIGUSR1 guard): what it replaces must come back exactly.
final class SignalRelayTests: XCTestCase {
    func testTheHandlersBeforeARunComeBackWithTheirFlags() {
        // A handler that takes the signal's details, as the engine's SIGUSR1 guard does.
        var detailed = sigaction()
        detailed.__sigaction_handler.sa_sigaction = { _, _, _ in }
        detailed.sa_flags = SA_SIGINFO | SA_RESTART
        sigemptyset(&detailed.sa_mask)
        var before = sigaction()
        XCTAssertEqual(sigaction(SIGUSR2, &detailed, &before), 0)
        defer { sigaction(SIGUSR2, &before, nil) }

        let restore = SignalRelay.install(wakeFD: -1)
        restore()

        var after = sigaction()
        XCTAssertEqual(sigaction(SIGUSR2, nil, &after), 0)
        XCTAssertEqual(after.sa_flags & SA_SIGINFO, SA_SIGINFO, "the handler came back without SA_SIGINFO")
        XCTAssertEqual(after.sa_flags & SA_RESTART, SA_RESTART, "the handler came back without SA_RESTART")
        XCTAssertEqual(
            unsafeBitCast(after.__sigaction_handler.sa_sigaction, to: UnsafeRawPointer?.self),
            unsafeBitCast(detailed.__sigaction_handler.sa_sigaction, to: UnsafeRawPointer?.self))
    }
}
#endif
