#!/usr/bin/python3
"""Loads protocol fixture pages in WebKitGTK, plays each protocol's native side, prints what happened.

A hand check of Tests/BridgeTestingTests/Fixtures/Protocols (not a test, not a verdict): it shows which
messages native received, which native calls the page refused, and what the page set in
document.body.dataset.received, so a reader can compare them with protocols.json.
Run under a display: xvfb-run -a /usr/bin/python3 scripts/play-protocol-fixtures.py [PAGE.html[@value|@error] ...]
(@error makes the reply-handler native answer getUser with an error; pages named error-* get it by default.)
Pages load from their file URLs with allow-file-access-from-file-urls on (the Hotwire pages import an ES module,
which WebKit refuses from a file URL without it), or from PROTOCOLS_BASE_URL when set.
"""

import json
import os
import sys

import gi

gi.require_version("WebKit2", "4.1")
gi.require_version("JavaScriptCore", "4.1")
from gi.repository import GLib, JavaScriptCore, WebKit2  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "BridgeTestingTests", "Fixtures", "Protocols")
ROOT = os.path.normpath(ROOT)
QUIET_SECONDS = 3.0  # longer than hotwire-native-bridge's 2 s handshake timer, so its repair shows
LONGEST_SECONDS = 15.0

# Records page errors and unhandled rejections in every frame; only this script's observation.
OBSERVER = """
addEventListener('error', e => webkit.messageHandlers.__observe.postMessage(
  {kind: 'uncaught error', message: String(e.message)}))
addEventListener('unhandledrejection', e => webkit.messageHandlers.__observe.postMessage(
  {kind: 'unhandled rejection', message: String(e.reason && e.reason.message || e.reason)}))
"""


def js_args(*args):
    """Encodes arguments as Hotwire's JavaScript.swift does: a JSON array without its brackets."""
    return json.dumps(list(args), separators=(",", ":"))[1:-1]


class Hotwire:
    scripts = [("vendor/hotwire-native-ios/bridge.js", "start", "main")]
    handlers = ["bridge"]
    reply_handlers = []
    components = ["form", "menu"]

    def prompt(self, text):
        return None

    def message(self, handler, body, page_url):
        # Bridge.swift: the bare string "ready" -> bridgeDidInitialize -> register(components: [...]).
        if body == "ready":
            return ["window.nativeBridge.register(%s)" % js_args(self.components)]
        # InternalMessage: id, component and event must be strings, else "Unhandled message received".
        if not isinstance(body, dict) or not all(isinstance(body.get(k), str) for k in ("id", "component", "event")):
            return []
        data = body.get("data") if isinstance(body.get("data"), dict) else {}
        # BridgeDelegate.bridgeDidReceiveMessage ignores a message whose data.metadata.url is not the page's URL.
        if (data.get("metadata") or {}).get("url") != page_url:
            return []
        if body["component"] == "form" and body["event"] == "connect":
            # The form component's reply(to: "connect"): the received message, same id, same data.
            reply = {"id": body["id"], "component": "form", "event": "connect", "data": data}
            return ["window.nativeBridge.replyWith(%s)" % js_args(reply)]
        return []


class Capacitor:
    scripts = [
        ("capacitor/capacitor-global.js", "start", "main"),
        ("vendor/capacitor-ios/native-bridge.js", "start", "main"),
        ("capacitor/plugin-device.js", "start", "main"),
    ]
    handlers = ["bridge"]
    reply_handlers = []
    device_info = {"model": "iPhone", "platform": "ios", "operatingSystem": "ios", "osVersion": "17.5",
                   "manufacturer": "Apple", "isVirtual": True, "webViewVersion": "17.5"}

    def prompt(self, text):
        # WebViewDelegationHandler: the config prompts get String(Bool), "false" when the plugin config is absent.
        try:
            payload = json.loads(text)
        except ValueError:
            return None
        if isinstance(payload, dict) and payload.get("type") in ("CapacitorCookies.isEnabled", "CapacitorHttp"):
            return "false"
        return None

    def message(self, handler, body, page_url):
        if not isinstance(body, dict) or body.get("type") != "message":
            return []  # js.error is logged; other types go to call interceptors.
        callback_id = body.get("callbackId") if isinstance(body.get("callbackId"), str) else ""
        if body.get("pluginId") == "Device" and body.get("methodName") == "getInfo":
            # CapacitorBridge.toJs, as its string template writes it.
            return ["window.Capacitor.fromNative({\n callbackId: '%s',\n pluginId: 'Device',\n"
                    " methodName: 'getInfo',\n save: false,\n success: true,\n data: %s\n })"
                    % (callback_id, json.dumps(self.device_info))]
        return []


