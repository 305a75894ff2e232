import BridgeContract
import ContractTools
import Foundation

/// Contracts in the new language, written as their files are, with a valid body of every message.
///
/// The parity test derives its broken bodies from these; the language tests load and round-trip them.
enum LanguageContracts {
    struct Example: Sendable, CustomStringConvertible {
        let name: String
        let json: String
        /// Valid bodies by kind, as JSON text.
        let valid: [String: [String]]
        /// Valid replies by kind (messages that declare `reply`), as JSON text.
        let replies: [String: [String]]
        var description: String { name }

        /// The contract, loaded from its file text.
        func contract() throws -> BridgeContract { try BridgeContract(jsonData: Data(json.utf8)) }
    }

    static let all: [Example] = [hotwire, capacitor, custom, replyHandler, jsonText]

    /// A string channel (React Native's `postMessage(string)`): bare string messages only on the page's handler.
    /// Not in `all`: its typed code is not generated yet, so only the validators' parity reads it.
    static let stringChannel = Example(
        name: "string-channel",
        json: #"""
            {
              "version": 1,
              "handler": "ReactNativeWebView",
              "receiver": "window.onNative",
              "messages": [
                {"kind": "hello", "direction": "page-to-native", "body": {"type": "constant", "value": "hello"}},
                {"kind": "text", "direction": "page-to-native", "body": {"type": "string"}},
                {"kind": "sync", "direction": "native-to-page", "fields": {"value": {"type": "string"}}}
              ]
            }
            """#,
        valid: [
            "hello": [#""hello""#],
            "text": [#""{\"type\":\"ready\"}""#],
            "sync": [#"{"kind": "sync", "value": "ok"}"#],
        ],
        replies: [:])

    /// React Native's shape: the page posts `JSON.stringify(m)` to one string channel, messages told apart by `type`
    /// inside the text, a request id inside it too; native answers with JSON text, or with a field of JSON text; a
    /// second handler carries a queue as JSON text of an array. In `all`: the typed-code tests cover JSON text.
    static let jsonText = Example(
        name: "JSON-text",
        json: #"""
            {
              "version": 1,
              "handler": "ReactNativeWebView",
              "receiver": "window.onNative",
              "discriminator": "type",
              "requestID": {"field": "id"},
              "messages": [
                {"kind": "hello", "direction": "page-to-native", "body": {"type": "constant", "value": "hello"}},
                {"kind": "ready", "direction": "page-to-native", "encoding": "json",
                 "fields": {"version": {"type": "integer"}}},
                {"kind": "track", "direction": "page-to-native", "encoding": "json",
                 "fields": {"event": {"type": "string"}, "props": {"type": "object", "fields": {
                   "screen": {"type": "string"}, "count": {"type": "integer", "optional": true}}}}},
                {"kind": "fetchUser", "direction": "page-to-native", "encoding": "json",
                 "fields": {"userId": {"type": "integer"}}},
                {"kind": "queue", "direction": "page-to-native", "handler": "queue",
                 "body": {"type": "string", "encoding": "json", "content": {"type": "array", "items": {
                   "type": "object", "fields": {"handlerName": {"type": "string"}, "callbackId": {"type": "string"}}}}}},
                {"kind": "user", "direction": "native-to-page", "encoding": "json", "acknowledges": "fetchUser",
                 "fields": {"name": {"type": "string"}}},
                {"kind": "config", "direction": "native-to-page",
                 "fields": {"payload": {"type": "string", "encoding": "json", "content": {"type": "object", "fields": {
                   "theme": {"type": "string"}, "flags": {"type": "array", "items": {"type": "boolean"}}}}}}}
              ]
            }
            """#,
        valid: [
            "hello": [#""hello""#],
            "ready": [#""{\"type\":\"ready\",\"version\":2}""#],
            "track": [#""{\"type\":\"track\",\"event\":\"open\",\"props\":{\"screen\":\"home\",\"count\":3}}""#],
            "fetchUser": [#""{\"type\":\"fetchUser\",\"id\":\"7\",\"userId\":42}""#],
            "queue": [#""[{\"handlerName\":\"scan\",\"callbackId\":\"cb_1\"}]""#, #""[]""#],
            "user": [#""{\"type\":\"user\",\"id\":\"7\",\"name\":\"Ada\"}""#],
            "config": [#"{"type": "config", "payload": "{\"theme\":\"dark\",\"flags\":[true,false]}"}"#],
        ],
        replies: [:])

    /// Cordova's shape: `exec` posts the positional array `[callbackId, service, action, args]` with arguments of any
    /// type; `null`, a null constant and a match on null. Not in `all`: its typed code is checked on its own
    /// (TypeScriptDeclarationsTests, SwiftTupleTypesTests).
    static let positional = Example(
        name: "positional",
        json: #"""
            {
              "version": 1,
              "handler": "cordova",
              "receiver": "window.cordova.callbackFromNative",
              "messages": [
                {"kind": "exec", "direction": "page-to-native", "body": {"type": "tuple", "items": [
                  {"type": "string"}, {"type": "string"}, {"type": "string"},
                  {"type": "array", "items": {"type": "any"}}]}},
                {"kind": "gap", "direction": "page-to-native", "body": {"type": "constant", "value": null}},
                {"kind": "result", "direction": "native-to-page",
                 "fields": {"status": {"type": "integer"}, "message": {"type": "any"}, "keepCallback": {"type": "boolean"},
                            "error": {"type": "null"}, "args": {"type": "tuple", "items": [{"type": "string"}, {"type": "integer"}]}}},
                {"kind": "done", "direction": "native-to-page", "match": {"kind": "done", "error": null},
                 "fields": {"code": {"type": "constant", "value": null}}}
              ]
            }
            """#,
        valid: [
            "exec": [
                #"["cb1", "Device", "getInfo", []]"#, #"["cb2", "Camera", "take", [1, "x", null, {"a": [true]}]]"#,
            ],
            "gap": ["null"],
            "result": [
                #"{"kind": "result", "status": 1, "message": {"model": "x"}, "keepCallback": false, "error": null, "args": ["a", 2]}"#
            ],
            "done": [#"{"kind": "done", "error": null, "code": null}"#],
        ],
        replies: [:])

    /// Hotwire Native's shape: `component` + `event`, a bare `"ready"`, string ids, `register` and `replyWith`.
    static let hotwire = Example(
        name: "Hotwire-like",
        json: #"""
            {
              "version": 1,
              "handler": "bridge",
              "receiver": "window.nativeBridge.replyWith",
              "discriminator": ["component", "event"],
              "requestID": {"field": "id"},
              "messages": [
                {"kind": "ready", "direction": "page-to-native", "body": {"type": "constant", "value": "ready"}},
                {"kind": "formConnect", "direction": "page-to-native", "match": {"component": "form", "event": "connect"},
                 "fields": {"data": {"type": "object", "fields": {
                   "submitTitle": {"type": "string"},
                   "metadata": {"type": "object", "fields": {"url": {"type": "string"}}}}}}},
                {"kind": "formSubmitEnabled", "direction": "page-to-native",
                 "match": {"component": "form", "event": "submitEnabled"},
                 "fields": {"id": {"type": "string"}, "data": {"type": "object", "fields": {
                   "metadata": {"type": "object", "fields": {"url": {"type": "string"}}}}}}},
                {"kind": "menuDisplay", "direction": "page-to-native", "match": {"component": "menu", "event": "display"},
                 "fields": {"id": {"type": "string"}, "data": {"type": "object", "fields": {
                   "title": {"type": "string"},
                   "items": {"type": "array", "items": {"type": "object", "fields": {
                     "title": {"type": "string"}, "index": {"type": "integer"}}}},
                   "metadata": {"type": "object", "fields": {"url": {"type": "string"}}}}}}},
                {"kind": "register", "direction": "native-to-page", "call": "window.nativeBridge.register",
                 "body": {"type": "array", "items": {"type": "string"}}},
                {"kind": "formConnected", "direction": "native-to-page", "call": "window.nativeBridge.replyWith",
                 "match": {"component": "form", "event": "connect"}, "acknowledges": "formConnect",
                 "fields": {"data": {"type": "object", "fields": {}}}}
              ],
              "check": {
                "userScripts": [{"source": "window.nativeBridge = {};", "injectionTime": "documentStart"}],
                "steps": [
                  {"after": "ready", "send": "register", "value": ["form", "menu"]},
                  {"after": "formConnect", "send": "formConnected", "value": {"data": {}}, "accepted": "returns"}
                ]
              }
            }
            """#,
        valid: [
            "ready": [#""ready""#],
            "formConnect": [
                #"{"id": "1", "component": "form", "event": "connect", "data": {"submitTitle": "Save", "metadata": {"url": "https://a.example/new"}}}"#
            ],
            "formSubmitEnabled": [
                #"{"id": "2", "component": "form", "event": "submitEnabled", "data": {"metadata": {"url": "u"}}}"#
            ],
            "menuDisplay": [
                #"{"id": "3", "component": "menu", "event": "display", "data": {"title": "T", "items": [{"title": "a", "index": 0}, {"title": "b", "index": 1}], "metadata": {"url": "u"}}}"#
            ],
            "register": [#"["form", "menu"]"#, "[]"],
            "formConnected": [#"{"id": "1", "component": "form", "event": "connect", "data": {}}"#],
        ],
        replies: [:])

    /// Capacitor's shape: `type: "message"` + `pluginId` + `methodName`, `js.error`, the prompt channel, `fromNative`.
    static let capacitor = Example(
        name: "Capacitor-like",
        json: #"""
            {
              "version": 1,
              "handler": "bridge",
              "receiver": "window.Capacitor.fromNative",
              "discriminator": ["type", "pluginId", "methodName"],
              "requestID": {"field": "callbackId"},
              "messages": [
                {"kind": "pluginCall", "direction": "page-to-native", "match": {"type": "message"},
                 "fields": {"callbackId": {"type": "string"}, "pluginId": {"type": "string"},
                            "methodName": {"type": "string"}, "options": {"type": "object", "fields": {}}}},
                {"kind": "deviceGetInfo", "direction": "page-to-native",
                 "match": {"type": "message", "pluginId": "Device", "methodName": "getInfo"},
                 "fields": {"options": {"type": "object", "fields": {}}}},
                {"kind": "toastShow", "direction": "page-to-native",
                 "match": {"type": "message", "pluginId": "Toast", "methodName": "show"},
                 "fields": {"callbackId": {"type": "string"}, "options": {"type": "object", "fields": {
                   "text": {"type": "string"}, "duration": {"type": "constant", "value": "short", "optional": true}}}}},
                {"kind": "jsError", "direction": "page-to-native", "match": {"type": "js.error"},
                 "fields": {"error": {"type": "object", "fields": {
                   "message": {"type": "string"}, "url": {"type": "string"}, "line": {"type": "integer"},
                   "col": {"type": "integer"}, "errorObject": {"type": "string"}}}}},
                {"kind": "cookiesEnabled", "direction": "page-to-native", "transport": "prompt",
                 "match": {"type": "CapacitorCookies.isEnabled"}, "reply": {"type": "string"}},
                {"kind": "httpEnabled", "direction": "page-to-native", "transport": "prompt",
                 "match": {"type": "CapacitorHttp"}, "reply": {"type": "string"}},
                {"kind": "deviceInfo", "direction": "native-to-page", "acknowledges": "deviceGetInfo",
                 "match": {"pluginId": "Device", "methodName": "getInfo", "success": true},
                 "fields": {"save": {"type": "boolean"}, "data": {"type": "object", "fields": {
                   "model": {"type": "string"}, "isVirtual": {"type": "boolean"}, "memUsed": {"type": "number"}}}}},
                {"kind": "deviceInfoFailed", "direction": "native-to-page", "acknowledges": "deviceGetInfo",
                 "match": {"pluginId": "Device", "methodName": "getInfo", "success": false},
                 "fields": {"save": {"type": "boolean"}, "error": {"type": "object", "fields": {"message": {"type": "string"}}}}}
              ],
              "check": {
                "userScripts": [{"file": "native-bridge.js", "forMainFrameOnly": false}],
                "steps": [
                  {"after": "cookiesEnabled", "reply": "false"},
                  {"after": "httpEnabled", "reply": "false"},
                  {"after": "deviceGetInfo", "send": "deviceInfo",
                   "value": {"save": false, "data": {"model": "iPhone", "isVirtual": true, "memUsed": 1.5}}, "accepted": "returns"}
                ]
              }
            }
            """#,
        valid: [
            "pluginCall": [
                #"{"type": "message", "callbackId": "8071", "pluginId": "App", "methodName": "getState", "options": {}}"#
            ],
            "deviceGetInfo": [
                #"{"type": "message", "callbackId": "8072", "pluginId": "Device", "methodName": "getInfo", "options": {}}"#
            ],
            "toastShow": [
                #"{"type": "message", "callbackId": "8073", "pluginId": "Toast", "methodName": "show", "options": {"text": "hi", "duration": "short"}}"#,
                #"{"type": "message", "callbackId": "8074", "pluginId": "Toast", "methodName": "show", "options": {"text": "hi"}}"#,
            ],
            "jsError": [
                #"{"type": "js.error", "error": {"message": "m", "url": "u", "line": 1, "col": 2, "errorObject": "{}"}}"#
            ],
            "cookiesEnabled": [#"{"type": "CapacitorCookies.isEnabled"}"#],
            "httpEnabled": [#"{"type": "CapacitorHttp"}"#],
            "deviceInfo": [
                #"{"callbackId": "8072", "pluginId": "Device", "methodName": "getInfo", "success": true, "save": false, "data": {"model": "iPhone", "isVirtual": true, "memUsed": 0.25}}"#
            ],
            "deviceInfoFailed": [
                #"{"callbackId": "8072", "pluginId": "Device", "methodName": "getInfo", "success": false, "save": false, "error": {"message": "m"}}"#
            ],
        ],
        replies: ["cookiesEnabled": [#""true""#, #""false""#], "httpEnabled": [#""false""#]])

    /// A team's own protocol: `{type, payload}`, its own handler and receiver, bare values, a call with an array.
    static let custom = Example(
        name: "custom {type, payload}",
        json: #"""
            {
              "version": 2,
              "handler": "app",
              "receiver": "window.App.receive",
              "discriminator": "type",
              "frames": {"origins": ["https://widgets.example.com", "http://localhost:8080"]},
              "messages": [
                {"kind": "hello", "direction": "page-to-native", "fields": {"payload": {"type": "object", "fields": {
                  "appVersion": {"type": "string"}, "features": {"type": "array", "items": {"type": "string"}}}}}},
                {"kind": "track", "direction": "page-to-native", "fields": {"payload": {"type": "object", "fields": {
                  "event": {"type": "string"}, "count": {"type": "integer"}, "ratio": {"type": "number", "optional": true},
                  "level": {"type": "constant", "value": 2, "optional": true},
                  "scale": {"type": "constant", "value": 0.00001, "optional": true},
                  "big": {"type": "constant", "value": 1e20, "optional": true},
                  "third": {"type": "constant", "value": 0.3333333333333333, "optional": true}}}}},
                {"kind": "log", "direction": "page-to-native", "body": {"type": "string"}},
                {"kind": "ready", "direction": "page-to-native", "body": {"type": "constant", "value": "ready"}},
                {"kind": "update", "direction": "native-to-page", "fields": {"payload": {"type": "object", "fields": {
                  "items": {"type": "array", "items": {"type": "object", "fields": {
                    "id": {"type": "integer"}, "title": {"type": "string"}}}}}}}},
                {"kind": "batch", "direction": "native-to-page", "call": "window.App.batch",
                 "body": {"type": "array", "items": {"type": "object", "fields": {
                   "type": {"type": "string"}, "n": {"type": "integer"}}}}}
              ]
            }
            """#,
        valid: [
            "hello": [#"{"type": "hello", "payload": {"appVersion": "2.1", "features": ["a", "b"]}}"#],
            "track": [
                #"{"type": "track", "payload": {"event": "open", "count": 3, "ratio": 0.5, "level": 2, "scale": 0.00001, "big": 1e20, "third": 0.3333333333333333}}"#,
                #"{"type": "track", "payload": {"event": "open", "count": 9007199254740991}}"#,
            ],
            "log": [#""anything""#, #""""#],
            "ready": [#""ready""#],
            "update": [#"{"type": "update", "payload": {"items": [{"id": 1, "title": "t"}]}}"#],
            "batch": [#"[{"type": "x", "n": 1}, {"type": "y", "n": 2}]"#, "[]"],
        ],
        replies: [:])

    /// A reply-handler bridge: `await postMessage(m)` on handler `native`, the reply typed by the contract.
    static let replyHandler = Example(
        name: "reply handler",
        json: #"""
            {
              "version": 1,
              "handler": "bridge",
              "receiver": "window.bridgeReceive",
              "messages": [
                {"kind": "ready", "direction": "page-to-native", "fields": {"version": {"type": "constant", "value": 1}}},
                {"kind": "getUser", "direction": "page-to-native", "handler": "native",
                 "fields": {"userId": {"type": "integer"}},
                 "reply": {"type": "object", "fields": {"name": {"type": "string"}, "admin": {"type": "boolean"},
                   "tags": {"type": "array", "items": {"type": "string"}, "optional": true}}}},
                {"kind": "save", "direction": "page-to-native", "handler": "native",
                 "fields": {"text": {"type": "string"}}, "reply": {"type": "boolean"}},
                {"kind": "sync", "direction": "native-to-page", "fields": {"value": {"type": "string"}}}
              ],
              "check": {
                "steps": [
                  {"after": "getUser", "reply": {"name": "Ada", "admin": false}},
                  {"after": "save", "replyError": "read-only"},
                  {"after": "didFinish", "send": "sync", "value": {"value": "x"},
                   "accepted": {"expression": "document.body.dataset.received", "equals": "x"}}
                ],
                "expect": ["ready", "getUser", "save"]
              }
            }
            """#,
        valid: [
            "ready": [#"{"kind": "ready", "version": 1}"#],
            "getUser": [#"{"kind": "getUser", "userId": 7}"#],
            "save": [#"{"kind": "save", "text": "t"}"#],
            "sync": [#"{"kind": "sync", "value": "v"}"#],
        ],
        replies: [
            "getUser": [#"{"name": "Ada", "admin": false}"#, #"{"name": "Ada", "admin": true, "tags": ["x"]}"#],
            "save": ["true", "false"],
        ])
}
