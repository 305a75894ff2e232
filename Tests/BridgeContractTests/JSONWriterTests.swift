import BridgeContract
import BridgeTestData
import Foundation
import Testing

/// The receiver call's argument with each encoder, for bodies whose keys sort alike under both orders.
private func arguments(_ json: [String: any Sendable]) throws -> (writer: String, serialization: String) {
    (
        try ReceiverCall(receiver: "window.bridgeReceive", json: json, encoder: .jsonWriter).argument,
        try ReceiverCall(receiver: "window.bridgeReceive", json: json, encoder: .jsonSerialization).argument
    )
}

@Suite("JSON writer of the receiver call")
struct JSONWriterTests {
    static let edgeNumbers: [Double] = [
        0, -0.0, 1, -1, 0.1, 1e308, .leastNonzeroMagnitude, .leastNormalMagnitude, 9_007_199_254_740_991,
        9_007_199_254_740_992, Double(Int.max), Double(Int.min), .greatestFiniteMagnitude, 1e15, 1e16, 1e21,
        1e-7, 123.456, -2.5e-300,
    ]

    @Test("numbers at the edges are written as JSONSerialization writes them", arguments: edgeNumbers)
    func edgeNumber(_ number: Double) throws {
        let (writer, serialization) = try arguments(["value": number])
        #expect(writer == serialization)
        let decoded = try JSONSerialization.jsonObject(with: Data(writer.utf8)) as? [String: Any]
        #expect((decoded?["value"] as? NSNumber)?.doubleValue == number)
    }

    @Test("-0 keeps its sign")
    func negativeZero() throws {
        #expect(try arguments(["value": -0.0]).writer == #"{"value":-0}"#)
    }

    @Test("integers of every width are numbers, Int.max rounded to a double as a JavaScript number is")
    func integers() throws {
        let (writer, serialization) = try arguments(["a": Int.max, "b": Int.min, "c": UInt8(7), "d": Int32(-3)])
        #expect(writer == serialization)
        // A message's numbers are doubles, as the page will read them.
        #expect(writer == #"{"a":9.223372036854776e+18,"b":-9.223372036854776e+18,"c":7,"d":-3}"#)
    }

    @Test("quotes, backslashes, slashes and every control character are escaped as JSONSerialization does")
    func escapes() throws {
        let text = "\"\\/</script>" + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined() + "\u{7F}é😀"
        let (writer, serialization) = try arguments(["value": text])
        #expect(writer == serialization)
        #expect(!writer.contains("</script>"))
        #expect(!writer.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test("U+2028, U+2029 and U+FEFF are escaped, even followed by a combining mark")
    func lineTerminators() throws {
        // A combining mark joins the separator into one Character: a character-wise replace missed it.
        let text = "a\u{2028}\u{301}b\u{2029}\u{F35}c\u{FEFF}\u{301}"
        let (writer, serialization) = try arguments(["value": text])
        let combined = "\u{301}b\\u2029\u{F35}c\\ufeff\u{301}"
        #expect(writer == #"{"value":"a\u2028"# + combined + "\"}")
        #expect(writer == serialization)
        for scalar: Unicode.Scalar in ["\u{2028}", "\u{2029}", "\u{FEFF}"] {
            #expect(!writer.unicodeScalars.contains(scalar))
            #expect(!serialization.unicodeScalars.contains(scalar))
        }
    }

    @Test("keys come in Swift's string order (code points for ASCII), where JSONSerialization's order is locale-aware")
    func keyOrder() throws {
        let (writer, serialization) = try arguments(["b": 1, "B": 2, "a10": 3, "a9": 4])
        #expect(writer == #"{"B":2,"a10":3,"a9":4,"b":1}"#)
        // Same members in another order: the differential tests prove JavaScript builds the same object.
        #expect(serialization != writer)
        #expect(serialization.utf8.count == writer.utf8.count)
        let parsed = try JSONSerialization.jsonObject(with: Data(serialization.utf8)) as? [String: Int]
        #expect(parsed == ["b": 1, "B": 2, "a10": 3, "a9": 4])
    }

    @Test("nested containers and empty ones")
    func nesting() throws {
        let body: [String: any Sendable] = [
            "list": [1, "two", [any Sendable](), [String: any Sendable](), NSNull(), true] as [any Sendable],
            "nested": ["deeper": ["x": false] as [String: any Sendable]] as [String: any Sendable],
        ]
        let (writer, serialization) = try arguments(body)
        #expect(writer == serialization)
        #expect(writer == #"{"list":[1,"two",[],{},null,true],"nested":{"deeper":{"x":false}}}"#)
    }

    static let unencodable: [(String, [String: any Sendable], ContractError)] = [
        (
            "NaN", ["value": Double.nan],
            ContractError.notEncodable(path: "value", found: "Number (not finite)")
        ),
        (
            "Infinity in a list", ["items": [1.0, -Double.infinity]],
            ContractError.notEncodable(path: "items[1]", found: "Number (not finite)")
        ),
        ("a Date", ["when": ["at": Date()]], ContractError.notEncodable(path: "when.at", found: "Date")),
        (
            "nesting past 64 levels",
            ["deep": (0..<70).reduce("x" as any Sendable) { inner, _ in [inner] as [any Sendable] }],
            ContractError.notEncodable(
                path: "deep" + String(repeating: "[0]", count: 63), found: "nesting deeper than 64 levels")
        ),
    ]

    @Test("what JSON can't carry is refused by both encoders alike, naming the path", arguments: unencodable.indices)
    func refusedAlike(_ index: Int) {
        let (_, body, expected) = Self.unencodable[index]
        for encoder in [ReceiverCall.Encoder.jsonWriter, .jsonSerialization] {
            #expect(throws: expected) {
                try ReceiverCall(receiver: "window.bridgeReceive", json: body, encoder: encoder)
            }
        }
    }

    @Test("the contract is checked before either encoder runs")
    func contractFirst() {
        for encoder in [ReceiverCall.Encoder.jsonWriter, .jsonSerialization] {
            #expect(throws: ContractError.self) {
                try ReceiverCall(message: ["kind": "sync", "value": 42], encoder: encoder)
            }
        }
    }

    @Test("every hostile string of the corpus gives the same text either way")
    func hostileCorpus() throws {
        for text in HostileStrings.corpus {
            let (writer, serialization) = try arguments(["value": text])
            #expect(writer == serialization, "corpus string of \(text.utf8.count) bytes")
        }
    }
}