class ReplyHandler:
    scripts = []
    handlers = []
    reply_handlers = ["native"]

    def __init__(self, mode="value"):
        self.mode = mode

    def prompt(self, text):
        return None

    def reply(self, handler, body):
        if isinstance(body, dict) and body.get("action") == "getUser" and type(body.get("id")) is int:
            if self.mode == "error":
                return ("error", "not signed in")
            return ("value", {"name": "Ada", "admin": True})
        return ("error", "unknown action")

    def message(self, handler, body, page_url):
        return []


class Custom:
    scripts = []
    handlers = ["native"]
    reply_handlers = []

    def prompt(self, text):
        return None

    def message(self, handler, body, page_url):
        if isinstance(body, dict) and body.get("type") == "hello":
            payload = body.get("payload")
            if isinstance(payload, dict) and isinstance(payload.get("screen"), str) and payload.get("version") == 1:
                return ["window.App.receive(%s)" % js_args({"type": "welcome", "id": "1", "payload": {"user": "Ada"}})]
        return []


def native_for(page, play):
    folder = os.path.basename(os.path.dirname(page))
    if folder == "hotwire":
        return Hotwire()
    if folder == "capacitor":
        return Capacitor()
    if folder == "reply-handler":
        return ReplyHandler(play or ("error" if os.path.basename(page).startswith("error-") else "value"))
    return Custom()


def value_json(value):
    if hasattr(value, "get_js_value"):  # WebKit2 4.1 hands a JavascriptResult to the plain handler
        value = value.get_js_value()
    text = value.to_json(0)
    return json.loads(text) if text is not None else None


