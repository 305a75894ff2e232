#!/bin/sh
# Runs a command (the test suite) with a marker in its environment, then fails if any process that inherited the
# marker (web and network processes, Xvfb, servers, stand-ins) still runs: nothing a test starts may outlive it.
# Only this run's processes carry the marker, so other test runs on the machine are never counted or touched.
# Usage: scripts/check-no-leftover-processes.sh swift test --skip-build
set -u
marker="webbridge-test-run-$$-$(date +%s)"
WEBBRIDGE_TEST_RUN="$marker" "$@"
status=$?

marked() {
    for environ in /proc/[0-9]*/environ; do
        pid=${environ#/proc/}
        pid=${pid%/environ}
        [ "$pid" = "$$" ] && continue
        if { tr '\0' '\n' < "$environ"; } 2>/dev/null | grep -qx "WEBBRIDGE_TEST_RUN=$marker"; then echo "$pid"; fi
    done
}

# A process may take a moment to notice its parent is gone: wait for each exit, at most 10 s in all.
deadline=$(($(date +%s) + 10))
for pid in $(marked); do
    left=$((deadline - $(date +%s)))
    [ "$left" -gt 0 ] && timeout "$left" tail --pid="$pid" -f /dev/null 2>/dev/null
done

leftovers=$(marked)
if [ -n "$leftovers" ]; then
    echo "error: processes started by the test run still run 10 s after it ended (rule: nothing a test starts outlives it):" >&2
    for pid in $leftovers; do
        echo "  pid $pid: $({ tr '\0' ' ' < /proc/"$pid"/cmdline; } 2>/dev/null | cut -c1-120)" >&2
    done
    echo "remedy: stop them in the test that starts them (tearDown, defer); they are being killed now" >&2
    for pid in $leftovers; do kill -9 "$pid" 2>/dev/null; done
    [ "$status" -eq 0 ] && status=1
fi
exit "$status"
