window.bridgeReceive = function (message) { document.body.dataset.received = message.value; };
