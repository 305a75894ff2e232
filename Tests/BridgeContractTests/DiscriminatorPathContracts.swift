import BridgeContract
import Foundation

/// Contracts that tell messages apart by a value below the top level: a nested discriminator (`data.type`) and a
/// `match` inside a field's JSON text (`payload(json).type`). The parity test derives broken bodies from them.
extension LanguageContracts {
    static let discriminatorPaths = [nestedDiscriminator, textDiscriminator]

    /// Every message is `{data: {type, …}}`; its `data.type` is its kind.
    static let nestedDiscriminator = Example(
        name: "nested discriminator",
        json: #"""
            {
              "version": 1,
              "handler": "bus",
              "receiver": "window.bus.receive",
              "discriminator": "data.type",
              "messages": [
                {"kind": "visit", "direction": "page-to-native",
                 "fields": {"data": {"type": "object", "fields": {
                   "type": {"type": "string"}, "location": {"type": "string"}}}}},
                {"kind": "scroll", "direction": "page-to-native",
                 "fields": {"data": {"type": "object", "fields": {
                   "type": {"type": "string"}, "y": {"type": "number"}}}}},
                {"kind": "render", "direction": "native-to-page",
                 "fields": {"data": {"type": "object", "fields": {
                   "type": {"type": "constant", "value": "render"}, "html": {"type": "string"}}}}}
              ]
            }
            """#,
        valid: [
            "visit": [#"{"data": {"type": "visit", "location": "/two"}}"#],
            "scroll": [#"{"data": {"type": "scroll", "y": 2.5}}"#],
            "render": [#"{"data": {"type": "render", "html": "<p>"}}"#],
        ],
        replies: [:])

    /// A field of JSON text whose `type` inside the text names the message: `{"payload": "{\"type\": …}"}`.
    static let textDiscriminator = Example(
        name: "discriminator in JSON text",
        json: #"""
            {
              "version": 1,
              "handler": "channel",
              "receiver": "window.channel.receive",
              "messages": [
                {"kind": "call", "direction": "page-to-native", "match": {"payload(json).type": "call"},
                 "fields": {"payload": {"type": "string", "encoding": "json", "content": {"type": "object", "fields": {
                   "type": {"type": "string"}, "method": {"type": "string"}}}}}},
                {"kind": "event", "direction": "page-to-native", "match": {"payload(json).type": "event"},
                 "fields": {"payload": {"type": "string", "encoding": "json", "content": {"type": "object", "fields": {
                   "type": {"type": "string"}, "name": {"type": "string"}}}}}},
                {"kind": "answer", "direction": "native-to-page", "match": {"payload(json).type": "answer"},
                 "fields": {"payload": {"type": "string", "encoding": "json", "content": {"type": "object", "fields": {
                   "type": {"type": "string"}, "value": {"type": "any"}}}}}}
              ]
            }
            """#,
        valid: [
            "call": [#"{"payload": "{\"type\": \"call\", \"method\": \"getUser\"}"}"#],
            "event": [#"{"payload": "{\"type\": \"event\", \"name\": \"tap\"}"}"#],
            "answer": [#"{"payload": "{\"type\": \"answer\", \"value\": [1]}"}"#],
        ],
        replies: [:])
}
