/*
 * Vendored unchanged: everything after this comment is the script native injects for one JavaScript channel.
 * Project: webview_flutter_wkwebview (github.com/flutter/packages, pub webview_flutter_wkwebview 3.26.0)
 * File: packages/webview_flutter/webview_flutter_wkwebview/lib/src/webkit_webview_controller.dart,
 * WebKitWebViewController.addJavaScriptChannel: the Dart template 'window.${webKitParams.name} =
 * webkit.messageHandlers.${webKitParams.name};' with the channel name Toaster (the name webview_flutter's own
 * example app, packages/webview_flutter/webview_flutter/example/lib/main.dart, registers)
 * Commit: 6bb342344ecb29e405f9ce980ea9e65f60adf833 (the file last changed in
 * c869a5d308e5958d46b60bda721c7e87fe52ed57)
 * Native injects it as a WKUserScript at document start in every frame (isForMainFrameOnly: false) and registers a
 * WKScriptMessageHandler under the channel's name; the Dart side hands onMessageReceived message.body.toString()
 * ('(null)' for null). webview_flutter has no native-to-page channel: the app calls runJavaScript(String)
 * (evaluateJavaScript) with its own expression.
 * License: BSD-3-Clause. Copyright 2013 The Flutter Authors. Redistribution and use in source and binary forms,
 * with or without modification, are permitted provided that the following conditions are met: Redistributions of
 * source code must retain the above copyright notice, this list of conditions and the following disclaimer.
 * Redistributions in binary form must reproduce the above copyright notice, this list of conditions and the
 * following disclaimer in the documentation and/or other materials provided with the distribution. Neither the name
 * of Google Inc. nor the names of its contributors may be used to endorse or promote products derived from this
 * software without specific prior written permission. THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND
 * CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES
 * OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT OWNER OR
 * CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES
 * (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR
 * BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR
 * TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF
 * THE POSSIBILITY OF SUCH DAMAGE.
 */
window.Toaster = webkit.messageHandlers.Toaster;
