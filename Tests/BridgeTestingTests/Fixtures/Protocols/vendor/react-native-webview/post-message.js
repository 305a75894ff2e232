/*
 * Vendored unchanged: everything after this comment is the script native injects, character for character.
 * Project: react-native-webview (github.com/react-native-webview/react-native-webview, npm react-native-webview
 * 16.0.0)
 * File: apple/RNCWebViewImpl.m, -setMessagingEnabled: (the script is not a file of its own: it is the format string
 * @"window.%@ = window.%@ || {};" "window.%@.postMessage = function (data) {" "
 * window.webkit.messageHandlers.%@.postMessage(String(data));" "};", its adjacent literals joined and every %@
 * replaced by MessageHandlerName, @"ReactNativeWebView"; the script has no newline, the one after it ends this
 * file)
 * Commit: d65a961080dad3e82d33370ad6e8d90e973fcbd3 (the file last changed in
 * 58daac9e2e532ca1dcb49003b86568218b9b2b1d)
 * Native injects it, when the app sets onMessage (messagingEnabled), as a WKUserScript at document start, main
 * frame only, and registers a WKScriptMessageHandler named ReactNativeWebView (-resetupScripts:). Native answers
 * with -postMessage: (injectJavaScript of window.dispatchEvent(new MessageEvent('message', {"data": message})), the
 * init dictionary written by RCTJSONStringify).
 * License: MIT. Copyright (c) 2015-present, Facebook, Inc. Permission is hereby granted, free of charge, to any
 * person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the
 * Software without restriction, including without limitation the rights to use, copy, modify, merge, publish,
 * distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions: The above copyright notice and this permission notice
 * shall be included in all copies or substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS IS",
 * WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE
 * LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
 * FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 */
window.ReactNativeWebView = window.ReactNativeWebView || {};window.ReactNativeWebView.postMessage = function (data) {  window.webkit.messageHandlers.ReactNativeWebView.postMessage(String(data));};
