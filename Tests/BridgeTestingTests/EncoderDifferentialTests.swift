import BridgeContract
import BridgeTestData
import BridgeTesting
import Foundation
import SeededRandom
import XCTest

/// The fast encoder (`JSONWriter`) against `JSONSerialization`, over 100,000 generated bodies: in the real
/// engine, each receiver call's argument evaluates to the same JavaScript value either way.
@MainActor
final class EncoderDifferentialTests: XCTestCase {
    let timeout: TimeInterval = 30
    static let bodies = 100_000
    static let batch = 1_000

    /// What the Swift side found over all bodies; the engine's verdict comes separately.
    struct SwiftSide {
        var encoded = 0
        var refusedAlike = 0
        var byteIdentical = 0
    }

    func testWriterTextEvaluatesToTheSameValueAsJSONSerializationInTheEngine() async throws {
        let session = BridgeSession()
        defer { session.tearDown() }
        session.loadHTMLString("<!doctype html><title>encoder differential</title>")
        let loaded = await session.wait(timeout: timeout) { session.loadResult != nil }
        XCTAssertTrue(loaded, "the differential page did not finish loading within \(timeout) s")
        let comparer = await session.evaluate(Self.comparer, timeout: timeout)
        guard case .value = comparer else {
            return XCTFail("the comparison function could not be defined: \(comparer)")
        }

        var generator = BodyGenerator(seed: 0x5EED_2026_1130)
        var swiftSide = SwiftSide()
        var comparedInEngine = 0
        // The engine evaluates one batch while the next is generated and encoded.
        var pending: (index: Int, count: Int, verdict: Task<Result<String, EngineFailure>, Never>)?
        func collect() async {
            guard let (batchIndex, count, task) = pending else { return }
            pending = nil
            switch await task.value {
            case .failure(let failure):
                XCTFail("batch \(batchIndex): the engine did not evaluate the calls: \(failure.text)")
            case .success(let verdict):
                XCTAssertEqual(
                    verdict, "same \(count)",
                    "batch \(batchIndex): the engine's values differ (indices within the batch's encodable bodies)")
                if verdict == "same \(count)" { comparedInEngine += count }
            }
        }
        for batchIndex in 0..<(Self.bodies / Self.batch) {
            var writerCalls: [String] = []
            var serializationCalls: [String] = []
            for _ in 0..<Self.batch {
                let body = generator.body()
                let writer = Result { () throws(ContractError) in
                    try ReceiverCall(receiver: "__a.push", json: body.message, encoder: .jsonWriter)
                }
                let serialization = Result { () throws(ContractError) in
                    try ReceiverCall(receiver: "__b.push", json: body.message, encoder: .jsonSerialization)
                }
                switch (writer, serialization) {
                case (.success(let fast), .success(let reference)):
                    compareText(fast.argument, reference.argument, plainKeys: body.plainKeys, into: &swiftSide)
                    writerCalls.append(fast.script)
                    serializationCalls.append(reference.script)
                case (.failure(let fast), .failure(let reference)):
                    XCTAssertEqual(fast, reference, "the two encoders refused a body differently")
                    swiftSide.refusedAlike += 1
                case (.success, .failure(let reference)):
                    return XCTFail("the writer accepted a body JSONSerialization refused: \(reference)")
                case (.failure(let fast), .success):
                    return XCTFail("the writer refused a body JSONSerialization encodes: \(fast)")
                }
            }
            let script =
                "var __a = [], __b = [];\n" + writerCalls.joined(separator: ";\n") + ";\n"
                + serializationCalls.joined(separator: ";\n") + ";\n__compare(__a, __b)"
            await collect()
            let timeout = timeout
            let verdict = Task { () -> Result<String, EngineFailure> in
                let outcome = await session.evaluate(script, timeout: timeout)
                guard case .value(let value) = outcome, let verdict = value as? String else {
                    return .failure(EngineFailure(text: describe(outcome)))
                }
                return .success(verdict)
            }
            pending = (batchIndex, writerCalls.count, verdict)
        }
        await collect()
        XCTAssertEqual(comparedInEngine + swiftSide.refusedAlike, Self.bodies)
        // The generator must reach both paths and both comparisons in earnest.
        XCTAssertGreaterThan(comparedInEngine, 95_000)
        XCTAssertGreaterThan(swiftSide.refusedAlike, 1_000)
        XCTAssertGreaterThan(swiftSide.byteIdentical, 30_000)
    }

