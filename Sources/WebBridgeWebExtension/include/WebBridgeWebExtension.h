#ifndef WEBBRIDGE_WEB_EXTENSION_H
#define WEBBRIDGE_WEB_EXTENSION_H

// The name of the user message the extension sends its view for an uncaught error, with parameters (ssu): the
// error's text, its script's URL and line, as WebKit logged them to the console. The UI process matches it.
#define WEBBRIDGE_UNCAUGHT_ERROR "webbridge.uncaught-error"

// The file the UI process looks for beside its executable, and the folder WebKitGTK is told to load it from.
#define WEBBRIDGE_WEB_EXTENSION_FILE "libWebBridgeWebExtension.so"

#endif
