#!/bin/sh
# Runs the package's tests: the stress tests and the life-cycle stress tests (minutes of stressed sessions that
# mostly wait on the engine) in the background, each in its own process straight from the test bundle (a second
# `swift test` would wait for the first's lock on .build), and everything else through `swift test` meanwhile.
# Fails if any fails; prints the stress logs.
# Usage: scripts/run-tests.sh SWIFT
set -u
swift="${1:-swift}"
stress='BridgeTestingTests.StressRunTests'
lifecycle='BridgeTestingTests.LifecycleStressTests'
bin="$("$swift" build --show-bin-path)" || exit 3
log="$bin/stress-tests.log"
lifecycle_log="$bin/lifecycle-stress-tests.log"
"$bin/WebBridgePackageTests.xctest" "$stress" >"$log" 2>&1 &
stress_pid=$!
"$bin/WebBridgePackageTests.xctest" "$lifecycle" >"$lifecycle_log" 2>&1 &
lifecycle_pid=$!
"$swift" test --skip-build --skip "$stress" --skip "$lifecycle"
status=$?
wait "$stress_pid"
stress_status=$?
wait "$lifecycle_pid"
lifecycle_status=$?
echo "== $stress (run beside the others, log $log)"
cat "$log"
echo "== $lifecycle (run beside the others, log $lifecycle_log)"
cat "$lifecycle_log"
[ "$status" -eq 0 ] && [ "$stress_status" -eq 0 ] && [ "$lifecycle_status" -eq 0 ]
