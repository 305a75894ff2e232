// The fault: the bridge's script sets its callback map up every time it runs, so a second injection throws away
// the page's callbacks and native's next message finds no receiver.
window.bridge = {
  callbacks: {},
  on: function (kind, callback) { this.callbacks[kind] = callback; },
};
window.bridgeReceive = function (message) { return window.bridge.callbacks[message.kind](message); };