    /// Same bytes in a different key order only: equal length and byte counts always, equal text when every
    /// key sorts the same way under both orders (lowercase ASCII letters only).
    func compareText(_ fast: String, _ reference: String, plainKeys: Bool, into side: inout SwiftSide) {
        side.encoded += 1
        if plainKeys {
            XCTAssertEqual(fast, reference, "plain keys, yet the texts differ")
            if fast == reference { side.byteIdentical += 1 }
            return
        }
        guard fast.utf8.count == reference.utf8.count else {
            return XCTFail("the texts differ in length: \(fast.utf8.count) against \(reference.utf8.count) bytes")
        }
        var counts = [Int](repeating: 0, count: 256)
        for byte in fast.utf8 { counts[Int(byte)] += 1 }
        for byte in reference.utf8 { counts[Int(byte)] -= 1 }
        XCTAssertTrue(counts.allSatisfy { $0 == 0 }, "the texts differ in more than key order")
    }

    struct EngineFailure: Error {
        let text: String
    }

    func describe(_ outcome: EvaluationOutcome) -> String {
        switch outcome {
        case .value(let value): "a value of structure \(messageStructure(value))"
        case .error(let error): javaScriptErrorText(error)
        case .timedOut: "no completion within \(timeout) s"
        }
    }

    /// Deep equality that tells -0 from 0, compares key sets and prototypes (an object literal's
    /// `"__proto__"` key sets the prototype), and names the first differing bodies.
    static let comparer = """
        window.__compare = function (a, b) {
          function same(x, y) {
            if (typeof x !== typeof y) return false;
            if (typeof x === "number") return Object.is(x, y);
            if (x === null || y === null || typeof x !== "object") return x === y;
            if (Array.isArray(x) !== Array.isArray(y)) return false;
            const px = Object.getPrototypeOf(x), py = Object.getPrototypeOf(y);
            if ((px === Object.prototype || py === Object.prototype || px === Array.prototype
                 || py === Array.prototype || px === null || py === null) ? px !== py : !same(px, py)) return false;
            const kx = Object.getOwnPropertyNames(x).sort(), ky = Object.getOwnPropertyNames(y).sort();
            if (kx.length !== ky.length) return false;
            for (let i = 0; i < kx.length; i++) if (kx[i] !== ky[i]) return false;
            for (const k of kx) if (!same(x[k], y[k])) return false;
            return true;
          }
          if (a.length !== b.length) return "count " + a.length + " against " + b.length;
          const differing = [];
          for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) differing.push(i);
          return differing.length ? "differ at " + differing.slice(0, 10).join(",") : "same " + a.length;
        };
        "defined"
        """
}

/// Deterministic message bodies for the differential test: hostile strings and keys, numbers at the edges,
/// deep nesting, and now and then one value JSON can't carry.
struct BodyGenerator {
    struct Body {
        var message: [String: any Sendable]
        /// Every key is lowercase ASCII letters, so both encoders' key orders agree.
        var plainKeys: Bool
    }

