#!/usr/bin/env bash
# The adoption path's command plugin: a package that depends on WebBridge (Examples/Checkout, by path) runs
# `swift package webbridge …`. Fails, naming what went wrong, unless the version, a passing page (with a JSON
# report that follows Docs/report.schema.json) and a broken page all come through the plugin as the CLI gives them.
set -euo pipefail
swift=${1:-swift}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/Examples/Checkout"
fail() { echo "check-plugin: $*" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
contract=Sources/CheckoutBridge/Resources/checkout-contract.json
pages=Tests/CheckoutBridgeTests/Fixtures

number=$(sed -n 's/.*public static let number = "\(.*\)"/\1/p' "$root/Sources/BridgeContract/Version.swift")
version=$("$swift" package webbridge --version 2>"$scratch/build.txt") || fail "the plugin did not run: $(tail -5 "$scratch/build.txt")"
[ "$version" = "webbridge $number" ] || fail "swift package webbridge --version printed '$version', not 'webbridge $number'"

# Paths relative to the consumer package resolve as typed there.
"$swift" package webbridge check --page "$pages/checkout.html" --contract "$contract" --timeout 10 \
    --report "json=$scratch/checkout.json" >"$scratch/pass.txt" 2>"$scratch/pass.err" ||
    fail "the passing page failed through the plugin: $(cat "$scratch/pass.txt" "$scratch/pass.err")"
grep -q "^PASS: both directions of the bridge hold" "$scratch/pass.txt" || fail "no PASS line: $(cat "$scratch/pass.txt")"
python3 -m check_jsonschema --schemafile "$root/Docs/report.schema.json" "$scratch/checkout.json" >/dev/null ||
    fail "the plugin's JSON report breaks Docs/report.schema.json"

# A broken page fails: webbridge's exit 1 reaches `swift package`, which fails naming it.
if "$swift" package webbridge check --page "$pages/checkout-items-as-text.html" --contract "$contract" \
    --timeout 10 >"$scratch/fail.txt" 2>"$scratch/fail.err"; then
    fail "the broken page passed through the plugin: $(cat "$scratch/fail.txt")"
fi
grep -q "^FAIL: " "$scratch/fail.txt" || fail "no FAIL line: $(cat "$scratch/fail.txt")"
grep -q "Plugin ended with exit code 1" "$scratch/fail.err" || fail "webbridge's exit code 1 was not passed on: $(cat "$scratch/fail.err")"
echo "check-plugin: swift package webbridge runs from Examples/Checkout ($version): pass, report and failure as the CLI gives them"

# CWebKitGTK's pkg-config flags: SwiftPM warns of prohibited ones (-pthread, -Wl,--export-dynamic) on every build of
# a consumer, even one with nothing to build. Neither the plugin's calls nor the consumer's own build may show it.
"$swift" build >"$scratch/consumer-build.txt" 2>&1 || fail "Examples/Checkout does not build: $(tail -20 "$scratch/consumer-build.txt")"
if grep -h "prohibited flag" "$scratch"/*.txt "$scratch"/*.err; then
    fail "SwiftPM warns of prohibited pkg-config flags (CWebKitGTK's, see Package.swift)"
fi
echo "check-plugin: no prohibited-flag warning in the plugin's calls or Examples/Checkout's build"
