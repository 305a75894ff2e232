import BridgeContract
import Foundation

/// Contracts whose request id sits below the top level: nested (`data.identifier`), at an element (`body[0]`) and
/// inside a field's JSON text (`payload.id`). The parity test derives broken bodies from them, as from the others.
extension LanguageContracts {
    static let paths = [nestedPath, elementPath, textPath]

    /// Turbo's shape: `{name, data}`, the visit identifier at `data.identifier`; native's visit is acknowledged by
    /// `visitCompleted`, and `visitRendered` repeats the identifier of `visitStarted`.
    static let nestedPath = Example(
        name: "nested path",
        json: #"""
            {
              "version": 1,
              "handler": "turbo",
              "receiver": "window.turboNative.receive",
              "discriminator": "name",
              "requestID": {"field": "data.identifier"},
              "messages": [
                {"kind": "visit", "direction": "native-to-page",
                 "fields": {"data": {"type": "object", "fields": {
                   "identifier": {"type": "string"}, "location": {"type": "string"}}}}},
                {"kind": "visitStarted", "direction": "page-to-native",
                 "fields": {"data": {"type": "object", "fields": {
                   "identifier": {"type": "string"}, "hasCachedSnapshot": {"type": "boolean"}}}}},
                {"kind": "visitRendered", "direction": "page-to-native",
                 "fields": {"data": {"type": "object", "fields": {"identifier": {"type": "string"}}}},
                 "correlation": {"field": "data.identifier", "message": "visitStarted", "settles": false}},
                {"kind": "visitCompleted", "direction": "page-to-native", "acknowledges": "visit",
                 "fields": {"data": {"type": "object", "fields": {
                   "identifier": {"type": "string"}, "timestamp": {"type": "number", "optional": true}}}}}
              ]
            }
            """#,
        valid: [
            "visit": [#"{"name": "visit", "data": {"identifier": "v1", "location": "/two"}}"#],
            "visitStarted": [#"{"name": "visitStarted", "data": {"identifier": "v1", "hasCachedSnapshot": false}}"#],
            "visitRendered": [#"{"name": "visitRendered", "data": {"identifier": "v1"}}"#],
            "visitCompleted": [
                #"{"name": "visitCompleted", "data": {"identifier": "v1", "timestamp": 2}}"#,
                #"{"name": "visitCompleted", "data": {"identifier": ""}}"#,
            ],
        ],
        replies: [:])

    /// Cordova's shape: the command `[callbackId, service, action, args]` carries its id at `body[0]`, and native's
    /// result `[callbackId, status, message]` answers it with the same id.
    static let elementPath = Example(
        name: "element path",
        json: #"""
            {
              "version": 1,
              "handler": "cordova",
              "receiver": "window.cordova.callbackFromNative",
              "requestID": {"field": "body[0]"},
              "messages": [
                {"kind": "exec", "direction": "page-to-native", "body": {"type": "tuple", "items": [
                  {"type": "string"}, {"type": "string"}, {"type": "string"},
                  {"type": "array", "items": {"type": "any"}}]}},
                {"kind": "result", "direction": "native-to-page", "acknowledges": "exec",
                 "body": {"type": "tuple", "items": [{"type": "string"}, {"type": "integer"}, {"type": "any"}]}}
              ]
            }
            """#,
        valid: [
            "exec": [#"["Device1", "Device", "getDeviceInfo", []]"#, #"["", "Device", "getDeviceInfo", [1]]"#],
            "result": [#"["Device1", 1, {"platform": "iOS"}]"#],
        ],
        replies: [:])

    /// A request id inside a field of JSON text: `payload` holds `{"id": …, "method": …}` as text.
    static let textPath = Example(
        name: "path in JSON text",
        json: #"""
            {
              "version": 1,
              "handler": "channel",
              "receiver": "window.channel.receive",
              "requestID": {"field": "payload.id"},
              "messages": [
                {"kind": "call", "direction": "page-to-native",
                 "fields": {"payload": {"type": "string", "encoding": "json", "content": {"type": "object", "fields": {
                   "id": {"type": "string"}, "method": {"type": "string"}}}}}},
                {"kind": "answer", "direction": "native-to-page", "acknowledges": "call",
                 "fields": {"payload": {"type": "string", "encoding": "json", "content": {"type": "object", "fields": {
                   "id": {"type": "string"}, "value": {"type": "any"}}}}}}
              ]
            }
            """#,
        valid: [
            "call": [
                #"{"kind": "call", "payload": "{\"id\": \"c1\", \"method\": \"getUser\"}"}"#,
                #"{"kind": "call", "payload": "{\"id\": \"\", \"method\": \"getUser\"}"}"#,
            ],
            "answer": [#"{"kind": "answer", "payload": "{\"id\": \"c1\", \"value\": [1]}"}"#],
        ],
        replies: [:])
}
