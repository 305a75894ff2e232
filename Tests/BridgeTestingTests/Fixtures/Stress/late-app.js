// The page's application script: it says ready, assuming the receiver's script ran before it.
window.webkit.messageHandlers.bridge.postMessage({kind: "ready", version: 1});
