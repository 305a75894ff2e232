#if os(Linux)
import CWebKitGTK
import Foundation

/// Converts engine values to Foundation values the way Apple's `WKScriptMessage.body` does.
///
/// Object -> `[String: Any]` (enumerable own string keys; `undefined` values omitted), array -> `[Any]`
/// (`undefined` elements and holes dropped, as Apple's current converter does), string -> `String`,
/// number -> `NSNumber(value: Double)`, boolean -> `NSNumber(value: Bool)`, null -> `NSNull`,
/// Date -> `Date`. Top-level `undefined` -> `Optional<Any>.none` boxed in `Any`.
@MainActor
enum JSValueConversion {
    /// Deeper structures are refused rather than risking the main thread's stack.
    static let maximumDepth = 2_000

    enum Failure: Error, Equatable {
        case unsupportedType(String)
        case tooDeep
    }

    /// The Foundation value for `value`, or nil for `undefined`.
    static func foundationValue(_ value: JSValueRef) throws(Failure) -> Any? {
        if let parsed = jsonValue(value) { return parsed }
        return try walk(value)
    }

    /// An object or array of plain data, through one JSON.stringify in the value's own context: one engine call
    /// instead of three or four per field. Nil for anything JSON would change: the walk decides those.
    static func jsonValue(_ value: JSValueRef) -> Any? {
        guard jsc_value_is_object(value) != 0, let realm = realm(of: jsc_value_get_context(value)) else { return nil }
        var arguments: [JSValueRef?] = [value]
        guard let result = jsc_value_function_callv(realm.serializer, 1, &arguments) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(result)) }
        guard jsc_value_is_string(result) != 0, let text = jsc_value_to_string(result) else { return nil }
        defer { g_free(text) }
        return JSONBody.foundationValue(text, maximumDepth: maximumDepth)
    }

    /// JSON text of `value` when JSON keeps it exactly as the walk would convert it, else null.
    ///
    /// Sent back: NaN, ±Infinity and -0 (JSON writes null or 0), `undefined` or a hole in an array (JSON writes
    /// null), objects whose prototype is not the plain one (a Date, a boxed primitive, a Map: JSON may call `toJSON`
    /// or unbox them), nesting past 1,000 (a cycle ends there too), and whatever makes JSON.stringify throw.
    static let serializerSource = """
        (function (value) {
          var objectPrototype = Object.prototype, arrayPrototype = Array.prototype, getPrototypeOf = Object.getPrototypeOf;
          // Checked in JavaScript before JSON.stringify runs without a replacer: a replacer costs a call per value.
          function plain(v, depth) {
            switch (typeof v) {
            case "string": case "boolean": return true;
            case "number": return v === v && v !== Infinity && v !== -Infinity && (v !== 0 || 1 / v > 0);
            case "object": break;
            default: return false;
            }
            if (v === null) return true;
            if (depth > 1000) return false;
            var prototype = getPrototypeOf(v), index, element;
            if (prototype === arrayPrototype) {
              for (index = 0; index < v.length; index++) {
                if (!(index in v)) return false;
                element = v[index];
                if (element === undefined || !plain(element, depth + 1)) return false;
              }
              return true;
            }
            if (prototype !== objectPrototype) return false;
            for (index in v) {
              element = v[index];
              if (element !== undefined && !plain(element, depth + 1)) return false;
            }
            return true;
          }
          try { return plain(value, 0) ? JSON.stringify(value) : null; } catch (e) { return null; }
        })
        """

    /// The value walked field by field through the engine's API.
    static func walk(_ value: JSValueRef) throws(Failure) -> Any? {
        // The objects being walked, innermost last; reused from call to call so a message allocates no set.
        var visiting = reusableStack
        reusableStack = []
        defer {
            visiting.removeAll(keepingCapacity: true)
            reusableStack = visiting
        }
        return try convert(value, depth: 0, visiting: &visiting)
    }

    private static var reusableStack: [JSValueRef] = []

    private static func convert(_ value: JSValueRef, depth: Int, visiting: inout [JSValueRef]) throws(Failure)
        -> Any?
    {
        // The types exclude each other: script results (mostly undefined) and message fields (mostly strings
        // and numbers) are told apart in the fewest engine calls.
        if jsc_value_is_undefined(value) != 0 { return nil }
        if jsc_value_is_string(value) != 0 { return string(value) }
        if jsc_value_is_number(value) != 0 { return NSNumber(value: jsc_value_to_double(value)) }
        if jsc_value_is_boolean(value) != 0 { return NSNumber(value: jsc_value_to_boolean(value) != 0) }
        if jsc_value_is_null(value) != 0 { return NSNull() }
        if jsc_value_is_function(value) != 0 { throw .unsupportedType("function") }
        guard jsc_value_is_object(value) != 0 else { throw .unsupportedType(typeName(value)) }
        guard depth < maximumDepth else { throw .tooDeep }
        // A cycle cannot be represented by Swift values; the back-reference becomes NSNull. The stack is as
        // deep as the nesting, so a linear search costs less than hashing.
        guard !visiting.contains(value) else { return NSNull() }
        visiting.append(value)
        defer { visiting.removeLast() }
        if jsc_value_is_array(value) != 0 {
            let length = arrayLength(value)
            var array: [Any] = []
            array.reserveCapacity(length)
            for index in 0..<length {
                guard let element = jsc_value_object_get_property_at_index(value, guint(index)) else { continue }
                defer { g_object_unref(UnsafeMutableRawPointer(element)) }
                if let converted = try convert(element, depth: depth + 1, visiting: &visiting) {
                    array.append(converted)
                }
            }
            return array
        }
        let keys = ownKeys(value)
        // A cloned Date has no own keys: test for one only then (the instanceof test is costly).
        if keys.isEmpty, jsc_value_object_is_instance_of(value, "Date") != 0 {
            guard let time = jsc_value_object_invoke_methodv(value, "getTime", 0, nil) else {
                throw .unsupportedType("Date")
            }
            defer { g_object_unref(UnsafeMutableRawPointer(time)) }
            return Date(timeIntervalSince1970: jsc_value_to_double(time) / 1000)
        }
        var dictionary: [String: Any] = Dictionary(minimumCapacity: keys.count)
        for key in keys {
            guard let member = property(value, key) else { continue }
            defer { g_object_unref(UnsafeMutableRawPointer(member)) }
            if let converted = try convert(member, depth: depth + 1, visiting: &visiting) {
                dictionary[key] = converted
            }
        }
        return dictionary
    }

    /// The object's own enumerable string keys, as `Object.keys` gives them.
    ///
    /// Through `Object.keys`, not `jsc_value_object_enumerate_properties`: that also lists inherited keys (a body
    /// whose own `__proto__` key became its prototype in the clone would lend it that object's fields), and its C
    /// strings end a key at its first NUL. Plain data takes the JSON path instead, so this runs for the rest.
    private static func ownKeys(_ value: JSValueRef) -> [String] {
        // The value lives in WebKit's own deserialization context, so its `Object` is not the page's.
        guard let realm = realm(of: jsc_value_get_context(value)) else { return [] }
        var arguments: [JSValueRef?] = [value]
        let keys = arguments.withUnsafeMutableBufferPointer {
            jsc_value_object_invoke_methodv(realm.object, "keys", 1, $0.baseAddress)
        }
        guard let keys else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(keys)) }
        return (0..<arrayLength(keys)).compactMap { index in
            guard let key = jsc_value_object_get_property_at_index(keys, guint(index)) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(key)) }
            return string(key)
        }
    }

    /// `value[key]`; a key holding a NUL goes through JavaScript, as the C API's name would end there.
    private static func property(_ value: JSValueRef, _ key: String) -> JSValueRef? {
        guard key.utf8.contains(0) else { return jsc_value_object_get_property(value, key) }
        guard let context = jsc_value_get_context(value), let realm = realm(of: context) else { return nil }
        let bytes = Array(key.utf8).withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard let name = jsc_value_new_string_from_bytes(context, bytes) else { return nil }
        var arguments: [JSValueRef?] = [value, name]
        defer { g_object_unref(UnsafeMutableRawPointer(name)) }
        return jsc_value_function_callv(realm.getter, 2, &arguments)
    }

    /// `Object` and the JSON serializer of the deserialization context, made once per context: every message's
    /// body comes from it.
    private struct Realm {
        let context: UnsafeMutablePointer<JSCContext>
        let object: JSValueRef
        /// `serializerSource`, compiled in this context (so its `Object.prototype` is the body's).
        let serializer: JSValueRef
        /// `(o, k) => o[k]`, for keys the C API cannot name.
        let getter: JSValueRef
    }

    private static var cachedRealm: Realm?

    private static func realm(of context: UnsafeMutablePointer<JSCContext>?) -> Realm? {
        guard let context else { return nil }
        if let cached = cachedRealm, cached.context == context { return cached }
        guard let global = jsc_context_get_global_object(context) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(global)) }
        guard let object = jsc_value_object_get_property(global, "Object") else { return nil }
        let functions = [serializerSource, "(function (o, k) { return o[k]; })"].map { (source: String) in
            jsc_context_evaluate(context, source, -1)
        }
        guard let serializer = functions[0], let getter = functions[1],
            jsc_value_is_function(serializer) != 0, jsc_value_is_function(getter) != 0
        else {
            for held in [object] + functions { if let held { g_object_unref(UnsafeMutableRawPointer(held)) } }
            return nil
        }
        if let previous = cachedRealm {
            for held in [previous.object, previous.serializer, previous.getter] {
                g_object_unref(UnsafeMutableRawPointer(held))
            }
            g_object_unref(UnsafeMutableRawPointer(previous.context))
        }
        // Held, so the pointer compared above can't be reused by another context.
        g_object_ref(UnsafeMutableRawPointer(context))
        let realm = Realm(context: context, object: object, serializer: serializer, getter: getter)
        cachedRealm = realm
        return realm
    }

    private static func arrayLength(_ value: JSValueRef) -> Int {
        guard let length = jsc_value_object_get_property(value, "length") else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(length)) }
        let number = jsc_value_to_double(length)
        return number.isFinite && number >= 0 ? Int(min(number, Double(UInt32.max))) : 0
    }

    /// The string's UTF-8 whole: a C string would end it at its first NUL, where Apple's keeps the NUL.
    static func string(_ value: JSValueRef) -> String {
        guard let bytes = jsc_value_to_string_as_bytes(value) else { return "" }
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        guard let data = g_bytes_get_data(bytes, &size), size > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(size)), as: UTF8.self)
    }

    static func typeName(_ value: JSValueRef) -> String {
        guard let context = jsc_value_get_context(value),
            let typeOf = jsc_context_evaluate(context, "(v => typeof v)", -1)
        else { return "unknown" }
        defer { g_object_unref(UnsafeMutableRawPointer(typeOf)) }
        var arguments: [JSValueRef?] = [value]
        guard let result = jsc_value_function_callv(typeOf, 1, &arguments) else { return "unknown" }
        defer { g_object_unref(UnsafeMutableRawPointer(result)) }
        return string(result)
    }
}

