// What Capacitor iOS's native side injects first (document start, main frame only): the string that
// JSExport.exportCapacitorGlobalJS builds in ios/Capacitor/Capacitor/JSExport.swift (ionic-team/capacitor),
// written out for a debug build with logging off and the default iOS server URL. Not a published file.
// DEBUG: true makes native-bridge.js install window.onerror, which posts {type: "js.error", ...}.
window.Capacitor = { DEBUG: true, isLoggingEnabled: false, Plugins: {} }; window.WEBVIEW_SERVER_URL = 'capacitor://localhost';