def run(page, play=None):
    native = native_for(page, play)
    log = []
    ucm = WebKit2.UserContentManager()
    ucm.add_script(WebKit2.UserScript.new(OBSERVER, WebKit2.UserContentInjectedFrames.ALL_FRAMES,
                                          WebKit2.UserScriptInjectionTime.START, None, None))
    for path, time, frames in native.scripts:
        with open(os.path.join(ROOT, path)) as f:
            source = f.read()
        ucm.add_script(WebKit2.UserScript.new(
            source,
            WebKit2.UserContentInjectedFrames.TOP_FRAME if frames == "main" else WebKit2.UserContentInjectedFrames.ALL_FRAMES,
            WebKit2.UserScriptInjectionTime.START if time == "start" else WebKit2.UserScriptInjectionTime.END,
            None, None))
    view = WebKit2.WebView.new_with_user_content_manager(ucm)
    settings = view.get_settings()
    settings.set_allow_file_access_from_file_urls(os.environ.get("PROTOCOLS_BASE_URL") is None)
    loop = GLib.MainLoop()
    state = {"quiet": None}

    def quiet():
        state["quiet"] = None
        loop.quit()
        return False

    def touch():
        if state["quiet"] is not None:
            GLib.source_remove(state["quiet"])
        state["quiet"] = GLib.timeout_add(int(QUIET_SECONDS * 1000), quiet)

    def evaluate(script):
        def done(view, result):
            try:
                view.evaluate_javascript_finish(result)
                log.append("native call ok: %s" % script.split("(")[0].strip())
            except GLib.Error as error:
                log.append("native call FAILED: %s -> %s" % (script.split("(")[0].strip(), error.message))
            touch()
        view.evaluate_javascript(script, -1, None, None, None, done)

    def on_message(ucm, value, handler):
        body = value_json(value)
        if handler == "__observe":
            log.append("page %s: %s" % (body["kind"], body["message"]))
        else:
            log.append("native received on %s: %s" % (handler, json.dumps(body)))
            for script in native.message(handler, body, view.get_uri()):
                evaluate(script)
        touch()

    def on_reply_message(ucm, value, reply, handler):
        body = value_json(value)
        log.append("native received on %s (reply handler): %s" % (handler, json.dumps(body)))
        kind, answer = native.reply(handler, body)
        if kind == "error":
            log.append("native replied with error message")
            reply.return_error_message(answer)
        else:
            log.append("native replied %s" % json.dumps(answer))
            context = JavaScriptCore.Context.new()
            reply.return_value(JavaScriptCore.Value.new_from_json(context, json.dumps(answer)))
        touch()
        return True

    for name in ["__observe"] + native.handlers:
        ucm.register_script_message_handler(name)
        ucm.connect("script-message-received::" + name, on_message, name)
    for name in native.reply_handlers:
        ucm.register_script_message_handler_with_reply(name, None)
        ucm.connect("script-message-with-reply-received::" + name, on_reply_message, name)

    held = []

    def on_dialog(view, dialog):
        if dialog.get_dialog_type() == WebKit2.ScriptDialogType.PROMPT:
            answer = native.prompt(dialog.get_message())
            if answer is None:
                # Native would show an alert and wait for a person: hold the dialog open, unanswered.
                log.append("prompt %s -> left unanswered (native shows an alert)" % dialog.get_message())
                held.append(dialog)
            else:
                log.append("prompt %s -> %s" % (dialog.get_message(), json.dumps(answer)))
                dialog.prompt_set_text(answer)
            touch()
            return True
        return False

    view.connect("script-dialog", on_dialog)

    def on_load(view, event):
        if event == WebKit2.LoadEvent.FINISHED:
            log.append("load finished")
            touch()

    view.connect("load-changed", on_load)
    base = os.environ.get("PROTOCOLS_BASE_URL")  # e.g. http://127.0.0.1:8765/ serving the Protocols folder
    view.load_uri(base + os.path.relpath(page, ROOT) if base else "file://" + os.path.abspath(page))
    longest = GLib.timeout_add(int(LONGEST_SECONDS * 1000), quiet)
    touch()
    loop.run()
    for source in (longest, state["quiet"]):
        if source is not None:
            GLib.source_remove(source)
    state["quiet"] = None

    result = {}

    def got(view, res):
        try:
            result["received"] = view.evaluate_javascript_finish(res).to_string()
        except GLib.Error as error:
            result["received"] = "error " + error.message
        loop.quit()

    for dialog in held:
        dialog.close()
    held.clear()
    view.evaluate_javascript("String(document.body && document.body.dataset.received)", -1, None, None, None, got)
    loop.run()
    log.append("dataset.received = %s" % result["received"])
    view.terminate_web_process()
    return log


def main():
    pages = sys.argv[1:] or sorted(
        os.path.join(ROOT, folder, name)
        for folder in ("hotwire", "capacitor", "reply-handler", "custom")
        for name in os.listdir(os.path.join(ROOT, folder)) if name.endswith(".html"))
    if not sys.argv[1:]:
        # The reply-handler pass page handles both of native's answers: also play the error reply.
        pages.append(os.path.join(ROOT, "reply-handler", "pass.html@error"))
        pages.append(os.path.join(ROOT, "reply-handler", "error-unhandled.html@value"))
    for argument in pages:
        page, _, play = argument.partition("@")
        print("== %s%s" % (os.path.relpath(page, ROOT), " (native plays: %s)" % play if play else ""))
        for line in run(page, play or None):
            print("   " + line)


if __name__ == "__main__":
    main()
