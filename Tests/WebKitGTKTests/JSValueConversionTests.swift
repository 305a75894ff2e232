#if os(Linux)
import Foundation
import XCTest
@testable import WebKitGTK
import WebKitGTKSupport

/// Every row of the body-conversion table, posted by a real page to a real handler.
@MainActor
final class JSValueConversionTests: XCTestCase {
    /// Posts each expression as a top-level body, then a sentinel, and returns the bodies that arrived.
    private func bodies(for expressions: [String]) async -> [Any] {
        let session = Session()
        let done = expectation(description: "the sentinel message arrived after the probes")
        session.collector.onMessage = { message in if (message.body as? String) == "sentinel" { done.fulfill() } }
        let posts = expressions.map {
            "try { window.webkit.messageHandlers.bridge.postMessage(\($0)) } catch (e) { window.webkit.messageHandlers.bridge.postMessage('threw ' + e.name) }"
        }
        await session.load(
            "<script>\(posts.joined(separator: ";\n"));\nwindow.webkit.messageHandlers.bridge.postMessage('sentinel')</script>",
            in: self)
        await fulfillment(of: [done], timeout: 5)
        session.tearDown()
        return Array(session.collector.bodies.dropLast())
    }

    private func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c" && NSStringFromClass(type(of: number)).contains("Boolean")
    }

    func testScalarsConvertAsApplesConverter() async {
        let bodies = await bodies(for: [
            "null", "true", "false", "0", "42", "1.5", "NaN", "-0", "Infinity", "-Infinity", "'text'", "''",
        ])
        XCTAssertEqual(bodies.count, 12)
        guard bodies.count == 12 else { return }
        XCTAssertTrue(bodies[0] is NSNull)
        XCTAssertTrue(isBoolean(bodies[1]), "true must be a boolean NSNumber (objCType c)")
        XCTAssertEqual((bodies[1] as? NSNumber)?.boolValue, true)
        XCTAssertTrue(isBoolean(bodies[2]))
        XCTAssertEqual((bodies[2] as? NSNumber)?.boolValue, false)
        for index in 3...9 {
            let number = bodies[index] as? NSNumber
            XCTAssertEqual(
                number.map { String(cString: $0.objCType) }, "d",
                "numbers are double-backed, integers too (row \(index))")
            XCTAssertFalse(isBoolean(bodies[index]))
        }
        XCTAssertEqual((bodies[3] as? NSNumber)?.doubleValue, 0)
        XCTAssertEqual((bodies[4] as? NSNumber)?.doubleValue, 42)
        XCTAssertEqual((bodies[5] as? NSNumber)?.doubleValue, 1.5)
        XCTAssertTrue((bodies[6] as? NSNumber)?.doubleValue.isNaN ?? false)
        XCTAssertEqual((bodies[7] as? NSNumber)?.doubleValue.sign, .minus)
        XCTAssertEqual((bodies[8] as? NSNumber)?.doubleValue, .infinity)
        XCTAssertEqual((bodies[9] as? NSNumber)?.doubleValue, -.infinity)
        XCTAssertEqual(bodies[10] as? String, "text")
        XCTAssertEqual(bodies[11] as? String, "")
    }

    func testANulInAStringOrAKeyIsKept() async {
        // Apple's NSString keeps a NUL; a C string would end the text, or the key, there.
        let bodies = await bodies(for: [
            "'a\\u0000b'", "({'k\\u0000': 'v\\u0000', n: -0})", "[new Date(0), 'x\\u0000']",
        ])
        XCTAssertEqual(bodies.first as? String, "a\u{0}b")
        let object = bodies.count > 1 ? bodies[1] as? [String: Any] : nil
        XCTAssertEqual(object?["k\u{0}"] as? String, "v\u{0}", "through the walk (-0 sends it there)")
        XCTAssertEqual(((bodies.last as? [Any])?.last) as? String, "x\u{0}")
    }

    func testABodyIsTheValueItselfNotAnOptional() async {
        let bodies = await bodies(for: ["{kind: 'ready', version: 1}", "'text'", "[1]", "null"])
        XCTAssertEqual(bodies.count, 4)
        for body in bodies {
            XCTAssertNotEqual(
                Mirror(reflecting: body).displayStyle, .optional, "a \(type(of: body)) body, boxed as Apple's never is")
        }
        guard let object = bodies.first else { return }
        XCTAssertTrue(type(of: object) == [String: Any].self, "got \(type(of: object))")
    }

    func testUndefinedAndBigIntArriveAsNil() async {
        let bodies = await bodies(for: ["undefined", "10n"])
        XCTAssertEqual(bodies.count, 2)
        for body in bodies {
            XCTAssertTrue(
                Mirror(reflecting: body).displayStyle == .optional && "\(body)" == "nil",
                "expected a boxed nil, got \(type(of: body))")
        }
    }

    func testDateBecomesDate() async {
        let bodies = await bodies(for: ["new Date(1500)", "new Date(NaN)"])
        XCTAssertEqual((bodies.first as? Date)?.timeIntervalSince1970, 1.5)
        XCTAssertTrue(
            (bodies.last as? Date)?.timeIntervalSince1970.isNaN ?? false, "an invalid Date stays a Date (NaN time)")
    }

    func testArraysDropUndefinedElementsAndHoles() async {
        let bodies = await bodies(for: ["[1, undefined, , 'x', null, [true]]"])
        let array = bodies.first as? [Any]
        XCTAssertEqual(array?.count, 4)
        XCTAssertEqual((array?[0] as? NSNumber)?.doubleValue, 1)
        XCTAssertEqual(array?[1] as? String, "x")
        XCTAssertTrue(array?[2] is NSNull)
        XCTAssertTrue(isBoolean((array?[3] as? [Any])?.first as Any))
    }

    func testObjectsBecomeDictionariesOfEnumerableKeysWithoutUndefined() async {
        let bodies = await bodies(for: [
            "({a: 1, b: undefined, c: null, nested: {d: 'e'}})",
            "new (class K { constructor() { this.v = 1 } get g() { return 2 } })()",
            "Object.defineProperty({shown: 1}, 'hidden', {value: 2, enumerable: false})",
        ])
        let plain = bodies.first as? [String: Any]
        XCTAssertEqual(plain?.keys.sorted(), ["a", "c", "nested"])
        XCTAssertEqual((plain?["nested"] as? [String: Any])?["d"] as? String, "e")
        XCTAssertEqual(
            (bodies[1] as? [String: Any])?.keys.sorted(), ["v"], "the prototype (and its getter) is lost in the clone")
        XCTAssertEqual((bodies[2] as? [String: Any])?.keys.sorted(), ["shown"])
    }

    func testMapSetRegExpErrorBecomeEmptyDictionariesAndTypedArraysIndexKeyed() async {
        let bodies = await bodies(for: [
            "new Map([[1, 2]])", "new Set([1])", "/re/g", "new Error('boom')", "new Uint8Array([7, 8])",
        ])
        XCTAssertEqual(bodies.count, 5)
        for index in 0..<4 { XCTAssertEqual((bodies[index] as? [String: Any])?.count, 0, "row \(index)") }
        let typed = bodies[4] as? [String: Any]
        XCTAssertEqual(typed?.keys.sorted(), ["0", "1"])
        XCTAssertEqual((typed?["1"] as? NSNumber)?.doubleValue, 8)
    }

    func testSharedReferencesAreCopiedAndCyclesCutWithNull() async {
        let bodies = await bodies(for: [
            "(() => { const a = {x: 1}; return [a, a] })()",
            "(() => { const o = {name: 'o'}; o.self = o; return o })()",
        ])
        let shared = bodies.first as? [Any]
        XCTAssertEqual(shared?.count, 2)
        XCTAssertEqual(((shared?[1] as? [String: Any])?["x"] as? NSNumber)?.doubleValue, 1)
        let cyclic = bodies.last as? [String: Any]
        XCTAssertEqual(cyclic?["name"] as? String, "o")
        XCTAssertTrue(cyclic?["self"] is NSNull, "a back-reference cannot be a Swift value; it becomes NSNull")
    }

    func testFunctionsAndSymbolsAreDroppedAndThePromiseNeverSettles() async throws {
        let bodies = await bodies(for: ["(() => 1)", "Symbol('s')", "({f: () => 1})", "'kept'"])
        XCTAssertEqual(bodies.count, 1, "uncloneable bodies are dropped without a handler call")
        XCTAssertEqual(bodies.first as? String, "kept")
        let session = Session()
        await session.load("<p>x</p>", in: self)
        let outcome =
            try await session.webView.callAsyncJavaScript(
                """
                const p = window.webkit.messageHandlers.bridge.postMessage(() => 1);
                let settled = 'pending';
                p.then(() => { settled = 'resolved' }, e => { settled = 'rejected ' + e.name });
                // Messages are handled in order, so once a later one resolves the dropped one had its chance.
                await window.webkit.messageHandlers.bridge.postMessage('later');
                return [p instanceof Promise, settled]
                """, contentWorld: .page) as? [Any]
        XCTAssertEqual(outcome?.first as? NSNumber, true)
        XCTAssertEqual(outcome?.last as? String, "pending")
    }

    func testDeepNestingIsRefusedNotCrashed() async {
        let bodies = await bodies(for: [
            "(() => { let v = 1; for (let i = 0; i < 5000; i++) v = [v]; return v })()", "'after'",
        ])
        XCTAssertEqual(bodies.last as? String, "after")
        XCTAssertEqual(bodies.count, 1, "a body deeper than \(JSValueConversion.maximumDepth) levels is dropped")
    }

    func testArgumentsReachTheFunctionAsWrittenWhateverThePageReplaced() async throws {
        let session = Session()
        await session.load(
            """
            <script>
            Function.prototype.call = function () { throw new Error("call replaced"); };
            Function.prototype.apply = function () { throw new Error("apply replaced"); };
            </script>
            """, in: self)
        let outcome =
            try await session.webView.callAsyncJavaScript(
                "return [Object.getPrototypeOf(value) === Object.prototype, Object.keys(value).join()];",
                arguments: ["value": ["__proto__": 1, "a": 2]], contentWorld: .page) as? [Any]
        XCTAssertEqual(outcome?.first as? NSNumber, true, "a key __proto__ became the argument's prototype")
        XCTAssertEqual(outcome?.last as? String, "__proto__,a")
    }

    func testLiteralsRenderEveryAllowedType() async throws {
        XCTAssertEqual(
            try JavaScriptLiteral.render(["b": true, "a": [1.5, NSNull(), "q\"\n"]] as [String: Any]),
            #"{["a"]:[1.5,null,"q\"\n"],["b"]:true}"#)
        XCTAssertEqual(try JavaScriptLiteral.render(NSNumber(value: Double.nan)), "NaN")
        XCTAssertEqual(try JavaScriptLiteral.render(-0.0), "-0")
        XCTAssertEqual(try JavaScriptLiteral.render(Date(timeIntervalSince1970: 1)), "new Date(1000.0)")
        XCTAssertEqual(try JavaScriptLiteral.render(nil), "undefined")
        XCTAssertThrowsError(try JavaScriptLiteral.render(URL(string: "https://x.test")!))
    }
}
#endif