/// Renders Foundation values as JavaScript source, for `callAsyncJavaScript` arguments.
enum JavaScriptLiteral {
    /// Apple's message for an argument outside the allowed types.
    static let unsupportedArgumentMessage =
        "Function argument values must be one of the following types, or contain only the following types: NSNumber, NSNull, NSDate, NSString, NSArray, and NSDictionary"

    struct Unsupported: Error {}

    static func render(_ value: Any?) throws(Unsupported) -> String {
        guard let value else { return "undefined" }
        switch value {
        case is NSNull: return "null"
        case let string as String: return quote(string)
        case let date as Date: return "new Date(\(number(date.timeIntervalSince1970 * 1000)))"
        case let number as NSNumber:
            if isBoolean(number) { return number.boolValue ? "true" : "false" }
            return Self.number(number.doubleValue)
        case let array as [Any]:
            var parts: [String] = []
            for element in array { parts.append(try render(element)) }
            return "[" + parts.joined(separator: ",") + "]"
        case let dictionary as [String: Any]:
            var parts: [String] = []
            for (key, element) in dictionary.sorted(by: { $0.key < $1.key }) {
                // Computed, so a key `__proto__` is a field, as Apple's conversion makes it, not the prototype.
                parts.append("[\(quote(key))]:\(try render(element))")
            }
            return "{" + parts.joined(separator: ",") + "}"
        case let bool as Bool: return bool ? "true" : "false"
        case let int as Int: return number(Double(int))
        case let double as Double: return number(double)
        default: throw Unsupported()
        }
    }

    /// Apple's rule: a char-typed NSNumber equal to YES or NO becomes a JS boolean.
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c" && (number.int8Value == 0 || number.int8Value == 1)
    }

    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 && value.sign == .minus { return "-0" }
        return "\(value)"
    }

    static func quote(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\u{2028}": result += "\\u2028"
            case "\u{2029}": result += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
#endif
