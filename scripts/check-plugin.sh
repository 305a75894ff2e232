#!/usr/bin/env bash
# The adoption path's command plugin: a package that depends on WebBridge (Examples/Checkout, by path) runs
# `swift package webbridge …`. Fails, naming each thing that went wrong, unless through the plugin:
#   - webbridge's standard output and standard error arrive apart (`--format json > f` is JSON; a usage error is on
#     standard error only);
#   - no build line shows when webbridge builds (it shows them only when the build fails);
#   - webbridge's exit code arrives (SwiftPM names it: "Plugin ended with exit code N");
#   - a passing page passes, with a JSON report that follows Docs/report.schema.json;
#   - SwiftPM warns of no prohibited pkg-config flag (CWebKitGTK) in the consumer's build.
set -uo pipefail
swift=${1:-swift}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/Examples/Checkout" || exit 1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() {
    echo "check-plugin: $*" >&2
    failures=$((failures + 1))
}
contract=Sources/CheckoutBridge/Resources/checkout-contract.json
pages=Tests/CheckoutBridgeTests/Fixtures
# What SwiftPM prints while it builds ("[12/40] Compiling …", "Building for debugging...", "Build complete!").
build_lines='^\[[0-9]+/[0-9]+\] |^Building for |^Build complete|^Build of product|^Compiling |^Linking '
# Runs `swift package webbridge ARGS…`; NAME.out and NAME.err hold its standard output and error, NAME.status its
# exit status (SwiftPM's own: 1 when the plugin fails).
plugin() {
    local name=$1
    shift
    "$swift" package webbridge "$@" >"$scratch/$name.out" 2>"$scratch/$name.err"
    echo $? >"$scratch/$name.status"
}
shown() { echo "stdout: $(head -c 1500 "$scratch/$1.out"); stderr: $(head -c 1500 "$scratch/$1.err")"; }

# The first call builds webbridge: no build line may show.
number=$(sed -n 's/.*public static let number = "\(.*\)"/\1/p' "$root/Sources/BridgeContract/Version.swift")
plugin version --version
[ "$(cat "$scratch/version.status")" = 0 ] || fail "the plugin did not run: $(shown version)"
[ "$(cat "$scratch/version.out")" = "webbridge $number" ] ||
    fail "swift package webbridge --version printed '$(cat "$scratch/version.out")', not 'webbridge $number'"
for name in version; do
    if grep -Eq "$build_lines" "$scratch/$name.out" "$scratch/$name.err"; then
        fail "build lines showed although webbridge built: $(grep -Eh "$build_lines" "$scratch/$name.out" "$scratch/$name.err" | head -5)"
    fi
done

# A passing page with --format json, on which webbridge also writes a note to standard error (the page is not
# UTF-8 and declares no charset): standard output is the JSON report and nothing else, the note is on standard
# error. Paths relative to the consumer package resolve as typed there.
sed '/<meta charset/d' "$pages/checkout.html" >"$scratch/latin1.html"
printf '<!-- Caf\xe9 -->\n' >>"$scratch/latin1.html"
plugin pass check --page "$scratch/latin1.html" --contract "$contract" --timeout 10 --format json \
    --report "json=$scratch/checkout.json"
[ "$(cat "$scratch/pass.status")" = 0 ] || fail "the passing page failed through the plugin: $(shown pass)"
grep -q "not UTF-8" "$scratch/pass.err" || fail "webbridge's note on a Latin-1 page is not on standard error: $(shown pass)"
python3 -m json.tool "$scratch/pass.out" >/dev/null 2>"$scratch/pass.json-error" ||
    fail "standard output of --format json is not JSON ($(cat "$scratch/pass.json-error")): $(shown pass)"
python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["passed"] is not True)' "$scratch/pass.out" \
    2>/dev/null || fail "the JSON on standard output does not say passed: true: $(shown pass)"
if grep -Eq "$build_lines" "$scratch/pass.out" "$scratch/pass.err"; then
    fail "build lines showed on a call that built nothing: $(grep -Eh "$build_lines" "$scratch/pass.out" "$scratch/pass.err" | head -5)"
fi
python3 -m check_jsonschema --schemafile "$root/Docs/report.schema.json" "$scratch/checkout.json" >/dev/null ||
    fail "the plugin's JSON report breaks Docs/report.schema.json"

# A usage error: webbridge's message on standard error only, and its exit code 2 named.
plugin usage check --page "$pages/checkout.html" --timeout soon
[ "$(cat "$scratch/usage.status")" != 0 ] || fail "a usage error passed through the plugin: $(shown usage)"
grep -q "^webbridge check: .*--timeout" "$scratch/usage.err" || fail "webbridge's usage error is not on standard error: $(shown usage)"
if grep -q "^webbridge check: " "$scratch/usage.out"; then
    fail "webbridge's standard error landed on standard output: $(shown usage)"
fi
grep -q "Plugin ended with exit code 2" "$scratch/usage.err" ||
    fail "webbridge's exit code 2 (usage) was not passed on: $(shown usage)"

# A broken page fails: its FAIL line on standard output, webbridge's exit code 1 named.
plugin broken check --page "$pages/checkout-items-as-text.html" --contract "$contract" --timeout 10
[ "$(cat "$scratch/broken.status")" != 0 ] || fail "the broken page passed through the plugin: $(shown broken)"
grep -q "^FAIL: " "$scratch/broken.out" || fail "no FAIL line on standard output: $(shown broken)"
grep -q "Plugin ended with exit code 1" "$scratch/broken.err" ||
    fail "webbridge's exit code 1 was not passed on: $(shown broken)"

# CWebKitGTK's pkg-config flags: SwiftPM warns of prohibited ones on every build of a consumer, even one with
# nothing to build. Neither the plugin's calls nor the consumer's own build may show the warning.
"$swift" build >"$scratch/consumer-build.txt" 2>&1 || fail "Examples/Checkout does not build: $(tail -20 "$scratch/consumer-build.txt")"
if grep -h "prohibited flag" "$scratch"/*.err "$scratch/consumer-build.txt"; then
    fail "SwiftPM warns of prohibited pkg-config flags (CWebKitGTK's, see Package.swift)"
fi

if [ "$failures" -gt 0 ]; then
    echo "check-plugin: $failures check(s) failed" >&2
    exit 1
fi
echo "check-plugin: swift package webbridge runs from Examples/Checkout ($(cat "$scratch/version.out")): JSON apart" \
    "from errors, no build lines, exit codes 1 and 2 passed on, no prohibited-flag warning"
