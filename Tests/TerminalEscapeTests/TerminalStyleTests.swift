import Testing

@testable import TerminalEscape

/// The sequences WebBridge writes on purpose: verdict colours and the progress line's erasure.
@Suite("TerminalStyle")
struct TerminalStyleTests {
    @Test("colour on a terminal; none with NO_COLOR set (not empty), TERM=dumb, or off a terminal")
    func colourRule() {
        #expect(TerminalStyle.usesColour(isTerminal: true, environment: ["TERM": "xterm"]))
        #expect(TerminalStyle.usesColour(isTerminal: true, environment: ["NO_COLOR": ""]))
        #expect(!TerminalStyle.usesColour(isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(!TerminalStyle.usesColour(isTerminal: true, environment: ["TERM": "dumb"]))
        #expect(!TerminalStyle.usesColour(isTerminal: false, environment: [:]))
    }

    @Test("FORCE_COLOR colours a pipe (not when empty, 0 or false); --color always and never decide")
    func forcedColour() {
        #expect(TerminalStyle.usesColour(isTerminal: false, environment: ["FORCE_COLOR": "1"]))
        #expect(TerminalStyle.usesColour(isTerminal: false, environment: ["FORCE_COLOR": "true"]))
        for off in ["", "0", "false"] {
            #expect(!TerminalStyle.usesColour(isTerminal: false, environment: ["FORCE_COLOR": off]))
        }
        #expect(TerminalStyle.usesColour(isTerminal: false, environment: [:], choice: "always"))
        #expect(TerminalStyle.usesColour(isTerminal: true, environment: ["NO_COLOR": "1"], choice: "always"))
        #expect(!TerminalStyle.usesColour(isTerminal: true, environment: ["FORCE_COLOR": "1"], choice: "never"))
        #expect(TerminalStyle.usesColour(isTerminal: true, environment: [:], choice: "auto"))
    }

    @Test("verdict words at a line's start and in a direction's column are coloured; nothing else is")
    func verdicts() {
        let report = """
            session 1
                 0.0 ms  load started
                 1.0 ms  message rejected  FAIL PASS in a note
              load           FAIL     page load did not finish
              page → native  PASS     ready {kind: String}
              native → page  NOT RUN  the page did not load
              also seen: FAIL
            PASSED: not a verdict
            FAIL: page load did not finish (1 of 1 session failed)
            INTERRUPTED: interrupted by SIGINT
            """
        let green = { TerminalStyle.coloured($0, .green) }
        let red = { TerminalStyle.coloured($0, .red) }
        let yellow = { TerminalStyle.coloured($0, .yellow) }
        #expect(
            TerminalStyle.colouringVerdicts(report) == """
                session 1
                     0.0 ms  load started
                     1.0 ms  message rejected  FAIL PASS in a note
                  load           \(red("FAIL"))     page load did not finish
                  page → native  \(green("PASS"))     ready {kind: String}
                  native → page  \(yellow("NOT RUN"))  the page did not load
                  also seen: FAIL
                PASSED: not a verdict
                \(red("FAIL")): page load did not finish (1 of 1 session failed)
                \(yellow("INTERRUPTED")): interrupted by SIGINT
                """)
    }

    @Test("a coloured word resets the colour after it")
    func reset() {
        #expect(TerminalStyle.coloured("PASS", .green) == "\u{1B}[32mPASS\u{1B}[0m")
        #expect(TerminalStyle.eraseLine == "\r\u{1B}[K")
    }
}
