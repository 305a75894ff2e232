#!/bin/sh
# The adoption path, which make test runs beside the suite (scripts/run-tests.sh): each part builds a package of its
# own, so it computes while the suite waits on the engine. Runs every part, then fails naming those that failed:
#   - a team's package that depends on WebBridge by path and tests its own bridge (Examples/Checkout);
#   - the same package running the tool through the command plugin (scripts/check-plugin.sh);
#   - the README's completion, man-page and `make install` lines from a fresh home in bash, zsh and fish
#     (scripts/check-shell-setup.sh), with the webbridge of BIN (default: this package's build).
# Usage: scripts/check-adoption.sh [SWIFT [BIN]]
set -u
swift="${1:-swift}"
root=$(cd "$(dirname "$0")/.." && pwd)
bin="${2:-$(cd "$root" && "$swift" build --show-bin-path)}"
failed=""
part() { # NAME COMMAND…
    name=$1
    shift
    echo "== check-adoption: $name"
    "$@" || failed="$failed
  $name"
}
part "Examples/Checkout: swift test" sh -c 'cd "$1/Examples/Checkout" && "$2" test' sh "$root" "$swift"
part "the command plugin (scripts/check-plugin.sh)" "$root/scripts/check-plugin.sh" "$swift"
part "the shell setup (scripts/check-shell-setup.sh)" env WEBBRIDGE_BIN="$bin" "$root/scripts/check-shell-setup.sh" "$swift"
if [ -n "$failed" ]; then
    echo "check-adoption: these parts failed:$failed" >&2
    exit 1
fi
echo "check-adoption: the Checkout package's tests, the command plugin and the shell setup passed"
