// The fix: the bridge's script sets itself up once per document; injected again, it keeps the callbacks it has.
if (!window.bridge) {
  window.bridge = {
    callbacks: {},
    on: function (kind, callback) { this.callbacks[kind] = callback; },
  };
  window.bridgeReceive = function (message) { return window.bridge.callbacks[message.kind](message); };
}