    private var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func next() -> UInt64 { random.next() }
    mutating func below(_ bound: Int) -> Int { random.next(below: bound) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    static let atoms: [String] =
        [
            "", "a", "ok", "\"", "\\", "/", "</script>", "<\\/script>", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{0}",
            "\u{7F}", "\u{85}", "\u{A0}", "é", "e\u{301}", "😀", "🇫🇷", "\u{FFFD}", "\u{FFFF}", "\u{10FFFF}", "${x}",
            "'", "`", "<!--", "-->", "\\u2028", "\\ud800", "\r\n", "\u{E2}", "\u{EF}\u{BB}", "\u{2027}", "\u{202A}",
            "__proto__", "constructor", "toString", "0", "-0", "1e3", "NaN", "null", "true",
        ] + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        + HostileStrings.corpus.filter { $0.utf8.count <= 256 }

    static let plainKeyNames = ["kind", "value", "id", "items", "nested", "flag", "count", "name", "data", "x"]

    static let edgeNumbers: [Double] = [
        0, -0.0, 1, -1, 0.1, 0.5, 1e308, -1e308, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        .leastNormalMagnitude, 9_007_199_254_740_991, 9_007_199_254_740_992,
        // 2^53 + 1 is no double: it rounds, at run time, as a page's number would.
        Double(9_007_199_254_740_993 as Int), Double(-9_007_199_254_740_993 as Int),
        Double(Int.max), Double(Int.min), .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        1e15, 999_999_999_999_999, 1e16, 1e21, 1e-6, 1e-7, 1.2345678901234568e20, 0.30000000000000004,
    ]

    /// A string: atoms glued together, random scalars, or text that held a lone surrogate (U+FFFD in Swift).
    mutating func string() -> String {
        switch below(10) {
        case 0:
            // UTF-16 with a lone surrogate, through Foundation's decoding as a page's text would come.
            var units: [UInt16] = [0x61, UInt16(0xD800 + below(0x800)), 0x62]
            if chance(50) { units.swapAt(0, 1) }
            return String(utf16CodeUnits: units, count: units.count)
        case 1:
            var scalars = String.UnicodeScalarView()
            for _ in 0..<below(12) {
                let value = UInt32(chance(70) ? below(0x3000) : below(0x110000))
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
            }
            return String(scalars)
        default:
            return (0..<below(5)).map { _ in pick(Self.atoms) }.joined()
        }
    }

    mutating func number() -> any Sendable {
        switch below(8) {
        case 0: return pick([Int.max, Int.min, 0, -1, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1])
        case 1: return Int(truncatingIfNeeded: next()) >> below(64)
        case 2:
            let random = Double(bitPattern: next())
            return random.isFinite ? random : 0.25
        case 3:
            let random = Float(bitPattern: UInt32(truncatingIfNeeded: next()))
            return random.isFinite ? random : Float.leastNonzeroMagnitude
        case 4: return Double(below(2_000_000)) / 1_000 - 1_000
        default: return pick(Self.edgeNumbers)
        }
    }

    mutating func value(depth: Int, plainKeys: Bool) -> any Sendable {
        let containers = depth < 6 ? 20 : 0
        let roll = below(100)
        if roll < containers / 2 { return (0..<below(5)).map { _ in value(depth: depth + 1, plainKeys: plainKeys) } }
        if roll < containers { return object(depth: depth + 1, plainKeys: plainKeys) }
        switch below(10) {
        case 0, 1, 2, 3: return string()
        case 4, 5, 6: return number()
        case 7: return chance(50)
        case 8: return NSNull()
        default: return pick(Self.edgeNumbers)
        }
    }

    mutating func key(plain: Bool) -> String { plain ? pick(Self.plainKeyNames) : string() }

    mutating func object(depth: Int, plainKeys: Bool) -> [String: any Sendable] {
        var fields: [String: any Sendable] = [:]
        for _ in 0..<below(5) { fields[key(plain: plainKeys)] = value(depth: depth, plainKeys: plainKeys) }
        return fields
    }

    /// Nesting `levels` deep: alternately arrays and objects around a string.
    mutating func chain(_ levels: Int, plainKeys: Bool) -> any Sendable {
        var inner: any Sendable = string()
        for level in 0..<levels {
            inner =
                level % 2 == 0 ? [inner] as [any Sendable] : [key(plain: plainKeys): inner] as [String: any Sendable]
        }
        return inner
    }

    /// One value JSON can't carry: NaN, ±Infinity, a date, a Swift struct, or nesting past the limit.
    mutating func unencodable() -> any Sendable {
        switch below(6) {
        case 0: return Double.nan
        case 1: return Double.infinity
        case 2: return -Double.infinity
        case 3: return Date(timeIntervalSince1970: 0)
        case 4: return BodyGenerator.NotJSON()
        default: return chain(70, plainKeys: true)
        }
    }

    struct NotJSON: Sendable {}

    mutating func body() -> Body {
        let plainKeys = chance(50)
        var message = object(depth: 0, plainKeys: plainKeys)
        if chance(2) { message[key(plain: plainKeys)] = chain(20 + below(40), plainKeys: plainKeys) }
        if chance(2) {
            // Exactly one unencodable value, so both encoders must name the same path.
            var holder: [String: any Sendable] = ["inner": unencodable()]
            if chance(50) { holder = ["list": [1, "two", holder] as [any Sendable]] }
            message["zz"] = holder
        }
        return Body(message: message, plainKeys: plainKeys)
    }
}
