#if os(Linux)
import CWebKitGTK
import Foundation
import XCTest
@testable import WebKitGTK

/// A body converts through one `JSON.stringify` when JSON keeps it exactly, else field by field: the two paths
/// must give the same Foundation values, bit for bit, on anything a page can post.
@MainActor
final class JSONBodyTests: XCTestCase {
    /// A JavaScriptCore context of its own, made after the engine is up: one made before the process's first
    /// web view left every later page load unfinished (no didFinish, in a filtered run where this suite came first).
    static func standaloneContext() -> UnsafeMutablePointer<JSCContext> {
        _ = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        return jsc_context_new()!
    }

    /// A seeded generator of the values a page posts: plain data and every kind JSON would change.
    static let generator = #"""
        (function (count, seed) {
          var s = seed >>> 0;
          function rand() {
            s = (s + 0x6D2B79F5) >>> 0;
            var t = s;
            t = Math.imul(t ^ (t >>> 15), t | 1);
            t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
            return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
          }
          function pick(list) { return list[Math.floor(rand() * list.length)]; }
          var strings = ["", "a", "kind", "ready", "\u00fc", "\u65e5\u672c", "\ud83d\ude00", "\u2028", "\u2029",
            "\ufeff", "\u0000", "\u001f", "\n\t\"\\/", "</script>", "__proto__", "\ud800", "x\udc00y", "e\u0301",
            "\u00e9", "constructor", "toJSON", "0", "1e3", " ", "length", "\u007f"];
          var numbers = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, Number.MAX_SAFE_INTEGER + 2,
            NaN, Infinity, -Infinity, Math.pow(2, 53), -Math.pow(2, 31), 123456789.125, 4294967295];
          function leaf() {
            var k = rand();
            if (k < 0.35) return pick(strings) + (rand() < 0.3 ? pick(strings) : "");
            if (k < 0.65) return rand() < 0.5 ? pick(numbers) : (rand() - 0.5) * Math.pow(10, Math.floor(rand() * 40 - 20));
            if (k < 0.75) return rand() < 0.5;
            if (k < 0.83) return null;
            if (k < 0.86) return undefined;
            if (k < 0.89) return new Date(Math.floor(rand() * 2e12));
            if (k < 0.91) return new Number(3);
            if (k < 0.93) return new Map([[1, 2]]);
            if (k < 0.95) return new Uint8Array([7, 8]);
            if (k < 0.97) return [];
            return {};
          }
          function value(depth) {
            var r = rand();
            if (depth > 4 || r < 0.3) return leaf();
            var n = Math.floor(rand() * 5), i;
            if (r < 0.7) {
              var object = {};
              for (i = 0; i < n; i++) object[pick(strings) + (rand() < 0.5 ? i : "")] = value(depth + 1);
              return object;
            }
            var array = [];
            for (i = 0; i < n; i++) { if (rand() < 0.05) array.length += 1; else array.push(value(depth + 1)); }
            return array;
          }
          var out = [];
          for (var index = 0; index < count; index++) {
            var v = value(0);
            if (rand() < 0.02 && v !== null && typeof v === "object") v.again = v;
            out.push(v);
          }
          return out;
        })
        """#

    func testTheJSONPathGivesWhatTheWalkGivesOnTwentyThousandGeneratedBodies() async throws {
        let context = Self.standaloneContext()
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let generate = jsc_context_evaluate(context, Self.generator, -1)!
        defer { g_object_unref(UnsafeMutableRawPointer(generate)) }
        let count = 20_000
        var arguments: [UnsafeMutablePointer<JSCValue>?] = [
            jsc_value_new_number(context, Double(count)), jsc_value_new_number(context, 20_261_201),
        ]
        defer { for argument in arguments { g_object_unref(UnsafeMutableRawPointer(argument)) } }
        let values = try XCTUnwrap(jsc_value_function_callv(generate, 2, &arguments))
        defer { g_object_unref(UnsafeMutableRawPointer(values)) }
        var throughJSON = 0
        var mismatches: [String] = []
        for index in 0..<count {
            let value = try XCTUnwrap(jsc_value_object_get_property_at_index(values, guint(index)))
            defer { g_object_unref(UnsafeMutableRawPointer(value)) }
            if JSValueConversion.jsonValue(value) != nil { throughJSON += 1 }
            let converted = Result(catching: { () throws(JSValueConversion.Failure) in
                try JSValueConversion.foundationValue(value)
            })
            let walked = Result(catching: { () throws(JSValueConversion.Failure) in try JSValueConversion.walk(value) })
            switch (converted, walked) {
            case (.success(let a), .success(let b)) where Self.same(a, b): continue
            case (.failure(let a), .failure(let b)) where a == b: continue
            default:
                if mismatches.count < 5 {
                    mismatches.append("body \(index): \(Self.render(converted)) against \(Self.render(walked))")
                }
            }
        }
        XCTAssertEqual(mismatches, [], "the JSON path and the walk disagree")
        // Both paths must have been exercised for the comparison to mean anything.
        XCTAssertGreaterThan(throughJSON, count / 5, "too few bodies took the JSON path")
        XCTAssertLessThan(throughJSON, count * 4 / 5, "too few bodies were walked")
    }

    func testWhatJSONWouldChangeIsWalked() async throws {
        let context = Self.standaloneContext()
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let sentBack = [
            "({n: NaN})", "({n: Infinity})", "({n: -0})", "[1, , 3]", "[undefined]", "({d: new Date(0)})",
            "({b: new Number(1)})", "({m: new Map()})", "({t: new Uint8Array(2)})", "({s: '\\ud800'})",
            "(function () { var o = {}; o.o = o; return o; })()", "({big: 10n})",
        ]
        for source in sentBack {
            let value = try XCTUnwrap(jsc_context_evaluate(context, source, -1))
            defer { g_object_unref(UnsafeMutableRawPointer(value)) }
            XCTAssertFalse(JSValueConversion.jsonValue(value) != nil, "\(source) went through JSON")
        }
        let date = try XCTUnwrap(jsc_context_evaluate(context, "new Date(1500)", -1))
        defer { g_object_unref(UnsafeMutableRawPointer(date)) }
        XCTAssertEqual((try JSValueConversion.foundationValue(date) as? Date)?.timeIntervalSince1970, 1.5)
        let plain = try XCTUnwrap(
            jsc_context_evaluate(context, "({kind: 'ready', version: 1, list: [true, null, 'é']})", -1))
        defer { g_object_unref(UnsafeMutableRawPointer(plain)) }
        XCTAssertTrue(JSValueConversion.jsonValue(plain) != nil)
    }

    /// Equal as values a handler can tell apart: number bits (-0, NaN), booleans apart from numbers, strings
    /// by their bytes (not by Swift's canonical equivalence), dictionaries by key.
    static func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (is NSNull, is NSNull): return true
        case (let x as NSNumber, let y as NSNumber):
            guard isBoolean(x) == isBoolean(y) else { return false }
            return x.doubleValue.bitPattern == y.doubleValue.bitPattern || (x.doubleValue.isNaN && y.doubleValue.isNaN)
        case (let x as String, let y as String): return Array(x.utf8) == Array(y.utf8)
        case (let x as Date, let y as Date):
            return x.timeIntervalSince1970.bitPattern == y.timeIntervalSince1970.bitPattern
        case (let x as [Any], let y as [Any]): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (let x as [String: Any], let y as [String: Any]):
            return x.count == y.count
                && x.allSatisfy { key, value in
                    y.keys.contains { Array($0.utf8) == Array(key.utf8) } && same(value, y[key])
                }
        default: return false
        }
    }

    /// A converted value as text (a Date's own description traps on an invalid date).
    static func render(_ result: Result<Any?, JSValueConversion.Failure>) -> String {
        func text(_ value: Any?) -> String {
            switch value {
            case nil: return "nil"
            case is NSNull: return "null"
            case let number as NSNumber: return isBoolean(number) ? "\(number.boolValue)" : "\(number.doubleValue)"
            case let string as String: return string.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()
            case let date as Date: return "Date(\(date.timeIntervalSince1970))"
            case let array as [Any]: return "[" + array.map(text).joined(separator: ", ") + "]"
            case let object as [String: Any]:
                return "{" + object.map { "\(text($0.key)): \(text($0.value))" }.sorted().joined(separator: ", ") + "}"
            default: return "\(type(of: value!))"
            }
        }
        switch result {
        case .success(let value): return text(value)
        case .failure(let failure): return "\(failure)"
        }
    }

    static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }
}
#endif
