#!/usr/bin/env python3
"""The fixture check as a Linux user would do it without WebBridge.

Selenium drives Debian's WebKitWebDriver (the same WebKitGTK engine). WebDriver cannot register a
native message handler, so a script injected before the page's own stubs the bridge: it records what
the page posts. The check is the same as `webbridge check`: one valid `ready` (kind a string, version a
number equal to 1, not a boolean), then `bridgeReceive({kind: "sync", value: "ok"})` accepted and shown.

Usage: peer_check.py [--pages N [--fresh]] FIXTURE.html   (exit 0 pass, 1 contract failure, 3 environment)
With --pages N, one driver session checks the page N times in a row (a suite, as the peer would run one);
with --fresh too, each page gets its own driver session, so no cookie or storage passes between pages.
Prints one verdict line. Starts its own Xvfb when DISPLAY is unset, as `webbridge check` does.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile

STUB = """<script>
(function () {
  var messages = [];
  window.__bridgeMessages = messages;
  var handlers = {bridge: {postMessage: function (m) {
    messages.push({kind: m && m.kind, kindType: typeof (m && m.kind), version: m && m.version,
                   versionType: typeof (m && m.version)});
  }}};
  try { Object.defineProperty(window, "webkit", {value: {messageHandlers: handlers}, configurable: true}); }
  catch (e) { window.webkit = {messageHandlers: handlers}; }
})();
</script>
"""


def start_xvfb(keep):
    """Starts Xvfb the quick way (-displayfd, no TCP) and returns (process, display).

    Unless `keep`, the server ends with its last client; a driver session per page needs it to outlive each browser.
    """
    read_end, write_end = os.pipe()
    process = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp", "-screen", "0", "1280x1024x24"]
        + ([] if keep else ["-terminate"]),
        pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read_end, 64)
        if not chunk:
            raise RuntimeError("Xvfb exited before reporting a display number")
        number += chunk
    os.close(read_end)
    return process, ":" + number.decode().strip()


def main():
    # A bench timeout sends SIGTERM: exit through `finally`, so the driver, the browser and Xvfb go too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(3))
    arguments = sys.argv[1:]
    count = 1
    fresh = False
    if len(arguments) >= 3 and arguments[0] == "--pages" and arguments[1].isdigit() and int(arguments[1]) > 0:
        count = int(arguments[1])
        arguments = arguments[2:]
        if arguments[0] == "--fresh":
            fresh = True
            arguments = arguments[1:]
    if len(arguments) != 1:
        print(next(line for line in __doc__.splitlines() if line.startswith("Usage:")), file=sys.stderr)
        return 2
    with open(arguments[0], encoding="utf-8") as file:
        html = file.read()
    at = html.find("<script")
    page = html[:at] + STUB + html[at:] if at >= 0 else STUB + html
    xvfb = None
    if not os.environ.get("DISPLAY"):
        xvfb, display = start_xvfb(keep=fresh)
        os.environ["DISPLAY"] = display
    driver = None
    try:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.service import Service
    except ImportError:
        print("peer: selenium is not installed (run `make bench-peer`)", file=sys.stderr)
        return 3
    driver_path = shutil.which("WebKitWebDriver")
    if driver_path is None:
        print("peer: WebKitWebDriver is not installed (run `make bench-peer`)", file=sys.stderr)
        return 3
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False, encoding="utf-8") as file:
        file.write(page)
        path = file.name
    try:
        options = webdriver.WebKitGTKOptions()
        options.binary_location = os.environ.get(
            "PEER_BROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
        options.add_argument("--automation")

        def start_driver():
            started = webdriver.WebKitGTK(options=options, service=Service(executable_path=driver_path))
            started.set_page_load_timeout(10)
            started.set_script_timeout(10)
            return started

        driver = start_driver()
        for index in range(count):
            if fresh and index > 0:
                driver.quit()
                driver = None
                driver = start_driver()
            driver.get("file://" + path)  # returns once the document has loaded
            messages = driver.execute_script("return window.__bridgeMessages")
            ready = [m for m in messages if m["kindType"] == "string" and m["kind"] == "ready"
                     and m["versionType"] == "number" and m["version"] == 1]
            if len(messages) != 1 or len(ready) != 1:
                print("FAIL native did not receive the page's message")
                return 1
            driver.execute_script("window.bridgeReceive(arguments[0])", {"kind": "sync", "value": "ok"})
            shown = driver.execute_script("return document.body.dataset.received")
            if shown != "ok":
                print("FAIL page did not accept the native message")
                return 1
        sessions = f", {count} driver sessions" if fresh and count > 1 else ""
        print("PASS ready received, sync accepted" + (f" ({count} pages{sessions})" if count > 1 else ""))
        return 0
    finally:
        if driver is not None:
            driver.quit()
        os.unlink(path)
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
