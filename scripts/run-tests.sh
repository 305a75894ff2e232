#!/bin/sh
# Runs the package's tests: the stress tests (minutes of stressed sessions that mostly wait on the engine) in
# the background, straight from the test bundle (a second `swift test` would wait for the first's lock on
# .build), and everything else through `swift test` meanwhile. Fails if either fails; prints the stress log.
# Usage: scripts/run-tests.sh SWIFT
set -u
swift="${1:-swift}"
stress='BridgeTestingTests.StressRunTests'
bin="$("$swift" build --show-bin-path)" || exit 3
log="$bin/stress-tests.log"
"$bin/WebBridgePackageTests.xctest" "$stress" >"$log" 2>&1 &
stress_pid=$!
"$swift" test --skip-build --skip "$stress"
status=$?
wait "$stress_pid"
stress_status=$?
echo "== $stress (run beside the others, log $log)"
cat "$log"
[ "$status" -eq 0 ] && [ "$stress_status" -eq 0 ]
