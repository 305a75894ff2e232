// What Capacitor iOS's native side injects for one registered plugin (document start, main frame only,
// after native-bridge.js): the script that JSExport.exportJS(for:in:) generates in
// ios/Capacitor/Capacitor/JSExport.swift (ionic-team/capacitor), written out for a plugin with jsName
// "Device" and the promise methods getId, getInfo, getBatteryInfo and getLanguageCode (@capacitor/device).
// Not a published file; the page calls Capacitor.Plugins.Device.getInfo() through it.
(function(w) {
var a = (w.Capacitor = w.Capacitor || {});
var p = (a.Plugins = a.Plugins || {});
var t = (p['Device'] = {});
t.addListener = function(eventName, callback) {
return w.Capacitor.addListener('Device', eventName, callback);
}
t.removeAllListeners = function() {
return w.Capacitor.nativePromise('Device', 'removeAllListeners');
}
t['getId'] = function(_options) {
return w.Capacitor.nativePromise('Device', 'getId', _options);
}
t['getInfo'] = function(_options) {
return w.Capacitor.nativePromise('Device', 'getInfo', _options);
}
t['getBatteryInfo'] = function(_options) {
return w.Capacitor.nativePromise('Device', 'getBatteryInfo', _options);
}
t['getLanguageCode'] = function(_options) {
return w.Capacitor.nativePromise('Device', 'getLanguageCode', _options);
}
})(window);
(function(w) {
var a = (w.Capacitor = w.Capacitor || {});
var h = (a.PluginHeaders = a.PluginHeaders || []);
h.push({"name":"Device","methods":[{"name":"addListener"},{"name":"removeListener"},{"name":"removeAllListeners","rtype":"promise"},{"name":"checkPermissions","rtype":"promise"},{"name":"requestPermissions","rtype":"promise"},{"name":"getId","rtype":"promise"},{"name":"getInfo","rtype":"promise"},{"name":"getBatteryInfo","rtype":"promise"},{"name":"getLanguageCode","rtype":"promise"}]});
})(window);
