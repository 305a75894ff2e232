import Foundation

/// A string from UTF-16 code units; a lone surrogate can't live in a Swift `String` and becomes U+FFFD.
private func utf16(_ units: [UInt16]) -> String { String(decoding: units, as: UTF16.self) }

/// Strings that break scripts built by concatenation: quotes, escapes, line terminators, markup, sizes.
///
/// The package's tests send each through the encoder and the real engine; use them on your own page too.
package enum HostileStrings {
    /// Every string here must reach the page unchanged through ``ReceiverCall``.
    public static let corpus: [String] = [
        "",
        "ok",
        "\"",
        "'",
        "`",
        "\\",
        "\\\"",
        "\"); alert(1); (\"",
        "'); alert(1); ('",
        "${alert(1)}",
        "\n",
        "\r\n",
        "\t",
        "line\u{2028}separator",
        "paragraph\u{2029}separator",
        "\u{2028}\u{2029}\u{2028}",
        "\\u2028 literally",
        "</script>",
        "</script><script>alert(1)</script>",
        "<!--",
        "]]>",
        "nul\u{0}inside",
        "\u{0}",
        "\u{1}\u{1F}\u{7F}",
        "\u{85}next line",
        "\u{FEFF}bom",
        "\u{200B}zero width",
        "\u{202E}right-to-left override",
        "😀 emoji",
        "👩‍👩‍👧‍👦 family",
        "🏳️‍🌈",
        "e\u{301} combining",
        "日本語",
        "Ω≈ç√∫",
        utf16([0xD800]),  // lone high surrogate
        utf16([0xDC00]),  // lone low surrogate
        utf16([0x61, 0xDFFF, 0xD800, 0x62]),  // reversed pair
        "\u{10FFFF}",
        "window.bridgeReceive(",
        "})//",
        "/* */",
        "-->",
        String(repeating: "\\\"\u{2028}</script>", count: 1000),
        String(repeating: "x", count: 1 << 20),  // 1 MB
    ]
}
