// The web process's half of the engine's console channel (Linux only; WebKitGTK loads it from the folder the UI
// process names with webkit_web_context_set_web_extensions_directory).
//
// WebKit hides an uncaught error of a script of another origin from the page: the error event says only
// "Script error.", with no place. A page file's own script files are each their own origin, so a file page's
// errors are all hidden that way. WebKit still logs the error to the console with its real text, line and script
// (ScriptExecutionContext::reportException logs what it did not dispatch unhidden), and a web process extension
// hears that: WebKitWebPage::console-message-sent. This sends those messages, and only those (JavaScript errors,
// not console calls, not rejections), to the page's view as a user message named WEBBRIDGE_UNCAUGHT_ERROR with
// (text, script URL, line); the UI process decides what they mean. No thread, no state beyond the signal.
#if defined(__linux__)
#include <webkit2/webkit-web-extension.h>

#include "WebBridgeWebExtension.h"

static const char rejectionPrefix[] = "Unhandled Promise Rejection:";

static void consoleMessageSent(WebKitWebPage *page, WebKitConsoleMessage *message, gpointer data) {
    (void)data;
    if (webkit_console_message_get_source(message) != WEBKIT_CONSOLE_MESSAGE_SOURCE_JAVASCRIPT
        || webkit_console_message_get_level(message) != WEBKIT_CONSOLE_MESSAGE_LEVEL_ERROR)
        return;
    const char *text = webkit_console_message_get_text(message);
    if (!text || g_str_has_prefix(text, rejectionPrefix)) return;
    const char *source = webkit_console_message_get_source_id(message);
    GVariant *parameters = g_variant_new(
        "(ssu)", text, source ? source : "", (guint32)webkit_console_message_get_line(message));
    // No callback: nothing waits for an answer, and the message is consumed (it is floating).
    webkit_web_page_send_message_to_view(
        page, webkit_user_message_new(WEBBRIDGE_UNCAUGHT_ERROR, parameters), NULL, NULL, NULL);
}

static void pageCreated(WebKitWebExtension *extension, WebKitWebPage *page, gpointer data) {
    (void)extension;
    (void)data;
    g_signal_connect(page, "console-message-sent", G_CALLBACK(consoleMessageSent), NULL);
}

G_MODULE_EXPORT void webkit_web_extension_initialize(WebKitWebExtension *extension) {
    g_signal_connect(extension, "page-created", G_CALLBACK(pageCreated), NULL);
}
#endif
