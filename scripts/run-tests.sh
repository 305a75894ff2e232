#!/bin/sh
# Runs the package's tests in several processes side by side: they wait on the engine (its web processes, the
# webbridge processes the command-line tests start, loopback servers) more than they compute, so on 2 cores the
# suite takes about half the time it takes in one process.
#   - The XCTest classes go to a queue that $WORKERS workers (default 3) empty, each running one class at a time
#     straight from the test bundle (a second `swift test` would wait for the first's lock on .build).
#   - The stress classes' tests go to the queue one by one, each after a class of the others: each takes a minute
#     or more, mostly waiting, and as whole classes the two were the run's longest path.
#   - COMMAND, if one is given, runs from the start beside them (checks with builds of their own: they compute
#     while the tests wait; after the stress tests, they were the run's longest path).
#   - The Swift Testing tests run through `swift test` meanwhile.
# Each class's output goes to its own log, printed after the run in the queue's order, COMMAND's last. Fails if any
# class, the Swift Testing run or COMMAND fails, naming them.
# Usage: scripts/run-tests.sh SWIFT [COMMAND ARGUMENT…]
set -u
swift="${1:-swift}"
[ "$#" -gt 0 ] && shift
workers="${WORKERS:-3}"
# These classes run test by test (each of their tests takes a minute or more, mostly waiting on the engine), one
# of them after each class of the others, so that the workers share them and about half of them stress at a time.
split='BridgeTestingTests.StressRunTests BridgeTestingTests.LifecycleStressTests'
bin="$("$swift" build --show-bin-path)" || exit 3
bundle="$bin/WebBridgePackageTests.xctest"
logs="$bin/test-logs"
rm -rf "$logs" && mkdir -p "$logs" || exit 3
tests="$("$bundle" --list-tests 2>/dev/null | grep -E '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/[A-Za-z0-9_]+$')"
for class in $split; do
    printf '%s\n' "$tests" | grep -q "^$class/" ||
        { echo "run-tests: $bundle does not list $class; remedy: swift build --build-tests" >&2; exit 3; }
done
for class in $split; do printf '%s\n' "$tests" | grep "^$class/"; done >"$logs/split"
printf '%s\n' "$tests" | sed 's|/.*||' | sort -u | grep -vxF "$(printf '%s\n' $split)" >"$logs/classes"
# One of each in turn, then the rest of the longer list.
paste -d '\n' "$logs/split" "$logs/classes" | grep . >"$logs/queue"
order="$(cat "$logs/queue")"

log() { printf '%s/%s.log' "$logs" "$(printf '%s' "$1" | tr / .)"; }
run() { "$bundle" "$1" >"$(log "$1")" 2>&1 || echo "$1" >>"$logs/failed"; }
# Takes the queue's first entry (a class or one test) under a lock; prints nothing once it is empty.
next() { flock "$logs/queue.lock" sh -c 'head -n 1 "$1"; sed -i 1d "$1"' sh "$logs/queue"; }
drain() { while class="$(next)" && [ -n "$class" ]; do run "$class"; done; }

pids=""
if [ "$#" -gt 0 ]; then
    ("$@" >"$logs/beside.log" 2>&1 || echo "$*" >>"$logs/failed") &
    pids="$pids $!"
fi
i=0
while [ "$i" -lt "$workers" ]; do
    drain &
    pids="$pids $!"
    i=$((i + 1))
done
"$swift" test --skip-build --disable-xctest
status=$?
[ "$status" -eq 0 ] || echo "the Swift Testing tests (swift test --disable-xctest)" >>"$logs/failed"
for pid in $pids; do wait "$pid"; done

for class in $order; do
    echo "== $class (log $(log "$class"))"
    cat "$(log "$class")"
done
if [ "$#" -gt 0 ]; then
    echo "== $* (run beside the tests, log $logs/beside.log)"
    cat "$logs/beside.log"
fi
count=$(printf '%s\n' $order | grep -c .)
if [ -s "$logs/failed" ]; then
    echo "run-tests: $count XCTest classes and tests, the Swift Testing tests${1:+ and $*} ran; these failed:" >&2
    sed 's/^/  /' "$logs/failed" >&2
    exit 1
fi
echo "run-tests: $count XCTest classes and tests, the Swift Testing tests${1:+ and $*} passed"
